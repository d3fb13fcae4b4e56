"""Objectives: pure loss terms and the registered objectives built from them.

Built-in objectives (``mode``): ``lejepa``, ``whiten``, ``infonce``, ``lejepa_action``.
A new objective is one file with a registered :class:`Objective` subclass (see docs/extending.md).
"""

from __future__ import annotations

import torch

from lejepa_id.objectives import infonce as _infonce
from lejepa_id.objectives import lejepa as _lejepa
from lejepa_id.objectives import lejepa_action as _lejepa_action
from lejepa_id.objectives import whiten as _whiten
from lejepa_id.objectives.registry import (
    Objective,
    build_objective,
    objective_class,
    objective_names,
    register_objective,
)
from lejepa_id.objectives.sigreg import random_directions, sigreg, sigreg_knots
from lejepa_id.objectives.terms import alignment, infonce, whitening

del _infonce, _lejepa, _lejepa_action, _whiten  # imported for their registrations


def objective(
    H: torch.Tensor,
    mode: str = "lejepa",
    *,
    generator: torch.Generator | None = None,
    directions: torch.Tensor | None = None,
    **params,
) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """The loss of objective ``mode`` on views H, and its terms.

    ``params`` are the objective's hyperparameters (others take their defaults); ``lam``
    may be a tensor of shape (...) holding one value per stacked run. SIGReg uses
    ``directions`` (..., m, S) when given, else draws fresh ones from ``generator``.

    Shape:
        H: (..., V, B, m) -> loss (...), terms {name: (...)}
    """
    cls = objective_class(mode)
    per_run = {k: params.pop(k) for k in cls.per_run if isinstance(params.get(k), torch.Tensor)}
    obj = build_objective(mode, **params)
    return obj.loss(H, directions, generator, **per_run)


__all__ = [
    "Objective",
    "alignment",
    "build_objective",
    "infonce",
    "objective",
    "objective_class",
    "objective_names",
    "random_directions",
    "register_objective",
    "sigreg",
    "sigreg_knots",
    "whitening",
]
