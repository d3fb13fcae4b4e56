"""LeJEPA with a learned action-conditioned predictor (action worlds, docs/spectral.md).

loss = lam * SIGReg(codes) + (1 - lam) * mean |P(h_t, a_t) - h_{t+1}|^2 / m, where the
predictor P(h, a) = h W_A + a W_B is linear and trained with the encoder. View 0 of H is
h_t, view 1 is h_{t+1}; the data source hands the actions a_t to the loss.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from lejepa_id.errors import UsageError
from lejepa_id.metrics.action import action_scores
from lejepa_id.objectives.lejepa import LeJEPA
from lejepa_id.objectives.registry import register_objective
from lejepa_id.objectives.sigreg import sigreg
from lejepa_id.worlds.transitions import transition_class


class StackedPredictor(nn.Module):
    """P(h, a) = h W_A + a W_B for R stacked members (row vectors, like the encoder).

    It starts at zero (W_A = 0, W_B = 0): no guess about A. Starting at LeJEPA's identity
    predictor traps runs whose A has a negative eigenvalue (A = rho O with det O = -1):
    the identity punishes that direction so hard at first that the encoder drops it
    (measured: R^2(h -> z) 0.50 at n = 2 with the identity start, 0.997 with zero).

    Shape:
        W_A: (R, m, m), W_B: (R, k, m); forward: h (R, B, m), a (R, B, k) -> (R, B, m)
    """

    def __init__(self, members: int, code_dim: int, action_dim: int) -> None:
        super().__init__()
        self.W_A = nn.Parameter(torch.zeros(members, code_dim, code_dim))
        self.W_B = nn.Parameter(torch.zeros(members, action_dim, code_dim))

    def forward(self, h: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
        return h @ self.W_A + a @ self.W_B


def prediction_error(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Mean over the batch and the code's coordinates of the squared error.

    Shape:
        pred, target: (..., B, m) -> (...)
    """
    return (pred - target).pow(2).mean(dim=(-2, -1))


@register_objective("lejepa_action")
@dataclass(frozen=True)
class LeJEPAAction(LeJEPA):
    """SIGReg plus the error of a learned linear predictor of h_{t+1} from (h_t, a_t).

    Its hyperparameters are LeJEPA's (lam and SIGReg's); the predictor's weights are
    trainable parameters the engine optimizes with the encoder's.
    """

    label = "SIGReg + action predictor"
    color = "tab:purple"
    order = 3
    views = 2
    takes_actions = True

    @classmethod
    def validate_config(cls, config: Any) -> None:
        super().validate_config(config)
        if not transition_class(config.transition).takes_actions:
            raise UsageError(f"mode={cls.name!r} needs transition linear_action (actions)")

    def final_scores(self, module, z, h, world) -> dict[str, float]:
        # The learned predictor against the world's own (A, B) and its LQR design.
        t = world.transition
        return action_scores(z, h, module["W_A"], module["W_B"], t.A, t.B)

    def module(self, config: Any, members: int) -> nn.Module:
        return StackedPredictor(members, config.code_size, config.action_dim)

    def loss(self, H, draw=None, generator=None, actions=None, module=None, **per_run):
        if actions is None or module is None:
            raise UsageError("mode lejepa_action needs the actions and its predictor module")
        lam = self.value("lam", per_run)
        err = prediction_error(module(H[..., 0, :, :], actions), H[..., 1, :, :])
        reg = sigreg(H, draw, self.num_directions, self.knots, self.t_max, generator)
        loss = lam * reg + (1.0 - lam) * err
        return loss, {"prediction": err.detach(), "sigreg": reg.detach()}
