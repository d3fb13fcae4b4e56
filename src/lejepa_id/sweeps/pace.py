"""Measured pace on this device, and the wall time it projects for a planned sweep.

``lejepa-id paper --dry-run`` trains a few steps of representative groups of each
experiment (synthetic: the planned groups of least and most work per step; Reacher: one
cnn step on frames of the budget's size, one rendered frame, one encoded frame) and
times them (the Reacher probe lives with the Reacher code, in
:mod:`lejepa_id.reacher.pace`, since the sweeps sit below it). Those paces are
measurements; the wall times computed from them are projections (fixed costs,
evaluations and steps extrapolated from a few seconds, the groups scheduled on ``jobs``
workers without contention), and are printed as such.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lejepa_id.config.experiments import RunSpec
from lejepa_id.config.run import RunConfig
from lejepa_id.sweeps.plan import Group, spec_cost

NEVER = 10**9  # an evaluation interval no probe reaches: only the final evaluation runs
TARGET_S = 1.0  # wall time of the longest timed probe of a group
# Runs of a group that are probed: a whole N = 1024 group takes minutes to probe on a
# CPU; step and evaluation times grow with the group's work, which scales them up.
PROBE_RUNS = 2


@dataclass
class Pace:
    """Times of one probed group: per step, fixed (setup plus the final evaluation) and
    per extra evaluation, each measured; ``work`` is the group's per-step work."""

    what: str
    work: float
    step_s: float
    fixed_s: float
    eval_s: float
    probe_s: float

    def line(self) -> str:
        return f"{self.what}: {1 / max(self.step_s, 1e-12):,.1f} steps/s measured"


def group_work(specs: Sequence[RunSpec]) -> float:
    """Per-step work of a group (the cost model of :func:`spec_cost` without the steps)."""
    return sum(spec_cost(s) / s.config.steps for s in specs)


def timed(fn: Callable[[], object]) -> float:
    """Wall seconds of one call of ``fn``."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _probe_configs(
    specs: Sequence[RunSpec], steps: int, eval_every: int, cheap: bool
) -> list[RunConfig]:
    out = []
    for s in specs:
        values = s.config.to_dict()
        values.update(
            steps=steps, eval_every=eval_every, eval_every_early=eval_every, early_until=0
        )
        if cheap:  # the step's time only: the smallest evaluation set, no scatter
            values.update(eval_size=max(100, 4 * s.config.dim), scatter=0)
        out.append(RunConfig(**values))
    return out


def probe_group(specs: Sequence[RunSpec], what: str) -> Pace:
    """Time a group: the step from runs of a few lengths with a minimal evaluation,
    t(n) = setup + n step; then the fixed cost (setup, final evaluation, scatter) and
    one more evaluation's from two short runs with the group's own evaluation."""
    from lejepa_id.training.trainer import train

    def run(steps: int, eval_every: int = NEVER, cheap: bool = True) -> float:
        cfgs = _probe_configs(specs, steps, eval_every, cheap)
        return timed(lambda: train(cfgs, progress=False))

    t0 = time.perf_counter()
    s1 = 2
    run(s1)  # warm-up: first-use costs of this process, not of a run
    a = run(s1)
    b = run(s1 + 3)
    step = max((b - a) / 3, 1e-6)
    extra = int(min(max(TARGET_S / step, 3), 400))
    if extra > 3:
        # Best of two timings each: on a shared machine the minimum is the least
        # disturbed. (A group too slow for that keeps its single timings.)
        a = min(a, run(s1))
        b = min(run(s1 + extra), run(s1 + extra))
    step = max((b - a) / extra, 1e-6)
    full = run(s1, cheap=False)
    fixed = max(full - s1 * step, 0.0)
    c = run(s1, eval_every=1, cheap=False)  # s1 evaluations instead of one
    evaluation = max((c - full) / (s1 - 1), 0.0)
    return Pace(what, group_work(specs), step, fixed, evaluation, time.perf_counter() - t0)


def describe(group: Group) -> str:
    c = group.specs[0].config
    modes = sorted({s.config.mode for s in group.specs})
    return f"{c.encoder} N={c.dim} x{group.members} {'/'.join(modes)}"


def probe_groups(groups: Sequence[Group]) -> list[Pace]:
    """Paces of the planned groups of least and most per-step work (one probe when
    they are alike), each probed on its first :data:`PROBE_RUNS` runs."""
    if not groups:
        return []
    ranked = sorted(groups, key=lambda g: group_work(g.specs))
    chosen = [ranked[0]] if len(ranked) == 1 else [ranked[0], ranked[-1]]
    if len(chosen) == 2 and group_work(chosen[1].specs) <= 1.05 * group_work(chosen[0].specs):
        chosen = chosen[1:]
    paces = []
    for g in chosen:
        part = Group(g.index, g.specs[:PROBE_RUNS])
        paces.append(probe_group(part.specs, describe(part)))
    return paces


def _interp(work: float, paces: Sequence[Pace], key: str) -> float:
    """A pace quantity at ``work``, linear in work through the probes (one probe:
    proportional to work for the step and the evaluation, unchanged setup)."""
    if len(paces) == 1 or paces[-1].work <= 1.05 * paces[0].work:
        p = paces[-1]
        value = getattr(p, key)
        return value * work / p.work if key in ("step_s", "eval_s") else value
    lo, hi = paces[0], paces[-1]
    frac = (work - lo.work) / (hi.work - lo.work)
    value = getattr(lo, key) + frac * (getattr(hi, key) - getattr(lo, key))
    return max(value, min(getattr(lo, key), getattr(hi, key)) * 0.5)


def group_seconds(group: Group, paces: Sequence[Pace]) -> float:
    """Projected wall time of one group from measured paces."""
    work = group_work(group.specs)
    c = group.specs[0].config
    evaluations = len(c.eval_steps())
    return (
        _interp(work, paces, "fixed_s")
        + c.steps * _interp(work, paces, "step_s")
        + (evaluations - 1) * _interp(work, paces, "eval_s")
    )


def makespan(seconds: Sequence[float], jobs: int) -> float:
    """Wall time of tasks run longest first on ``jobs`` workers (as the sweep runs them)."""
    loads = [0.0] * max(jobs, 1)
    for s in sorted(seconds, reverse=True):
        i = loads.index(min(loads))
        loads[i] += s
    return max(loads) if loads else 0.0
