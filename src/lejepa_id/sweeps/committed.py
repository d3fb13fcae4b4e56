"""Paces this machine kind has recorded, read from committed runs, and what they project.

The ``overnight`` budget (:mod:`lejepa_id.sweeps.paper`) is sized for a 2-core CPU from
what such a machine already did, not from a probe of a few seconds on a machine that
may be busy: every committed group of runs records its wall time (``result.json``,
``wall_time_s``, the same for every member of a stacked group) and its members
(``sweep.json``, ``groups``). :func:`collect` turns them into a table of paces, written
to :data:`TABLE` by ``python -m lejepa_id.sweeps.committed --write``; a test checks each
of its rows against the committed result it came from, so the table holds no number that
was not measured (a snapshot: later runs enter it when it is written again).

Rows of the table (``rows``):

- ``group``: one trained group of a committed synthetic sweep, 1 thread a worker: its
  class (encoder, objective, N, transition), its members (encoders trained together:
  runs x initializations), steps and wall seconds; the pace is seconds per member-step,
  ``wall / (members x steps)``, setup and evaluations folded in at the run's length;
- ``bench``: a ``benchmarks/bench_busy.py`` row on an otherwise idle machine (case N64
  or N256: the matched encoder on the coupling world, lejepa), 1 thread: the whole
  process (start-up, setup, 500 steps, one evaluation) over its steps, which overstates
  a 20,000-step run's setup and leaves out its other evaluations;
- ``reacher``: one committed Reacher run: frame size, batch, optimizer steps and wall
  seconds (its gallery and fit-set encoding folded in);
- ``render``: one committed rendering call: frames and seconds (all cores).

A planned synthetic group takes the paces of its class (:func:`class_paces`): the rows of
the same encoder, objective and transition at its N, else at the smallest larger N that
has rows (never a faster, smaller world); a matched-encoder group with no such row of its
objective takes the lejepa rows (the dearest objective at every N measured). A group
with no row at or above its N has no pace: its projection is unknown, never guessed.
Group seconds are members x steps x the pace (stacking's gain is not counted); the
projection is (fastest row, median row, slowest row), scheduled longest first on the
workers. These are projections from measurements made under whatever load the machine
had then (the range shows it), not measurements of the budget.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = 1
TABLE = Path("benchmarks") / "results" / "paces-cpu-2core.json"
"""The committed table, relative to the source tree's root."""
RESULTS = ("results",)
BENCH_FILES = ("benchmarks/results/busy-cpu-2026-12-01-spin.json",)
BENCH_DIMS = {"N64": 64, "N256": 256}
MACHINE = "2-core x86-64 CPU (this project's machine kind), 1 thread a worker"


def source_root() -> Path:
    """The source tree's root (the parent of ``configs/``)."""
    from lejepa_id.sweeps.paper import configs_dir

    return configs_dir().parent


# --- collecting the table from committed files ----------------------------------------


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _inits(config: dict[str, Any]) -> int:
    inits = int(config.get("inits") or 1)
    return inits if int(config.get("dim") or 0) <= int(config.get("inits_max_dim") or 0) else 1


def _group_rows(root: Path, base: Path) -> Iterable[dict[str, Any]]:
    """One row per committed synthetic group trained together on a CPU, 1 thread."""
    for sweep in sorted(base.rglob("sweep.json")):
        manifest = _read(sweep)
        if not manifest or not isinstance(manifest.get("groups"), list):
            continue
        for group in manifest["groups"]:
            read = [_read(sweep.parent / run / "result.json") for run in group]
            results = [r for r in read if r is not None and r.get("status") == "finished"]
            if not group or len(results) != len(group):
                continue
            configs: list[dict[str, Any]] = [
                c for c in (r.get("config") for r in results) if isinstance(c, dict)
            ]
            if len(configs) != len(results) or not all("encoder" in c for c in configs):
                continue  # a Reacher grid: read by _reacher_rows
            walls = [float(r.get("wall_time_s") or 0) for r in results]
            if min(walls) <= 0 or max(walls) > 1.01 * min(walls):
                continue  # members not trained together (a resumed group)
            if any(r.get("threads") != 1 or r.get("device") != "cpu" for r in results):
                continue
            c0 = configs[0]
            key = ("encoder", "mode", "dim", "transition")
            if any(tuple(c.get(k) for k in key) != tuple(c0.get(k) for k in key) for c in configs):
                continue
            steps = {int(c["steps"]) for c in configs}
            if len(steps) != 1:
                continue
            yield {
                "kind": "group",
                "encoder": c0["encoder"],
                "mode": c0["mode"],
                "dim": int(c0["dim"]),
                "transition": c0.get("transition") or "ou",
                "members": sum(_inits(c) for c in configs),
                "steps": steps.pop(),
                "wall_s": round(max(walls), 3),
                "source": str((sweep.parent / group[0] / "result.json").relative_to(root)),
            }


def _bench_rows(root: Path) -> Iterable[dict[str, Any]]:
    for name in BENCH_FILES:
        data = _read(root / name)
        if not data:
            continue
        runs = data.get("runs", {"": data})
        for label, run in sorted(runs.items()):
            for i, row in enumerate(run.get("rows", [])):
                if row.get("busy") != 0 or str(row.get("threads")) != "1":
                    continue
                if row.get("case") not in BENCH_DIMS:
                    continue
                yield {
                    "kind": "bench",
                    "encoder": "matched",
                    "mode": "lejepa",
                    "dim": BENCH_DIMS[row["case"]],
                    "transition": "ou",
                    "members": 1,
                    "steps": int(row["steps"]),
                    "wall_s": float(row["process_s"]),
                    "source": f"{name}#{label}/rows/{i}" if label else f"{name}#rows/{i}",
                }


def _reacher_rows(root: Path, base: Path) -> Iterable[dict[str, Any]]:
    for path in sorted(base.rglob("result.json")):
        r = _read(path)
        if not r or r.get("status") != "finished" or r.get("threads") != 1:
            continue
        config, data = r.get("config"), r.get("data")
        if not isinstance(config, dict) or "epochs" not in config or not isinstance(data, dict):
            continue
        identity = data.get("train_identity") or {}
        if r.get("device") != "cpu" or "size" not in identity:
            continue
        yield {
            "kind": "reacher",
            "size": int(identity["size"]),
            "look": identity.get("look"),
            "batch": int(config["batch"]),
            "steps": int(r["steps"]),
            "wall_s": round(float(r["wall_time_s"]), 3),
            "source": str(path.relative_to(root)),
        }


def _render_rows(root: Path, base: Path) -> Iterable[dict[str, Any]]:
    for path in sorted(base.rglob("*.json")):
        d = _read(path)
        if not d or "render_seconds_this_call" not in d:
            continue
        frames, seconds = d.get("frames_rendered_this_call"), d.get("render_seconds_this_call")
        identity = d.get("identity") or {}
        if not frames or not seconds or "size" not in identity:
            continue
        yield {
            "kind": "render",
            "size": int(identity["size"]),
            "look": identity.get("look"),
            "frames": int(frames),
            "wall_s": round(float(seconds), 3),
            "source": str(path.relative_to(root)),
        }


def collect(
    root: Path | None = None, bases: Sequence[str] = RESULTS, bench: bool = True
) -> dict[str, Any]:
    """The pace table from the committed results and benchmarks under ``root``: the runs
    under the folders ``bases`` (relative to ``root``), and the benchmark rows unless
    ``bench`` is false (a budget projected again from its own runs alone)."""
    root = root or source_root()
    rows: list[dict[str, Any]] = []
    for name in bases:
        base = root / name
        rows += _group_rows(root, base)
        rows += _reacher_rows(root, base)
        rows += _render_rows(root, base)
    if bench:
        rows += _bench_rows(root)
    return {"schema": SCHEMA, "machine": MACHINE, "rows": rows}


# --- reading the table and projecting ---------------------------------------------------


@dataclass(frozen=True)
class Paces:
    """Seconds per unit of work from committed rows: (fastest, median, slowest)."""

    low: float
    mid: float
    high: float
    rows: int
    what: str

    def times(self, units: float) -> tuple[float, float, float]:
        return units * self.low, units * self.mid, units * self.high


def _paces(values: Sequence[float], what: str) -> Paces:
    return Paces(min(values), statistics.median(values), max(values), len(values), what)


@dataclass(frozen=True)
class Table:
    rows: tuple[dict[str, Any], ...]
    source: str

    def synthetic(self) -> list[dict[str, Any]]:
        return [r for r in self.rows if r["kind"] in ("group", "bench")]

    def class_paces(self, encoder: str, mode: str, dim: int, transition: str) -> Paces | None:
        """Seconds per member-step for a group of this class (module docstring), or None."""
        rows = self.synthetic()
        for want in (mode, "lejepa") if encoder == "matched" else (mode,):
            same = [
                r
                for r in rows
                if (r["encoder"], r["mode"], r["transition"]) == (encoder, want, transition)
                and r["dim"] >= dim
            ]
            if same:
                at = min(r["dim"] for r in same)
                chosen = [r for r in same if r["dim"] == at]
                per = [r["wall_s"] / (r["members"] * r["steps"]) for r in chosen]
                borrowed = f" (for {mode})" if want != mode else ""
                return _paces(per, f"{encoder} {want} N={at} {transition}{borrowed}")
        return None

    def reacher_paces(self, size: int, batch: int) -> Paces | None:
        rows = [
            r
            for r in self.rows
            if r["kind"] == "reacher" and (r["size"], r["batch"]) == (size, batch)
        ]
        if not rows:
            return None
        return _paces([r["wall_s"] / r["steps"] for r in rows], f"cnn {size}x{size} batch {batch}")

    def render_paces(self, size: int, look: str) -> Paces | None:
        rows = [
            r for r in self.rows if r["kind"] == "render" and (r["size"], r["look"]) == (size, look)
        ]
        if not rows:
            return None
        return _paces([r["wall_s"] / r["frames"] for r in rows], f"render {size}x{size} {look}")


def load_table(path: Path | None = None) -> Table:
    """The committed table (:data:`TABLE` under the source tree unless ``path``)."""
    from lejepa_id.errors import UsageError

    path = path or source_root() / TABLE
    data = _read(path)
    if not data or not isinstance(data.get("rows"), list):
        raise UsageError(f"the committed pace table {str(path)!r} is missing or unreadable")
    return Table(tuple(data["rows"]), str(path))


@dataclass(frozen=True)
class Projection:
    """One experiment's projection from committed paces (seconds; None: no pace)."""

    runs: int
    stacks: int
    steps: str
    low: float | None
    mid: float | None
    high: float | None
    paces: tuple[str, ...]
    missing: tuple[str, ...] = ()


def _fmt_pace(p: Paces, unit: str) -> str:
    return f"{p.what}: {p.mid * 1e3:,.1f} ms/{unit} (median of {p.rows} committed rows)"


def project_synthetic(specs: Sequence[Any], table: Table, jobs: int) -> Projection:
    """The runs ``specs`` planned into groups for a CPU and projected from ``table``."""
    from lejepa_id.sweeps.pace import makespan
    from lejepa_id.sweeps.plan import plan_groups

    groups = plan_groups(specs, "cpu", jobs)
    lows, mids, highs = [], [], []
    used: dict[str, str] = {}
    missing: dict[str, None] = {}  # in order, once each
    for g in groups:
        c = g.specs[0].config
        paces = table.class_paces(c.encoder, c.mode, int(c.dim), c.transition or "ou")
        if paces is None:
            missing[f"{c.encoder} {c.mode} N={c.dim} {c.transition or 'ou'}"] = None
            continue
        units = sum(s.config.effective_inits * s.config.steps for s in g.specs)
        low, mid, high = paces.times(units)
        lows.append(low)
        mids.append(mid)
        highs.append(high)
        used[paces.what] = _fmt_pace(paces, "member-step")
    steps = sorted({s.config.steps for s in specs})
    text = f"{steps[0]:,}" if len(steps) == 1 else f"{steps[0]:,}-{steps[-1]:,}"
    if missing:
        return Projection(
            len(specs), len(groups), text, None, None, None, tuple(used.values()), tuple(missing)
        )
    return Projection(
        len(specs),
        len(groups),
        text,
        makespan(lows, jobs),
        makespan(mids, jobs),
        makespan(highs, jobs),
        tuple(used.values()),
    )


def project_reacher(sizes: Any, todo: int, frames: int, table: Table, jobs: int) -> Projection:
    """The Reacher part: rendering ``frames`` and ``todo`` runs of ``sizes``."""
    from lejepa_id.sweeps.pace import makespan

    per_epoch = max(sizes.pairs // sizes.batch, 1)
    steps = sizes.epochs * per_epoch
    train = table.reacher_paces(sizes.size, sizes.batch)
    render = table.render_paces(sizes.size, sizes.look)
    missing = []
    if train is None and todo:
        missing.append(f"cnn {sizes.size}x{sizes.size} batch {sizes.batch}")
    if render is None and frames:
        missing.append(f"render {sizes.size}x{sizes.size} {sizes.look}")
    used = tuple(_fmt_pace(p, u) for p, u in ((train, "step"), (render, "frame")) if p is not None)
    total = sizes.grid_runs + sizes.sweep_runs
    if missing:
        return Projection(total, todo, f"{steps:,}", None, None, None, used, tuple(missing))
    out = []
    for i in range(3):
        run = train.times(steps)[i] if train is not None else 0.0
        draw = render.times(frames)[i] if render is not None else 0.0
        out.append(draw + makespan([run] * todo, jobs))
    return Projection(total, todo, f"{steps:,}", out[0], out[1], out[2], used)


def _with_stage_two(sizes: Any, out: Path, todo: int, frames: int) -> tuple[int, int]:
    """Runs and frames with the Reacher stage two's, once its sizing is under ``out``."""
    from lejepa_id.sweeps.paper import stage_two_datasets, stage_two_seeds

    for kind, seeds in stage_two_seeds(sizes, out / "reacher").items():
        todo += len(sizes.lams) * len(seeds)
        frames += sum(d["n"] * 2 for d in stage_two_datasets(sizes, kind, seeds).values())
    return todo, frames


def project_budget(
    budget: Any, names: Sequence[str], table: Table, jobs: int = 2, out: Path | None = None
) -> dict[str, Projection]:
    """Every experiment of ``budget`` in ``names`` projected from ``table``, nothing yet
    trained (the dry run leaves out what its ``--out`` already holds); with ``out``, the
    Reacher stage two's runs once its sizing is written there."""
    from lejepa_id.config.experiments import load_experiment
    from lejepa_id.sweeps.paper import ReacherPart, part_sweep, reacher_sizes

    result = {}
    for name in names:
        part = budget.parts[name]
        if isinstance(part, ReacherPart):
            sizes = reacher_sizes(part)
            todo, frames = sizes.grid_runs + sizes.sweep_runs, sizes.frames()
            if out is not None:
                todo, frames = _with_stage_two(sizes, out, todo, frames)
            result[name] = project_reacher(sizes, todo, frames, table, jobs)
            continue
        specs = load_experiment(*part_sweep(budget, name)).expand()
        result[name] = project_synthetic(specs, table, jobs)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m lejepa_id.sweeps.committed",
        description="Print (or --write) the pace table collected from the committed results.",
    )
    parser.add_argument("--write", action="store_true", help=f"write {TABLE}")
    args = parser.parse_args(argv)
    table = collect()
    text = json.dumps(table, indent=1) + "\n"
    if args.write:
        (source_root() / TABLE).write_text(text)
        print(f"wrote {len(table['rows'])} rows to {TABLE}")
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
