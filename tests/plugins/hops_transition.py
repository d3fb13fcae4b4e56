"""A user's transition in one file, with a config key of its own: ``hops`` OU steps at once.

z' = rho^k z + sqrt(1 - rho^(2k)) eta is the OU channel run for k = ``hops`` steps, so the
views' correlation is rho^k.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from lejepa_id.errors import UsageError
from lejepa_id.worlds import Transition, register_transition


@dataclass(frozen=True)
class HopsKeys:
    hops: int = 2
    """OU steps between the two views, >= 1."""


@register_transition("hops")
@dataclass(frozen=True)
class Hops(Transition):
    rho: float = 0.95
    hops: int = 2

    keys = HopsKeys

    @classmethod
    def validate_config(cls, config) -> None:
        if not config.hops >= 1:
            raise UsageError(f"hops={config.hops!r} must be >= 1")

    @classmethod
    def from_config(cls, config) -> Hops:
        return cls(rho=config.rho, hops=config.hops)

    def correlations(self, dim: int) -> torch.Tensor:
        return torch.full((dim,), self.rho**self.hops, dtype=torch.float64)

    def views(self, z, n_views, law, generator, actions=None):
        r = self.rho**self.hops
        eta = law.sample((n_views, *z.shape), generator, dtype=z.dtype)
        return r * z.unsqueeze(0) + math.sqrt(1 - r * r) * eta
