"""LeJEPA: lam * SIGReg + (1 - lam) * alignment (docs/model.md, section 4)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import torch

from lejepa_id.config.limits import check_int_range
from lejepa_id.errors import UsageError
from lejepa_id.objectives.registry import Objective, register_objective
from lejepa_id.objectives.sigreg import random_directions, sigreg
from lejepa_id.objectives.terms import alignment


def check_lam(lam: float) -> None:
    if not 0.0 <= lam <= 1.0:
        raise UsageError(f"lam={lam!r} must lie in [0, 1]")


@register_objective("lejepa")
@dataclass(frozen=True)
class LeJEPA(Objective):
    """Alignment plus the sliced characteristic-function test against N(0, I)."""

    lam: float = 1e-3
    """Regularizer weight lambda in [0, 1]."""
    num_directions: int = 256
    """SIGReg: random directions per step, fresh every step."""
    knots: int = 17
    """SIGReg: equally spaced knots on [0, t_max]."""
    t_max: float = 3.0
    """SIGReg: largest knot; > 0."""

    label = "SIGReg (LeJEPA)"
    color = "tab:blue"
    order = 0
    per_run = ("lam",)

    def validate(self) -> LeJEPA:
        check_lam(self.lam)
        check_int_range("num_directions", self.num_directions, 1, 65_536)
        check_int_range("knots", self.knots, 2, 1024)
        if not (self.t_max > 0 and math.isfinite(self.t_max)):
            raise UsageError(f"t_max={self.t_max!r} must be a finite number > 0")
        return self

    def memory_floats(self, config: Any) -> int:
        # SIGReg projects every view on every direction and evaluates it at every knot.
        return config.views * config.batch * self.num_directions * self.knots

    def draw(self, code_dim: int, generator: torch.Generator, steps: int) -> torch.Tensor:
        """Directions for ``steps`` steps. Shape: -> (steps, m, num_directions)."""
        return random_directions(code_dim, self.num_directions, generator, (steps,))

    def loss(
        self,
        H: torch.Tensor,
        draw: torch.Tensor | None = None,
        generator: torch.Generator | None = None,
        **per_run: torch.Tensor,
    ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        lam = self.value("lam", per_run)
        align = alignment(H)
        reg = sigreg(H, draw, self.num_directions, self.knots, self.t_max, generator)
        loss = lam * reg + (1.0 - lam) * align
        return loss, {"alignment": align.detach(), "sigreg": reg.detach()}
