"""A new transition in one file: a lazy OU channel that keeps z unchanged half the time.

Importing this module registers ``transition: lazy_ou``; it reads the run's ``rho``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from lejepa_id.worlds import Transition, register_transition


@register_transition("lazy_ou")
@dataclass(frozen=True)
class LazyOU(Transition):
    """z' = z with probability ``stay``, else an OU step rho z + sqrt(1 - rho^2) eta."""

    rho: float = 0.9
    stay: float = 0.5

    @classmethod
    def from_config(cls, config) -> LazyOU:
        return cls(rho=config.rho)

    def correlations(self, dim: int) -> torch.Tensor:
        # E[z z'] = stay * 1 + (1 - stay) * rho for unit-variance coordinates.
        return torch.full((dim,), self.stay + (1 - self.stay) * self.rho, dtype=torch.float64)

    def views(self, z, n_views, law, generator, actions=None):
        eta = law.sample((n_views, *z.shape), generator, dtype=z.dtype)
        moved = self.rho * z.unsqueeze(0) + math.sqrt(1 - self.rho**2) * eta
        u = torch.rand((n_views, z.shape[0], 1), generator=generator, device=z.device)
        return torch.where(u < self.stay, z.unsqueeze(0).expand_as(moved), moved)
