"""VICReg-style whitening: lam |Cov(h) - I|^2 + (1 - lam) alignment (docs/model.md, section 4)."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from lejepa_id.objectives.lejepa import check_lam
from lejepa_id.objectives.registry import Objective, register_objective
from lejepa_id.objectives.terms import alignment, whitening


@register_objective("whiten")
@dataclass(frozen=True)
class Whiten(Objective):
    """Alignment plus a second-moment penalty: matches only the covariance of N(0, I)."""

    lam: float = 0.5
    """Regularizer weight lambda in [0, 1] (0.5: the published whitening runs' value)."""

    label = "VICReg (whiten)"
    color = "tab:green"
    order = 1
    per_run = ("lam",)

    def validate(self) -> Whiten:
        check_lam(self.lam)
        return self

    def loss(
        self,
        H: torch.Tensor,
        draw: torch.Tensor | None = None,
        generator: torch.Generator | None = None,
        **per_run: torch.Tensor,
    ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        lam = self.value("lam", per_run)
        align, reg = alignment(H), whitening(H)
        loss = lam * reg + (1.0 - lam) * align
        return loss, {"alignment": align.detach(), "whitening": reg.detach()}
