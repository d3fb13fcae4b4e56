"""A user's objective, checked once on a probe batch before anything trains on it.

A built-in objective is known to keep the loss contract. One a plugin registers is
called once, before the first step, on random codes shaped as training shapes them,
``(R, V, B, m)``, with what a step hands it (its draw, the per-run hyperparameters, the
actions of an action world, its own module). It must return ``(loss, terms)`` with a
floating loss of shape ``(R,)`` (one per stacked run) that carries a gradient back to
the codes, and terms of the same shape. Every failure is one
:class:`~lejepa_id.errors.UsageError` line naming the objective and where it comes from,
instead of a traceback deep in the step or the bookkeeping.

The probe draws from its own generator and clears the gradients it leaves, so a run
trains exactly as it would without it.
"""

from __future__ import annotations

from typing import Any

import torch

from lejepa_id.config.run import RunConfig
from lejepa_id.errors import UsageError, origin
from lejepa_id.objectives.registry import Objective, build_objective
from lejepa_id.worlds.build import check_plugin_mixings
from lejepa_id.worlds.transitions import transition_class

PROBE_BATCH = 8


def probe_objective(
    objective: Objective,
    *,
    members: int,
    views: int,
    code_dim: int,
    per_run: dict[str, torch.Tensor],
    module: torch.nn.Module | None,
    action_size: int,
    device: torch.device,
) -> None:
    """Call a plugin objective once on a probe batch; a one-line UsageError when its
    output breaks the loss contract (built-in objectives are not probed)."""
    where = origin(type(objective))
    if where.startswith("built-in"):
        return
    label = f"objective {objective.name!r} ({where})"
    gen = torch.Generator(device).manual_seed(0)
    shape = (members, views, PROBE_BATCH, code_dim)
    H = torch.randn(*shape, generator=gen, device=device, requires_grad=True)
    keywords: dict[str, Any] = dict(per_run)
    if action_size:
        keywords["actions"] = torch.randn(
            members, PROBE_BATCH, action_size, generator=gen, device=device
        )
    if module is not None:
        keywords["module"] = module
    try:
        drawn = objective.draw(code_dim, gen, 1)
        draw = None if drawn is None else torch.stack([drawn[0]] * members)
        out = objective.loss(H, draw, **keywords)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - any failure of user code
        first = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise UsageError(f"{label} failed on a probe batch H of shape {shape}: {first}") from None
    problem = _contract_problem(out, members)
    if problem is None:
        try:
            out[0].sum().backward()
        except Exception as exc:  # noqa: BLE001
            problem = f"its loss has no usable gradient ({type(exc).__name__}: {exc})"
            problem = problem.splitlines()[0]
    if module is not None:
        module.zero_grad(set_to_none=True)
    if problem is not None:
        raise UsageError(f"{label} on a probe batch H of shape {shape}: {problem}")


def probe_configs(configs: list[Any]) -> None:
    """Probe each plugin objective and plugin mixing the runs of a sweep select, once,
    before any worker starts (a broken loss or world is one line then, not an error.json
    per run); configs that are not a :class:`RunConfig` (a Reacher run) are left to their
    own kind."""
    check_plugin_mixings([c for c in configs if isinstance(c, RunConfig)])
    seen: set[str] = set()
    for c in configs:
        if not isinstance(c, RunConfig) or c.mode in seen:
            continue
        seen.add(c.mode)
        objective = build_objective(c.mode, **c.objective_params)
        probe_objective(
            objective,
            members=1,
            views=c.views,
            code_dim=c.code_size,
            per_run={k: torch.tensor([getattr(c, k)]) for k in objective.per_run},
            module=objective.module(c, 1),
            action_size=transition_class(c.transition).from_config(c).action_size(),
            device=torch.device("cpu"),
        )


def _contract_problem(out: Any, members: int) -> str | None:
    if not (isinstance(out, tuple) and len(out) == 2):
        return f"loss() returned {type(out).__name__}, not the pair (loss, terms)"
    loss, terms = out
    want = (members,)
    if not isinstance(loss, torch.Tensor) or not loss.is_floating_point():
        return f"the loss is {_kind(loss)}, not a floating tensor of shape {want}"
    if tuple(loss.shape) != want:
        return (
            f"the loss has shape {tuple(loss.shape)}, not {want} "
            "(one loss per stacked run: reduce over views, batch and codes only)"
        )
    if not loss.requires_grad:
        return "the loss carries no gradient (detached from H, or computed without it)"
    if not isinstance(terms, dict):
        return f"the terms are {type(terms).__name__}, not a dict of name -> tensor"
    for key, term in terms.items():
        if not isinstance(term, torch.Tensor) or tuple(term.shape) != want:
            return f"term {key!r} is {_kind(term)}, not a tensor of shape {want}"
    return None


def _kind(value: Any) -> str:
    if isinstance(value, torch.Tensor):
        return f"a {str(value.dtype).removeprefix('torch.')} tensor of shape {tuple(value.shape)}"
    return f"a {type(value).__name__}"
