"""A user's objective in one file: Barlow Twins (redundancy reduction of the cross-correlation).

Its weight is called ``lam``, as LeJEPA's is, but with another default (5e-3 against
1e-3): each objective owns its hyperparameters. ``lam`` may differ between stacked runs.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from lejepa_id.errors import UsageError
from lejepa_id.objectives import Objective, register_objective


def cross_correlation(H: torch.Tensor) -> torch.Tensor:
    """Per-coordinate standardized cross-correlation of views 0 and 1.

    Shape: H (..., 2, B, m) -> (..., m, m)
    """
    a, b = H[..., 0, :, :], H[..., 1, :, :]
    a = (a - a.mean(-2, keepdim=True)) / (a.std(-2, keepdim=True) + 1e-6)
    b = (b - b.mean(-2, keepdim=True)) / (b.std(-2, keepdim=True) + 1e-6)
    return a.transpose(-2, -1) @ b / a.shape[-2]


@register_objective("barlow")
@dataclass(frozen=True)
class Barlow(Objective):
    """sum_i (1 - C_ii)^2 + lam sum_{i != j} C_ij^2 for the views' cross-correlation C."""

    lam: float = 5e-3
    """Weight of the off-diagonal (redundancy) term, > 0."""

    views = 2
    per_run = ("lam",)

    def validate(self) -> Barlow:
        if not self.lam > 0:
            raise UsageError(f"lam={self.lam!r} must be > 0")
        return self

    def loss(self, H, draw=None, generator=None, **per_run):
        lam = torch.as_tensor(self.value("lam", per_run), dtype=H.dtype, device=H.device)
        C = cross_correlation(H)
        eye = torch.eye(C.shape[-1], dtype=C.dtype, device=C.device)
        on = ((1 - C) * eye).pow(2).sum((-2, -1))
        off = (C * (1 - eye)).pow(2)
        # lam holds one value per stacked run: give it the two matrix axes to broadcast over.
        off = (lam[..., None, None] * off).sum((-2, -1))
        return on + off, {"invariance": on.detach(), "redundancy": off.detach()}
