"""A new objective in one file: alignment plus a penalty on the code's mean and covariance.

Importing this module registers ``mode: centered_whiten`` and its hyperparameter
``beta``, which becomes a run config key like ``lam``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from lejepa_id.errors import UsageError
from lejepa_id.objectives import Objective, alignment, register_objective, whitening


@register_objective("centered_whiten")
@dataclass(frozen=True)
class CenteredWhiten(Objective):
    """beta * (|mean h|^2 + |Cov h - I|^2) + (1 - beta) * alignment."""

    beta: float = 0.5
    """Weight of the moment penalty, in (0, 1)."""

    per_run = ("beta",)

    def validate(self) -> CenteredWhiten:
        if not 0.0 < self.beta < 1.0:
            raise UsageError(f"beta={self.beta!r} must lie in (0, 1)")
        return self

    def loss(self, H, draw=None, generator=None, **per_run):
        beta = self.value("beta", per_run)
        mean = H.reshape(*H.shape[:-3], -1, H.shape[-1]).mean(dim=-2).pow(2).sum(-1)
        reg = mean + whitening(H)
        align = alignment(H)
        loss = beta * reg + (1.0 - beta) * align
        return loss, {"alignment": align.detach(), "moments": reg.detach()}


def reference_loss(H: torch.Tensor, beta: float) -> torch.Tensor:
    """The same loss written out for one run, for the test's known answer."""
    X = H.reshape(-1, H.shape[-1])
    cov = torch.cov(X.T)
    reg = X.mean(0).pow(2).sum() + (cov - torch.eye(X.shape[-1])).pow(2).mean()
    align = (H - H.mean(0, keepdim=True)).pow(2).mean()
    return beta * reg + (1 - beta) * align
