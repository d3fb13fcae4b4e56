"""The stacking policy: which runs may be trained as one stack of members.

Runs trained in one stack share one encoder module (each parameter's first dimension
indexes the member), one optimizer and one evaluation schedule, so they must agree on
everything that shapes these: the :data:`STACK_KEYS`, the keys their transition lists in
``stack_keys``, and their objective's hyperparameters except the ``per_run`` ones (such
as ``lam``), which the engine passes as one value per member. The sweep planner groups
runs by :func:`stack_key`; :func:`check_stack` refuses a group that does not agree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from lejepa_id.config.run import RunConfig
from lejepa_id.errors import UsageError
from lejepa_id.objectives import objective_class
from lejepa_id.worlds.transitions import transition_class

STACK_KEYS = (
    "dim",
    "obs_size",
    "code_size",
    "encoder",
    "hidden",
    "depth",
    "layers",
    "views",
    "mode",
    "steps",
    "batch",
    "lr",
    "weight_decay",
    "eval_size",
    "eval_every",
    "eval_every_early",
    "early_until",
    "device",
    "transition",
)
"""Keys that must agree for runs to share one stacked model and one optimizer, besides
the objective's hyperparameters that are not per run (see :func:`stack_key`)."""


def shared_params(mode: str) -> list[str]:
    """The objective's hyperparameters that every member of a stack shares."""
    cls = objective_class(mode)
    return [f.name for f in dataclasses.fields(cls) if f.name not in cls.per_run]


def stack_key(config: RunConfig) -> tuple[Any, ...]:
    """What runs must share to be trained as one stack: :data:`STACK_KEYS`, the keys their
    transition lists in ``stack_keys`` (sizes of what it hands the objective), and their
    objective's hyperparameters, except its ``per_run`` ones (such as lam)."""
    params = tuple(getattr(config, k) for k in shared_params(config.mode))
    shaped = tuple(getattr(config, k) for k in transition_class(config.transition).stack_keys)
    # The encoder's own keys shape the stacked module: every member must share them.
    encoder = tuple(sorted(config.encoder_options.items()))
    return tuple(getattr(config, k) for k in STACK_KEYS) + shaped + params + encoder


def check_stack(configs: Sequence[RunConfig]) -> None:
    """Refuse (UsageError naming the keys) runs that cannot share one stack."""
    first = configs[0]
    for c in configs[1:]:
        if stack_key(c) != stack_key(first):
            keys = (*STACK_KEYS, *shared_params(first.mode), *first.encoder_options)
            diff = [k for k in keys if getattr(c, k) != getattr(first, k)]
            raise UsageError(f"runs of one group must share {', '.join(diff)}")
