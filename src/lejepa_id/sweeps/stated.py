"""Paces of another device, read from a measurement file, and the wall time they project.

``--dry-run --pace-from SOURCE`` projects a sweep (or the paper) on a device this machine
is not: a GPU the job will get, from what a benchmark measured there. SOURCE is

- a JSON file of benchmark rows: ``benchmarks/bench_train.py --json`` rows (``case``,
  ``steps_per_s``: one run of a named case, :func:`bench_cases`) or
  ``benchmarks/bench_sweeps.py --json`` rows (``config``, ``run``, ``dim``,
  ``group_size``, ``batched_run_steps_per_s``: a stacked group), or a file holding
  ``{"device": ..., "rows": [...]}``, so a pace can also be stated by hand;
- or the name of a device table shipped with the package (:data:`TABLES`, e.g.
  ``h200``): rows copied from a committed measurement file, each naming it (``source``);
  a test checks every row against that file, so a table holds no number nobody measured.

A row may also state a Reacher pace (:class:`ReacherRow`: ``"reacher": "cnn"``, the
frame ``size``, ``look`` and ``batch``, ``images_per_s`` trained, ``frames_per_s``
rendered by one process, ``encoded_per_s``, and the ``render_processes`` rendering ran
on), as ``benchmarks/results/reacher-pace-cpu-2026-12-03.json`` does; the paper's Reacher
row is projected from the row of its sizes, and left out when none matches.

Each synthetic row is a point (per-step work of the measured group, seconds per step). A planned
group's step time is interpolated between the points in log-log (a bigger group is never
faster per step, and never slower per unit of work than the smaller point: the range
printed is what those two rules allow). The benchmarks' paces are whole trainings divided
by their steps (setup and evaluations included, at the benchmark's length), and groups
sharing a device are scheduled as if each had it alone: both are stated with the number.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from lejepa_id.config.run import RunConfig
from lejepa_id.errors import UsageError
from lejepa_id.sweeps.plan import Group

FLAG = "--pace-from"
TABLES = {"h200": "h200.json"}
"""Device tables shipped in ``lejepa_id/sweeps/devices/``, by the name ``--pace-from``
takes."""


def bench_cases(steps: int) -> dict[str, RunConfig]:
    """The cases of ``benchmarks/bench_train.py`` (its rows name them): the 2d spiral
    lejepa run with the full evaluation schedule, and the scaling config's matched
    encoder (coupling L = 4, lambda 1e-6) at N = 64, 256 and 1024."""
    scaling = dict(mixing="coupling", encoder="matched", layers=4, lam=1e-6, steps=steps)
    return {
        "2d": RunConfig(mixing="spiral", encoder="mlp", lam=1e-3, steps=steps),
        "N64": RunConfig(dim=64, **scaling),
        "N256": RunConfig(dim=256, **scaling),
        "N1024": RunConfig(dim=1024, **scaling),
    }


@dataclass(frozen=True)
class Point:
    """One measured group: its per-step work (:func:`lejepa_id.sweeps.pace.group_work`)
    and its seconds per step."""

    work: float
    step_s: float
    what: str


@dataclass(frozen=True)
class ReacherRow:
    """A stated Reacher pace: a cnn on ``size`` x ``size`` frames of ``look`` in batches
    of ``batch`` pairs trains ``images_per_s`` images a second (two per pair), one
    process renders ``frames_per_s`` frames a second and ``render_processes`` of them
    render side by side, and a trained cnn encodes ``encoded_per_s`` frames a second."""

    size: int
    look: str
    batch: int
    images_per_s: float
    frames_per_s: float
    encoded_per_s: float
    render_processes: int

    @property
    def what(self) -> str:
        return f"cnn {self.size}x{self.size} batch {self.batch} ({self.look} look)"


@dataclass(frozen=True)
class Stated:
    """The paces of one device, from one source."""

    device: str
    device_type: str
    points: tuple[Point, ...]
    source: str
    reacher: tuple[ReacherRow, ...] = ()

    def reacher_row(self, size: int, look: str, batch: int) -> ReacherRow | None:
        """The stated Reacher pace of exactly these sizes, or None."""
        for row in self.reacher:
            if (row.size, row.look, row.batch) == (size, look, batch):
                return row
        return None

    def step_s(self, work: float) -> tuple[float, float, float]:
        """(low, projected, high) seconds per step of a group of ``work``: log-log
        between the neighbouring points (one point: the same pace per unit of work as
        it); bounded by no faster than the point below and no slower per unit of work
        than it, no slower than the point above. Beyond the largest point: the last
        segment's log-log slope (clipped to [0, 1]; one point: proportional to work),
        between no faster than it and proportional to work; below the smallest: no
        slower than it."""
        pts = sorted(self.points, key=lambda p: p.work)
        below = [p for p in pts if p.work <= work]
        above = [p for p in pts if p.work >= work]
        if below and above:
            lo, hi = below[-1], above[0]
            if hi.work <= lo.work * (1 + 1e-9):
                return lo.step_s, lo.step_s, lo.step_s
            frac = math.log(work / lo.work) / math.log(hi.work / lo.work)
            mid = math.exp(math.log(lo.step_s) + frac * math.log(hi.step_s / lo.step_s))
            low = lo.step_s
            high = min(hi.step_s, lo.step_s * work / lo.work)
            return low, min(max(mid, low), max(high, low)), max(high, low)
        if below:  # beyond the largest measured group: the last segment's slope
            top = below[-1]
            slope = 1.0
            under = [p for p in pts if p.work < top.work / (1 + 1e-9)]
            if under:
                prev = under[-1]
                slope = math.log(top.step_s / prev.step_s) / math.log(top.work / prev.work)
            high = top.step_s * work / top.work
            mid = top.step_s * (work / top.work) ** min(max(slope, 0.0), 1.0)
            return top.step_s, mid, high
        bottom = above[0]  # smaller than every measured group
        return bottom.step_s * work / bottom.work, bottom.step_s, bottom.step_s


def _bad(source: str, why: str) -> UsageError:
    return UsageError(f"{FLAG} {source}: {why}")


def _positive(row: dict[str, Any], key: str, source: str) -> float:
    value = row.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        name = row.get("case") or row.get("config") or row.get("reacher")
        raise _bad(source, f"row {name!r} has no number {key!r}")
    if not (math.isfinite(value) and value > 0):
        raise _bad(source, f"{key}={value!r} must be a positive number")
    return float(value)


def _case_work(name: str, source: str) -> float:
    from lejepa_id.config.experiments import RunSpec
    from lejepa_id.sweeps.pace import group_work

    cases = bench_cases(1000)
    if name not in cases:
        raise _bad(source, f"case {name!r} is not one of {', '.join(cases)} (bench_train.py)")
    cfg = cases[name]
    return group_work([RunSpec("bench", name, {}, cfg)])


def _sweep_work(row: dict[str, Any], source: str) -> float:
    from lejepa_id.config.experiments import load_experiment
    from lejepa_id.sweeps.pace import group_work
    from lejepa_id.sweeps.paper import configs_dir

    config = Path(str(row.get("config", "")))
    path = configs_dir() / config.name
    if not path.is_file():
        raise _bad(source, f"config {str(config)!r} is not a shipped config")
    run, dim = row.get("run"), row.get("dim")
    try:
        specs = load_experiment(path, [f"runs=[{run}]", f"dims=[{dim}]", "seeds=[0]"]).expand()
    except UsageError as exc:
        raise _bad(source, f"row {run!r} at dim {dim!r}: {exc}") from None
    return group_work(specs[:1]) * _positive(row, "group_size", source)


def reacher_row(row: dict[str, Any], source: str) -> ReacherRow:
    """A stated Reacher pace (:class:`ReacherRow`); a missing or bad field is one line."""
    if row.get("reacher") != "cnn":
        raise _bad(source, f"a Reacher row states 'reacher': {row.get('reacher')!r}, not 'cnn'")
    size, batch, look = row.get("size"), row.get("batch"), row.get("look")
    for key, value in (("size", size), ("batch", batch)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise _bad(source, f"a Reacher row's {key}={value!r} must be a positive integer")
    if not isinstance(look, str) or not look:
        raise _bad(source, f"a Reacher row's look={look!r} must name a look (fast, paper)")
    processes = row.get("render_processes")
    if isinstance(processes, bool) or not isinstance(processes, int) or processes <= 0:
        raise _bad(
            source, f"a Reacher row's render_processes={processes!r} must be a positive integer"
        )
    assert isinstance(size, int) and isinstance(batch, int)
    return ReacherRow(
        size,
        look,
        batch,
        _positive(row, "images_per_s", source),
        _positive(row, "frames_per_s", source),
        _positive(row, "encoded_per_s", source),
        processes,
    )


def points(rows: Sequence[Any], source: str, allow_none: bool = False) -> tuple[Point, ...]:
    """The points of benchmark rows (either kind; Reacher rows skipped); a row of
    neither kind is refused, and so is a file of no row at all."""
    out = []
    for row in rows:
        if not isinstance(row, dict):
            raise _bad(source, f"a row {row!r} is not an object")
        if "reacher" in row:
            continue
        if "case" in row:
            work = _case_work(str(row["case"]), source)
            step = 1 / _positive(row, "steps_per_s", source)
            what = f"{row['case']} x1"
        elif "batched_run_steps_per_s" in row:
            work = _sweep_work(row, source)
            size = _positive(row, "group_size", source)
            step = size / _positive(row, "batched_run_steps_per_s", source)
            what = f"{row.get('run')} N={row.get('dim')} x{size:g}"
        else:
            raise _bad(
                source,
                "a row has neither 'case' and 'steps_per_s' (bench_train.py) nor "
                "'batched_run_steps_per_s' (bench_sweeps.py)",
            )
        out.append(Point(work, step, what))
    if not out and not allow_none:
        raise _bad(source, "holds no rows")
    return tuple(out)


def table_rows(name: str) -> dict[str, Any]:
    """A shipped device table, as stored."""
    text = (
        resources.files("lejepa_id.sweeps").joinpath("devices").joinpath(TABLES[name]).read_text()
    )
    data: dict[str, Any] = json.loads(text)
    return data


def load_stated(source: str) -> Stated:
    """The paces ``--pace-from source`` names (a table name or a JSON file); one-line
    UsageError naming the flag for anything else."""
    if source in TABLES:
        data: Any = table_rows(source)
        where = f"table {source!r}"
    else:
        path = Path(source).expanduser()
        if not path.is_file():
            raise _bad(
                source,
                f"no such file (a JSON of benchmark rows, or a table: {', '.join(TABLES)})",
            )
        try:
            data = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise _bad(source, f"not readable JSON ({type(exc).__name__})") from None
        where = str(path)
    rows = data.get("rows") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise _bad(source, "must hold a list of benchmark rows (or {'rows': [...]})")
    devices = {
        str(r.get("device")) for r in rows if isinstance(r, dict) and r.get("device") is not None
    }
    device_type = "cuda" if "cuda" in devices else (devices.pop() if len(devices) == 1 else "cpu")
    device = str(data.get("device") or device_type) if isinstance(data, dict) else device_type
    reacher = tuple(reacher_row(r, source) for r in rows if isinstance(r, dict) and "reacher" in r)
    return Stated(device, device_type, points(rows, source, bool(reacher)), where, reacher)


def project_groups(
    groups: Sequence[Group], stated: Stated, jobs: int
) -> tuple[float, float, float]:
    """(low, projected, high) wall seconds of ``groups`` on the stated device: each
    group's steps at its interpolated pace, longest first on ``jobs`` workers; the high
    end also runs them one after another (groups sharing one device may not overlap)."""
    from lejepa_id.sweeps.pace import group_work, makespan

    lows, mids, highs = [], [], []
    for g in groups:
        low, mid, high = stated.step_s(group_work(g.specs))
        steps = g.specs[0].config.steps
        lows.append(steps * low)
        mids.append(steps * mid)
        highs.append(steps * high)
    return makespan(lows, jobs), makespan(mids, jobs), sum(highs)
