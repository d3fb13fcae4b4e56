"""Checks a user runs on a component of their own before training with it.

:func:`check_stacking` verifies an objective's stacking contract: the engine trains R runs
as one stack, handing the loss codes of shape (R, V, B, m) and each ``per_run``
hyperparameter as a tensor of shape (R,). The loss must then give member r exactly what r
alone gives. The classic mistake, multiplying a (R,) tensor into an (R, m, m) one without
reshaping it, raises an error when R != m but silently broadcasts along the wrong axis
when R = m; so the check runs both R = m and R = m + 1:

```python
from lejepa_id.testing import check_stacking
check_stacking("barlow")   # raises StackingError with what differed
```
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import torch

from lejepa_id.errors import UsageError
from lejepa_id.objectives import Objective, build_objective, objective_class


class StackingError(AssertionError):
    """A stacked loss differs from the same runs computed alone."""


def _per_run_values(cls: type[Objective], key: str, members: int) -> list[Any]:
    default = next(f.default for f in dataclasses.fields(cls) if f.name == key)
    if default is dataclasses.MISSING:
        raise TypeError(f"{cls.__name__}.{key} has no default to vary around")
    # Distinct values near the default, each one a valid setting of the objective.
    out = []
    for r in range(members):
        for factor in (1.0 + 0.5 * r / members, 1.0 - 0.5 * r / members):
            value = default * factor
            try:
                build_objective(cls.name, **{key: value})
            except UsageError:
                continue
            out.append(value)
            break
        else:
            raise UsageError(f"no valid value of {key!r} near its default {default!r}; pass values")
    return out


def check_stacking(
    objective: str,
    *,
    code_dim: int = 3,
    batch: int = 16,
    views: int | None = None,
    values: Mapping[str, Sequence[Any]] | None = None,
    seed: int = 0,
    rtol: float = 1e-9,
) -> None:
    """Check that objective ``objective`` (a registered name) stacks: for R = ``code_dim``
    and R = ``code_dim`` + 1 members with different ``per_run`` values, the stacked loss
    and each term equal the members' losses computed alone (float64, to ``rtol``).

    ``values`` maps a per-run key to R values (default: distinct valid values near the
    field's default). Randomness must come from the objective's ``draw`` (one draw is
    shared by both computations). Objectives with trainable parameters of their own
    (``module``) are not covered. Raises :class:`StackingError` naming the member, R and
    the key that differed.
    """
    cls = objective_class(objective)
    if cls.module is not Objective.module:
        raise UsageError(f"check_stacking does not cover {objective!r}: it has a module")
    obj = build_objective(objective)
    V = views or cls.views or 2
    gen = torch.Generator().manual_seed(seed)
    for members in (code_dim, code_dim + 1):
        H = torch.randn(members, V, batch, code_dim, generator=gen, dtype=torch.float64)
        draw = obj.draw(code_dim, torch.Generator().manual_seed(seed + 1), 1)
        step = None if draw is None else draw[0].to(torch.float64)
        per_run = {}
        for key in cls.per_run:
            given = (values or {}).get(key)
            chosen = list(given) if given is not None else _per_run_values(cls, key, members)
            if len(chosen) < members:
                raise UsageError(f"values[{key!r}] needs {members} values, got {len(chosen)}")
            per_run[key] = torch.tensor(chosen[:members], dtype=torch.float64)
        loss, terms = obj.loss(H, step, None, **per_run)
        if tuple(loss.shape) != (members,):
            raise StackingError(
                f"{objective}: stacked loss has shape {tuple(loss.shape)}, expected ({members},) "
                f"for R = {members} members"
            )
        for r in range(members):
            alone, alone_terms = obj.loss(
                H[r : r + 1], step, None, **{k: v[r : r + 1] for k, v in per_run.items()}
            )
            pairs = [("loss", loss[r], alone[0])]
            pairs += [(f"term {k}", terms[k][r], alone_terms[k][0]) for k in alone_terms]
            for what, got, want in pairs:
                if not torch.allclose(got, want, rtol=rtol, atol=0.0):
                    raise StackingError(
                        f"{objective}: with R = {members} stacked members (code_dim = "
                        f"{code_dim}), member {r}'s {what} is {float(got)!r} but alone it is "
                        f"{float(want)!r}; reshape per-run hyperparameters to broadcast over "
                        f"the leading run axis (e.g. lam[..., None, None] against (R, m, m))"
                    )
