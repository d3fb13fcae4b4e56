"""InfoNCE with a Gaussian similarity, the contrastive baseline (docs/model.md, section 4)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from lejepa_id.errors import UsageError
from lejepa_id.objectives.registry import Objective, register_objective
from lejepa_id.objectives.terms import infonce


@register_objective("infonce")
@dataclass(frozen=True)
class InfoNCE(Objective):
    """Symmetric InfoNCE on two views with s(u, v) = -|u - v|^2 / (2 sigma^2)."""

    sigma: float = 1.0
    """Temperature sigma; > 0."""

    label = "InfoNCE"
    color = "tab:red"
    order = 2
    views = 2

    def validate(self) -> InfoNCE:
        if not (self.sigma > 0 and math.isfinite(self.sigma)):
            raise UsageError(f"sigma={self.sigma!r} must be a finite number > 0")
        return self

    def loss(
        self,
        H: torch.Tensor,
        draw: torch.Tensor | None = None,
        generator: torch.Generator | None = None,
        **per_run: torch.Tensor,
    ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        loss = infonce(H, self.sigma)
        return loss, {"infonce": loss.detach()}
