"""Measured pace on this device, and the wall time it projects for a planned sweep.

``lejepa-id paper --dry-run`` trains a few steps of representative groups of each
experiment (synthetic: the planned groups of least and most work per step; Reacher: one
cnn step on frames of the budget's size, one rendered frame, one encoded frame) and
times them (the Reacher probe lives with the Reacher code, in
:mod:`lejepa_id.reacher.pace`, since the sweeps sit below it). Those paces are
measurements; the wall times computed from them are projections (fixed costs,
evaluations and steps extrapolated from a few seconds, the groups scheduled on ``jobs``
workers without contention), and are printed as such.

A probed pace is stored (:class:`PaceStore`, ``$XDG_CACHE_HOME/lejepa-id/paces.json``,
or ``LEJEPA_ID_PACE_STORE``), keyed by what decides it: the group's configs (seeds and
lengths aside), the device, the threads and the torch version. A later dry run reuses it
and probes only groups it has not seen, so a second projection costs no probe and reads
the same paces (two probes of one sweep under different loads had given 23 h and 56 min).
Each pace keeps the spread of its repeated timings (:attr:`Pace.step_hi_s`), from which
a projection states how far it may be off (:func:`spread`).

A probe stops after :data:`PROBE_BUDGET_S` at its next evaluation and keeps what it has
timed (two runs of an N = 1024 group took about 2 minutes to probe in full on a busy
CPU: setup, steps of seconds, the 10,000-point evaluation). Every group's
times are then fitted to the two parts of the cost model's work, a time per member and
a time per multiply-add (:func:`work_parts`, :func:`group_span`): the floor dominates at
N = 2 and the products at N = 1024, so a fit to their sum, as before, put small worlds
at a clamped guess and large ones far off. A group beyond the largest probe is an
extrapolation; its range also spans every time in proportion to work from that probe.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import MISSING, asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from lejepa_id.config.experiments import RunSpec
from lejepa_id.config.run import RunConfig
from lejepa_id.sweeps.kinds import kind_of
from lejepa_id.sweeps.plan import Group, spec_cost

NEVER = 10**9  # an evaluation interval no probe reaches: only the final evaluation runs
TARGET_S = 1.0  # wall time of the longest timed probe of a group
# Runs of a group that are probed: a whole N = 1024 group takes minutes to probe on a
# CPU; step and evaluation times grow with the group's work, which scales them up.
PROBE_RUNS = 2
# Seconds after which a probe stops at its next evaluation and keeps what it has timed
# (at least one step): three short trainings of two N = 1024 runs took about 2 minutes on
# a busy 2-core CPU, most of it setup, steps of seconds and the 10,000-point evaluation.
PROBE_BUDGET_S = 15.0


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
    step_hi_s: float = 0.0
    """The step time of the slower of the repeated timings (0: not repeated)."""
    stored: str = ""
    """When the pace was measured, for a pace read from the :class:`PaceStore`."""
    load: float = -1.0
    """The 1-minute load average while it was measured (-1: not recorded)."""
    short: bool = False
    """The probe stopped at :data:`PROBE_BUDGET_S`: its step time includes one cheap
    evaluation and its evaluations were not timed (:func:`probe_group`)."""
    members: float = 0.0
    """The probed group's members: the cost model's floor part of :attr:`work`."""
    arithmetic: float = 0.0
    """The rest of :attr:`work`: the encoders' multiply-adds (:func:`work_parts`)."""

    def line(self) -> str:
        where = f"stored, measured {self.stored}" if self.stored else "measured"
        if self.load >= 0:
            where += f" at load {self.load:.1f}"
        if self.short:
            where += f" (probe stopped at {PROBE_BUDGET_S:.0f} s: an upper estimate)"
        return f"{self.what}: {1 / max(self.step_s, 1e-12):,.1f} steps/s {where}"


def spread(paces: Sequence[Pace]) -> float:
    """How much slower a step may be than projected: the largest ratio of a pace's slower
    repeated timing to the one used (1.0 when no timing was repeated)."""
    ratios = [p.step_hi_s / p.step_s for p in paces if p.step_hi_s > 0 and p.step_s > 0]
    return max([1.0, *ratios])


STORE_VAR = "LEJEPA_ID_PACE_STORE"


class PaceStore:
    """Paces measured before, by key (:meth:`key`), in one JSON file; a missing or
    unreadable file is an empty store, and a store that cannot be written is skipped
    (a dry run then probes again next time, which is all it costs)."""

    def __init__(self, path: str | Path | None = None) -> None:
        if path is None:
            path = (
                os.environ.get(STORE_VAR)
                or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "lejepa-id")
                / "paces.json"
            )
        self.path = Path(path)
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            data = {}
        self.paces: dict[str, dict[str, Any]] = data if isinstance(data, dict) else {}

    @staticmethod
    def key(specs: Sequence[RunSpec], device: str) -> str:
        """What decides a group's pace: its runs' configs without seed and lengths, the
        device (named: a GPU model, or the CPU's core count), the threads, torch."""
        import torch

        drop = {"seed", "steps", "eval_every", "eval_every_early", "early_until", "device"}
        configs = [{k: v for k, v in s.config.to_dict().items() if k not in drop} for s in specs]
        what = {
            "configs": configs,
            "device": device,
            "threads": torch.get_num_threads(),
            "torch": torch.__version__,
        }
        text = json.dumps(what, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    def get(self, key: str, kind: type[Any] = Pace) -> Any:
        """The stored pace of ``key`` as a ``kind`` (a dataclass: :class:`Pace`, or the
        Reacher probe's pace), or None when it is missing or not of that kind."""
        entry = self.paces.get(key)
        names = {f.name for f in fields(kind)}
        optional = {f.name for f in fields(kind) if f.default is not MISSING}
        if not isinstance(entry, dict) or not names - optional <= set(entry):
            return None
        try:
            return kind(**{k: v for k, v in entry.items() if k in names})
        except TypeError:
            return None

    def put(self, key: str, pace: Any) -> None:
        from lejepa_id.records.io import atomic_write_json

        when = time.strftime("%Y-%m-%d", time.gmtime())
        self.paces[key] = asdict(pace) | {"stored": when}
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_json(self.path, self.paces)


def group_work(specs: Sequence[RunSpec]) -> float:
    """Per-step work of a group (the cost model of :func:`spec_cost` without the steps)."""
    return sum(spec_cost(s) / s.config.steps for s in specs)


def work_parts(specs: Sequence[RunSpec]) -> tuple[float, float]:
    """(members, arithmetic): a group's per-step work split into the cost model's floor,
    one unit a member (launch and Python overhead), and the rest, its encoders'
    multiply-adds. The two grow at different rates from N = 2 to N = 1024, so a pace is
    fitted to each part (:func:`group_span`), not to their sum."""
    members = float(sum(kind_of(s).members(s) for s in specs))
    return members, max(group_work(specs) - members, 0.0)


def timed(fn: Callable[[], object]) -> float:
    """Wall seconds of one call of ``fn``."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _probe_configs(
    specs: Sequence[RunSpec], steps: int, every: int, early: int, cheap: bool
) -> list[RunConfig]:
    """The group's configs for a probe of ``steps`` steps, evaluated after steps 1 and 2
    (``early``: every step up to it) and then every ``every`` steps; ``cheap``: the
    smallest evaluation set and no scatter (the step's time only)."""
    out = []
    for s in specs:
        values = s.config.to_dict()
        values.update(steps=steps, eval_every=every, eval_every_early=1, early_until=early)
        if cheap:
            values.update(eval_size=max(100, 4 * s.config.dim), scatter=0)
        out.append(RunConfig(**values))
    return out


class _TimeUpError(Exception):
    """Raised from a probe's evaluation callback once its time is up."""


def _timestamps(
    cfgs: list[RunConfig], deadline: float = math.inf
) -> tuple[float, list[tuple[int, float]], float, bool]:
    """Train ``cfgs`` once: (the call's start, the end of each evaluation by step, the
    call's end, whether it was stopped), all from ``time.perf_counter``. Past
    ``deadline``, the training stops at the first evaluation that leaves two timed
    evaluations (one step between them)."""
    from lejepa_id.training.trainer import train

    marks: list[tuple[int, float]] = []

    def on_eval(done: int, rows: object) -> None:
        marks.append((done, time.perf_counter()))
        if marks[-1][1] > deadline and len({step for step, _ in marks}) >= 2:
            raise _TimeUpError

    t0 = time.perf_counter()
    try:
        train(cfgs, progress=False, on_eval=on_eval)
    except _TimeUpError:
        return t0, marks, time.perf_counter(), True
    return t0, marks, time.perf_counter(), False


def _gaps(marks: list[tuple[int, float]]) -> dict[int, float]:
    """Seconds from one evaluation's end to the next's, by the later one's step (the
    first evaluation of a step only: a run whose starts train as separate worlds
    evaluates each step more than once)."""
    first: dict[int, float] = {}
    for step, t in marks:
        first.setdefault(step, t)
    steps = sorted(first)
    return {b: first[b] - first[a] for a, b in zip(steps, steps[1:])}


def probe_group(specs: Sequence[RunSpec], what: str) -> Pace:
    """Time a group in three short trainings, each evaluation's end timestamped:

    1. 4 steps evaluated after each (cheap evaluation): warms the process up (first-use
       costs are no run's) and gives a first step time;
    2. ``2 m`` steps evaluated after steps 1, 2, ``m`` and ``2 m`` (cheap), ``m`` chosen so
       the two long gaps take about :data:`TARGET_S` together: each long gap over its
       ``m - 2`` or ``m`` steps is a step time; the faster is the pace and the slower
       its spread (:attr:`Pace.step_hi_s`);
    3. 2 steps with the group's own evaluation and scatter, evaluated after each: the
       second gap less a step is one evaluation; setup, the final evaluation and the
       scatter are the rest (the fixed cost).

    Three setups and about :data:`TARGET_S` of steps: a few seconds for a small group.
    A probe that passes :data:`PROBE_BUDGET_S` stops at its next evaluation and keeps
    what it has (:attr:`Pace.short`): the step from the gaps timed so far (each with one
    cheap evaluation in it), the setup from the first training, no evaluation time."""
    t_start = time.perf_counter()
    deadline = t_start + PROBE_BUDGET_S
    t0, marks, _, stopped = _timestamps(_probe_configs(specs, 4, NEVER, 4, cheap=True), deadline)
    rough = [g for step, g in _gaps(marks).items() if step > 1]
    step0 = max(min(rough) if rough else 1e-3, 1e-6)
    setup = max(marks[0][1] - t0 - step0, 0.0) if marks else 0.0
    if stopped or time.perf_counter() > deadline:
        slow = max(rough) if len(rough) > 1 else 0.0
        return _pace(what, specs, step0, setup, 0.0, t_start, slow, short=True)
    m = int(min(max(round(TARGET_S / (2 * step0)), 4), 400))
    _, marks, _, stopped = _timestamps(_probe_configs(specs, 2 * m, m, 2, cheap=True), deadline)
    gaps = _gaps(marks)
    # Each long gap is its steps and one cheap evaluation (a hundred points, small beside
    # m steps): divided by its steps, an upper estimate of the step that noise cannot
    # make negative, as a difference of two gaps can on a busy machine.
    timings = [gaps[k] / n for k, n in ((m, m - 2), (2 * m, m)) if k in gaps and n > 0]
    timings = [max(t, 1e-6) for t in timings] or [step0]
    step, slow = min(timings), (max(timings) if len(timings) > 1 else 0.0)
    if stopped or time.perf_counter() > deadline:
        return _pace(what, specs, step, setup, 0.0, t_start, slow, short=True)
    t0, marks, t_end, _ = _timestamps(_probe_configs(specs, 2, NEVER, 2, cheap=False))
    first: dict[int, float] = {}
    for done, t in marks:
        first.setdefault(done, t)
    evaluation = max(_gaps(marks).get(2, step) - step, 0.0)
    fixed = max(first.get(1, t0) - t0 - step, 0.0) + max(t_end - first.get(2, t_end), 0.0)
    return _pace(what, specs, step, fixed, evaluation, t_start, slow)


def _pace(
    what: str,
    specs: Sequence[RunSpec],
    step: float,
    fixed: float,
    evaluation: float,
    t_start: float,
    slow: float,
    short: bool = False,
) -> Pace:
    return Pace(
        what,
        group_work(specs),
        step,
        fixed,
        evaluation,
        time.perf_counter() - t_start,
        slow,
        load=load_average(),
        short=short,
    )


def load_average() -> float:
    """The 1-minute load average when a pace is measured (-1 where unknown): a pace
    measured on a busy machine is slower, and says so."""
    try:
        return float(os.getloadavg()[0])
    except (AttributeError, OSError):
        return -1.0


def describe(group: Group) -> str:
    c = group.specs[0].config
    modes = sorted({s.config.mode for s in group.specs})
    return f"{c.encoder} N={c.dim} x{group.members} {'/'.join(modes)}"


def representatives(groups: Sequence[Group]) -> list[Group]:
    """The planned groups of least and most per-step work (one when they are alike), each
    cut to its first :data:`PROBE_RUNS` runs: what a projection probes."""
    if not groups:
        return []
    ranked = sorted(groups, key=lambda g: group_work(g.specs))
    chosen = [ranked[0]] if len(ranked) == 1 else [ranked[0], ranked[-1]]
    if len(chosen) == 2 and group_work(chosen[1].specs) <= 1.05 * group_work(chosen[0].specs):
        chosen = chosen[1:]
    return [Group(g.index, g.specs[:PROBE_RUNS]) for g in chosen]


def probe_groups(
    groups: Sequence[Group],
    store: PaceStore | None = None,
    device: str = "",
    probe: Callable[[Sequence[RunSpec], str], Pace] | None = None,
    measure: bool = True,
) -> list[Pace]:
    """Paces of the :func:`representatives` of ``groups``; with a ``store``, a pace it
    holds for the same group on ``device`` is reused and a new one is stored (``probe``:
    the measurement, :func:`probe_group` unless a test gives one). ``measure=False``
    probes nothing: only the stored paces are returned (fewer than the representatives
    when some are unknown)."""
    probe = probe or probe_group
    paces = []
    for part in representatives(groups):
        pace = _pace_of(part, store, device, probe, measure)
        if pace is not None:
            paces.append(pace)
    return paces


def _pace_of(
    part: Group,
    store: PaceStore | None,
    device: str,
    probe: Callable[[Sequence[RunSpec], str], Pace],
    measure: bool,
) -> Pace | None:
    key = PaceStore.key(part.specs, device) if store is not None else ""
    known = store.get(key) if store is not None else None
    if known is None and measure:
        known = probe(part.specs, describe(part))
        if store is not None:
            store.put(key, known)
    if known is None:
        return None
    members, arithmetic = work_parts(part.specs)  # a pace stored before the split had none
    return replace(known, members=members, arithmetic=arithmetic)


def beyond_probes(groups: Sequence[Group], paces: Sequence[Pace]) -> list[Group]:
    """The groups of more per-step work than the largest probe: extrapolated."""
    if not paces:
        return list(groups)
    top = max(p.work for p in paces)
    return [g for g in groups if group_work(g.specs) > 1.05 * top]


_KEYS = ("fixed_s", "step_s", "eval_s")


def _fit(paces: Sequence[Pace], key: str) -> tuple[float, float] | None:
    """(a, b), both >= 0, with ``key``'s time = a x members + b x arithmetic through the
    two probes (:func:`work_parts`); where the exact fit has a negative part, that part is
    0 and the other goes through the larger probe. None with one probe."""
    if len(paces) < 2 or paces[-1].work <= 1.05 * paces[0].work:
        return None
    lo, hi = paces[0], paces[-1]
    q_lo, q_hi = getattr(lo, key), getattr(hi, key)
    det = lo.members * hi.arithmetic - hi.members * lo.arithmetic
    if abs(det) > 1e-12 * max(lo.work * hi.work, 1e-12):
        a = (q_lo * hi.arithmetic - q_hi * lo.arithmetic) / det
        b = (lo.members * q_hi - hi.members * q_lo) / det
        if a >= 0 and b >= 0:
            return a, b
        if a < 0 and hi.arithmetic > 0:
            return 0.0, q_hi / hi.arithmetic
    return (q_hi / hi.members if hi.members > 0 else 0.0), 0.0


def _time(group: Group, paces: Sequence[Pace], key: str) -> float:
    """``key``'s time for ``group``: the two-part fit through the probes, or with one
    probe, the step and the evaluation in proportion to work and the setup unchanged."""
    fit = _fit(paces, key)
    if fit is None:
        p = paces[-1]
        value = getattr(p, key)
        return value * group_work(group.specs) / p.work if key != "fixed_s" else value
    members, arithmetic = work_parts(group.specs)
    return fit[0] * members + fit[1] * arithmetic


def _seconds(group: Group, times: dict[str, float]) -> float:
    c = group.specs[0].config
    evaluations = len(c.eval_steps())
    return times["fixed_s"] + c.steps * times["step_s"] + (evaluations - 1) * times["eval_s"]


def group_span(group: Group, paces: Sequence[Pace]) -> tuple[float, float, float]:
    """(low, projected, high) wall seconds of one group. Projected: each time fitted to
    the cost model's two parts through the probes (:func:`_fit`). A group beyond the
    largest probe is an extrapolation, and its range spans a second model too: every
    time in proportion to the whole work from the largest probe."""
    fitted = _seconds(group, {k: _time(group, paces, k) for k in _KEYS})
    top = max(paces, key=lambda p: p.work)
    work = group_work(group.specs)
    if work <= 1.05 * top.work:
        return fitted, fitted, fitted
    scale = work / top.work
    other = _seconds(group, {k: scale * getattr(top, k) for k in _KEYS})
    return min(fitted, other), fitted, max(fitted, other)


def projected_span(
    groups: Sequence[Group], paces: Sequence[Pace], jobs: int
) -> tuple[float, float, float]:
    """(low, projected, high) wall seconds of ``groups`` on ``jobs`` workers
    (:func:`group_span` of each, scheduled by :func:`makespan`)."""
    spans = [group_span(g, paces) for g in groups]
    low, mid, high = (makespan([t[i] for t in spans], jobs) for i in range(3))
    return low, mid, high


def makespan(seconds: Sequence[float], jobs: int) -> float:
    """Wall time of tasks run longest first on ``jobs`` workers (as the sweep runs them)."""
    loads = [0.0] * max(jobs, 1)
    for s in sorted(seconds, reverse=True):
        i = loads.index(min(loads))
        loads[i] += s
    return max(loads) if loads else 0.0
