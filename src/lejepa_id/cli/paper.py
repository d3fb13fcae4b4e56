"""``lejepa-id paper``: every experiment of the paper, then its figures, tables and report.

One command plans, runs (resumably, through the sweep runner and its executors),
aggregates and reports the paper's five experiments at a budget
(:mod:`lejepa_id.sweeps.paper`: smoke, cpu, overnight or full), and with ``--beyond``
the beyond-the-paper families. ``--dry-run`` prints the plan and the wall time projected
from paces measured on this device (:mod:`lejepa_id.sweeps.pace`), or for the overnight
budget from the paces committed runs recorded (:mod:`lejepa_id.sweeps.committed`), and
writes nothing.

Layout of OUT: ``<experiment>/`` per synthetic sweep; ``reacher/`` (the lambda x seed
grid, its plan.json, claims.json and figures/) with ``reacher/sweep/`` (the rho and
delta sweeps); ``data/reacher/`` (rendered frames); ``budget.json``; ``runs.csv``;
``figures/`` (figures and LaTeX tables); ``claims.json``; ``report.html``; and, with
``--beyond``, the same under ``beyond/``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from lejepa_id.cli.args import add_device_argument, add_pace_from_argument
from lejepa_id.errors import UsageError
from lejepa_id.sweeps.paper import (
    BEYOND,
    BUDGET_FILE,
    BUDGET_NAMES,
    DOUBLED,
    EXPERIMENTS,
    SIZING_FILE,
    Budget,
    ReacherPart,
    ReacherSizes,
    budget_record,
    configs_dir,
    format_duration,
    get_budget,
    in_budget,
    part_sweep,
    reacher_grid_sets,
    reacher_sizes,
    reacher_stage_two_sets,
    reacher_sweep_sets,
    selected,
    stage_two_datasets,
    stage_two_seeds,
)

EXECUTORS = ("local", "slurm", "submitit-local")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``paper`` command to the main parser."""
    p = sub.add_parser(
        "paper",
        help="the whole paper in one command: every experiment, figure, table and claim",
        description="Run the paper's experiments (2d, gennorm, scaling, grid, Reacher with "
        "its rho and delta sweeps; with --beyond also anisotropic, codedim, action) at a "
        "budget, resumably, then aggregate, draw the figures and LaTeX tables, judge the "
        "claims and write the HTML report into --out. Rerunning resumes. --dry-run prints "
        "runs, stacks, steps and the wall time projected from a pace measured here (for "
        "--budget overnight: from the paces committed runs recorded, probing nothing).",
    )
    p.add_argument(
        "--budget",
        required=True,
        choices=BUDGET_NAMES,
        help="smoke: every code path on tiny sizes; cpu: what 2 cores finish in about 2 h; "
        "overnight: every claim's deciding subset, at most 10 h on 2 cores (projected from "
        "committed paces, docs/overnight.md); full: the paper's sizes (docs/paper.md lists "
        "every reduction)",
    )
    p.add_argument("--out", default=None, help="results folder (default: paper-<budget>)")
    add_device_argument(p, None, "device (default auto)")
    p.add_argument("--jobs", type=int, default=None, help="concurrent groups (default: as `sweep`)")
    p.add_argument(
        "--only",
        nargs="+",
        metavar="EXPERIMENT",
        default=None,
        help=f"run only these ({', '.join((*EXPERIMENTS, *BEYOND, *DOUBLED))}; a doubled "
        "family where the budget plans it)",
    )
    p.add_argument("--beyond", action="store_true", help="also the beyond-the-paper families")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print the plan and projected wall times (paces measured for a few seconds "
        "per experiment; the overnight budget's from committed paces); train nothing, "
        "write nothing",
    )
    add_pace_from_argument(p)
    p.add_argument("--executor", choices=EXECUTORS, default="local", help="as for `sweep`")
    p.add_argument("--partition", default=None, help="SLURM partition")
    p.add_argument("--time", type=int, default=None, help="SLURM time limit per job, minutes")
    p.add_argument("--gpus", type=int, default=None, help="SLURM GPUs per job")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    p.set_defaults(func=cmd_paper)


def cmd_paper(args: argparse.Namespace) -> int:
    budget = get_budget(args.budget)
    names = selected(args.only, args.beyond)
    missing = [n for n in names if n not in budget.parts]
    if args.only and missing:
        raise UsageError(
            f"--only {missing[0]!r}: the {budget.name} budget does not plan it; choose from "
            f"{', '.join(budget.parts)}"
        )
    names = in_budget(budget, names)
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs={args.jobs} must be >= 1")
    if args.executor == "local":
        given = [n for n in ("partition", "time", "gpus") if getattr(args, n) is not None]
        if given:
            raise UsageError(f"--{given[0]} is a SLURM option; it needs --executor slurm")
    configs = configs_dir()
    if not configs.is_dir():
        raise UsageError(f"the experiment configs {str(configs)!r} are missing (a source tree)")
    _check_executor(args)
    if args.device is not None:
        from lejepa_id.runtime.devices import resolve_device

        resolve_device(args.device)  # cuda without a GPU: refused before any run
    if args.jobs is None:
        args.jobs = budget.jobs
    out = Path(args.out or f"paper-{budget.name}")
    # Everything the runs need is checked before the first one (and before a dry run's
    # probes): a refusal creates nothing.
    _check_out(out, budget)
    if args.pace_from is not None and not args.dry_run:
        raise UsageError("--pace-from projects a dry run; it needs --dry-run")
    if args.dry_run:
        for line in dry_run(budget, names, args, out):
            print(line, flush=True)
        return 0
    # SIGTERM (a scheduler, `kill`) is handled by the main command, as for `sweep`: exit
    # 143, and every finished run stays saved for the next invocation.
    return run_paper(budget, names, args, out)


def _check_executor(args: argparse.Namespace) -> None:
    """Refuse executor settings that would fail only once the runs are submitted."""
    import shutil

    if args.time is not None and args.time < 1:
        raise UsageError(f"--time={args.time} must be >= 1 (minutes)")
    if args.gpus is not None and args.gpus < 0:
        raise UsageError(f"--gpus={args.gpus} must be >= 0")
    if args.executor == "slurm" and shutil.which("sbatch") is None:
        raise UsageError("--executor slurm needs SLURM's sbatch on PATH; use local")


def budget_names(root: Path, budget: Budget, group: Sequence[str]) -> list[str]:
    """The experiments ``budget.json`` describes: this invocation's and those an earlier
    one (``--only``) recorded in the folder, since the report judges every run in it."""
    from lejepa_id.records.io import read_json

    names = set(group)
    path = root / BUDGET_FILE
    if path.is_file():
        # An unreadable file was refused by _check_out before anything ran.
        with contextlib.suppress(OSError, ValueError, AttributeError):
            names |= set(read_json(path).get("experiments", {}))
    return [n for n in budget.parts if n in names]


def _check_out(out: Path, budget: Budget) -> None:
    """Refuse an --out that is a file, a folder holding another budget's results, or a
    budget.json the report could not extend (before anything is written)."""
    from lejepa_id.records.io import read_json
    from lejepa_id.records.layout import check_creatable

    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {str(out)!r} is a file, not a folder; choose another --out")
    check_creatable(out)
    path = out / BUDGET_FILE
    if path.exists() and not path.is_file():
        raise UsageError(f"{str(path)!r} is not a file; remove it or choose another --out")
    if path.is_file():
        try:
            record = read_json(path)
        except (OSError, ValueError):
            record = None
        if not isinstance(record, dict) or not isinstance(record.get("experiments"), dict):
            raise UsageError(
                f"{str(path)!r} is not a budget file (an object with an 'experiments' "
                "object); choose another --out"
            )
        held = record.get("budget")
        if held != budget.name:
            raise UsageError(
                f"--out {str(out)!r} holds the {held!r} budget's results; "
                f"choose another --out for --budget {budget.name}"
            )


# --- running ---------------------------------------------------------------------------


def _options(args: argparse.Namespace):
    from lejepa_id.sweeps.runner import ExecutorOptions

    return ExecutorOptions(
        kind=args.executor,
        jobs=args.jobs,
        partition=args.partition,
        time_min=args.time,
        gpus=args.gpus,
    )


def _sweep(config: Path, sets: list[str], out: Path, args: argparse.Namespace) -> list[str]:
    """One sweep through the shared runner; returns the failed run ids."""
    from lejepa_id.sweeps.runner import run_sweep

    summary = run_sweep(config, sets, out, _options(args), progress=not args.no_progress)
    for note in summary.notes:
        print(note, file=sys.stderr)
    for line in summary.lines():
        print(line, flush=True)
    return [run for run, status in summary.statuses.items() if status == "failed"]


def run_paper(budget: Budget, names: list[str], args: argparse.Namespace, out: Path) -> int:
    from lejepa_id.records.layout import ensure_writable
    from lejepa_id.sweeps.state import sweep_lock

    paper = [n for n in names if n in EXPERIMENTS]
    beyond = [n for n in names if n not in EXPERIMENTS]
    ensure_writable(out)
    # Two `paper` commands on one folder would race on its budget file and report (each
    # experiment's sweep has its own lock, but the reports are the folder's).
    with sweep_lock(out, what="paper"):
        return _run_parts(budget, names, args, out, paper, beyond)


def _run_parts(
    budget: Budget,
    names: list[str],
    args: argparse.Namespace,
    out: Path,
    paper: list[str],
    beyond: list[str],
) -> int:
    from lejepa_id.records.io import atomic_write_json

    configs = configs_dir()
    failed: list[str] = []
    start = time.perf_counter()
    device = [f"device={args.device}"] if args.device else []
    measured: dict[str, float] = {}
    for name in names:
        part = budget.parts[name]
        t0 = time.perf_counter()
        print(f"== {name} ({budget.name} budget): {part.why}", flush=True)
        if isinstance(part, ReacherPart):
            failed += run_reacher(reacher_sizes(part, configs), out, args)
        else:
            root = out if name in EXPERIMENTS else out / "beyond"
            config, sets = part_sweep(budget, name, configs)
            failed += _sweep(config, [*sets, *device], root, args)
        measured[name] = time.perf_counter() - t0
        print(f"== {name}: {measured[name]:.0f} s (measured)", flush=True)
    for root, group in ((out, paper), (out / "beyond", beyond)):
        if not group:
            continue
        record = budget_record(budget, budget_names(root, budget, group), configs)
        if budget.paces:
            _add_times(record, root, budget, measured)
        atomic_write_json(root / BUDGET_FILE, record)
        report(root)
    print(f"lejepa-id paper: {time.perf_counter() - start:.0f} s in all (measured)")
    if failed:
        print(
            f"lejepa-id: {len(failed)} run(s) failed: {', '.join(sorted(failed))}; "
            "rerun the same command to retry",
            file=sys.stderr,
        )
        return 1
    return 0


def _add_times(
    record: dict[str, Any], root: Path, budget: Budget, measured: dict[str, float]
) -> None:
    """Each experiment's projection from committed paces (the whole experiment, as the
    budget was sized) and its measured wall time, added to what earlier invocations
    measured (an interrupted invocation writes no record, so its time is not counted)."""
    from lejepa_id.records.io import read_json
    from lejepa_id.sweeps.committed import load_table, project_budget
    from lejepa_id.sweeps.paper import time_entry

    before: dict[str, Any] = {}
    with contextlib.suppress(OSError, ValueError, AttributeError):
        before = read_json(root / BUDGET_FILE).get("experiments", {})
    names = list(record["experiments"])
    projected = project_budget(budget, names, load_table(), jobs=2, out=root)
    for name, entry in record["experiments"].items():
        p = projected[name]
        span = None if p.mid is None or p.low is None or p.high is None else (p.low, p.mid, p.high)
        old = before.get(name, {}).get("time") if isinstance(before.get(name), dict) else None
        entry["time"] = time_entry(old, span, measured.get(name))


def report(root: Path) -> None:
    """runs.csv, figures and LaTeX tables, claims.json and report.html of ``root``."""
    from lejepa_id.analysis.report import write_report
    from lejepa_id.analysis.table import write_table

    table = write_table(root)
    n = len(table.frame)
    print(f"{n} run{'s' * (n != 1)} ({table.counts()})")
    rep = write_report(root)
    for note in rep.notes:
        print(note, file=sys.stderr)
    from lejepa_id.analysis.budget import cell_mark, table_note

    note = table_note(rep.claims, rep.budget)  # the budget said once, not per claim
    if note:
        print(note)
    for claim in rep.claims:
        mark = cell_mark(claim, rep.budget)
        print(
            f"  [{claim.verdict:12s}] {claim.id}: {claim.summary}" + (f" [{mark}]" if mark else "")
        )
    print(f"wrote {rep.path}, {rep.claims_path} and {root / 'figures'}")


def run_reacher(sizes: ReacherSizes, out: Path, args: argparse.Namespace) -> list[str]:
    """Render the datasets, train the grid and the rho/delta sweeps through the sweep
    runner, then plan and draw each (the report reads OUT/reacher/)."""
    data = out / "data" / "reacher"
    _render(sizes.datasets(), data, args)
    grid = configs_dir() / "reacher_grid.yaml"
    failed = _sweep(grid, reacher_grid_sets(sizes, data, args.device), out, args)
    if sizes.sweep_runs:  # a budget may leave the rho and delta sweeps out (overnight)
        sweep_sets = reacher_sweep_sets(sizes, data, args.device)
        failed += _sweep(grid, sweep_sets, out / "reacher", args)
    _plan_and_draw(out / "reacher", data / "eval", sizes.plan_k, every_figure=True)
    if sizes.sweep_runs:
        _plan_and_draw(out / "reacher" / "sweep", data / "eval", sizes.plan_k, every_figure=False)
    if sizes.stage_two and not failed:
        failed += _stage_two(sizes, data, out, args)
    return failed


def _render(datasets: dict[str, dict[str, Any]], data: Path, args: argparse.Namespace) -> None:
    """Render every dataset (label -> RenderSpec keywords) under ``data``; one already
    there is kept."""
    from lejepa_id.reacher.datasets import RenderSpec, render_dataset

    for label, spec in datasets.items():
        kw = dict(spec)
        rs = RenderSpec(kw.pop("kind"), kw.pop("n"), **kw)
        frames = rs.n * (1 if rs.kind == "eval" else 2)
        # Few frames render faster in this process than in spawned workers.
        render_dataset(
            rs, data / label, workers=1 if frames < 5000 else 0, progress=not args.no_progress
        )
        print(f"dataset {label}: {frames} frames in {data / label}", flush=True)


def _stage_two(sizes: ReacherSizes, data: Path, out: Path, args: argparse.Namespace) -> list[str]:
    """Stage two of the runs-a-side rule registered before the runs
    (:mod:`lejepa_id.reacher.sizing`): sized once, from the grid's runs alone, into
    ``sizing.json`` (never rewritten, so later runs cannot move it); then each kind's added
    seeds are rendered and trained in the grid's folder, and the grid is planned and judged
    again on all its runs."""
    from lejepa_id.reacher.sizing import lines, size_stage_one
    from lejepa_id.records.io import atomic_write_json, read_json

    runs = out / "reacher"
    path = runs / SIZING_FILE
    if not path.is_file():
        plan = runs / "plan.json"
        sizing = size_stage_one(read_json(plan), sizes.seeds) if plan.is_file() else None
        if sizing is None:
            print(f"stage two: not sized, {plan} lacks runs of seeds {list(sizes.seeds)}")
            return []
        atomic_write_json(path, sizing)
    try:
        text = lines(read_json(path))
        added = stage_two_seeds(sizes, runs)
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise UsageError(
            f"{path}: not a sizing written by paper ({err}); remove it to size again"
        ) from None
    for line in text:
        print(f"stage two: {line.strip()}", flush=True)
    grid = configs_dir() / "reacher_grid.yaml"
    failed = []
    for kind, seeds in added.items():
        _render(stage_two_datasets(sizes, kind, seeds), data, args)
        sets = reacher_stage_two_sets(sizes, data, kind, seeds, args.device)
        failed += _sweep(grid, sets, out, args)
    if added:
        _plan_and_draw(runs, data / "eval", sizes.plan_k, every_figure=True)
    return failed


def _plan_and_draw(runs: Path, gallery_dir: Path, k: int, every_figure: bool) -> None:
    """plan.json and claims.json of a Reacher runs folder, and its figures: all of them
    for the grid, only R^2 against rho and delta for the sweeps (the rest would repeat
    the grid's figures on other data)."""
    from lejepa_id.reacher.claims import write_claims
    from lejepa_id.reacher.datasets import load_angles, load_dataset
    from lejepa_id.reacher.figures import make_figures
    from lejepa_id.reacher.planning import PlanConfig, evaluate_planning
    from lejepa_id.records.io import atomic_write_json

    angles, _ = load_angles(gallery_dir)
    plan = evaluate_planning(runs, angles[:, 0], PlanConfig(k_pairs=k))
    atomic_write_json(runs / "plan.json", plan)
    write_claims(plan, runs / "claims.json")
    if every_figure:
        gallery = load_dataset(gallery_dir, expect_kind="eval")
        # plan.json names runs relative to their folder: codes are read from ``runs``.
        entries = make_figures(gallery, plan, runs / "figures", ("png", "pdf"), runs_dir=runs)
    else:
        entries = _sweep_figures(plan, runs / "figures")
    n = len(plan["runs"])
    print(f"planned {n} run{'s' * (n != 1)}, {len(entries)} figures in {runs}", flush=True)


def _sweep_figures(plan: dict, out: Path) -> list[dict]:
    """reacher_r2_vs_rho and reacher_r2_vs_delta (PNG, PDF) and their figures_index.json."""
    import matplotlib.pyplot as plt

    from lejepa_id.reacher import figures_stats as fs
    from lejepa_id.records.io import atomic_save_figure, atomic_write_json
    from lejepa_id.records.layout import ensure_writable

    ensure_writable(out)
    entries = []
    for key, label in (("rho", "OU correlation rho"), ("delta", "trajectory lag delta (steps)")):
        points = fs.sweep_points(plan["runs"], key)
        if not points:
            continue
        name = f"reacher_r2_vs_{key}"
        fig = fs.fig_r2_vs(points, key, label)
        entry = {
            "name": name,
            "caption": f"R^2(h -> z) against the {label} of the training data; dots are runs.",
        }
        for fmt in ("png", "pdf"):
            atomic_save_figure(fig, out / f"{name}.{fmt}", dpi=150, bbox_inches="tight")
            entry[fmt] = f"{name}.{fmt}"
        plt.close(fig)
        entries.append(entry)
    atomic_write_json(out / "figures_index.json", {"figures": entries})
    return entries


# --- dry run ---------------------------------------------------------------------------


def dry_run(budget: Budget, names: list[str], args: argparse.Namespace, out: Path) -> Iterator[str]:
    """The plan of every experiment and its projected wall time, with the range the
    paces' spread allows, line by line as each experiment's projection ends: from paces
    measured here (stored ones reused, only unknown groups probed), or with
    ``--pace-from`` from another device's stated paces (:mod:`lejepa_id.sweeps.stated`)."""
    import torch

    from lejepa_id.runtime import resolve_device
    from lejepa_id.sweeps.runner import counted, default_jobs

    w = name_width(names)
    stated = None
    if getattr(args, "pace_from", None) is not None:
        from lejepa_id.sweeps.stated import load_stated

        stated = load_stated(args.pace_from)
    elif budget.paces:
        yield from committed_dry_run(budget, names, args, out)
        return
    cores = os.cpu_count() or 1
    yield f"lejepa-id paper --budget {budget.name} --dry-run: {budget.summary}"
    if stated is not None:
        device_type, name = stated.device_type, stated.device
        jobs = args.jobs or default_jobs(device_type)
        yield f"device {name} (paces from {stated.source}), {counted(jobs, 'concurrent group')}"
        where = f"pace (from {stated.source})"
    else:
        device = resolve_device(args.device or "auto")
        device_type = device.type
        jobs = args.jobs or default_jobs(device.type)
        threads = max(1, cores // jobs)
        torch.set_num_threads(threads)
        name = torch.cuda.get_device_name(0) if device.type == "cuda" else f"{cores} CPU cores"
        yield (
            f"device {device.type} ({name}), {counted(jobs, 'concurrent group')}, "
            f"{counted(threads, 'thread')} each"
        )
        where = "pace (measured here)"
    yield (
        f"{'experiment':{w}s} {'runs':>6s} {'stacks':>7s} {'steps':>9s} {'projected':>12s} "
        f"{'range':>25s}  {where}"
    )
    from lejepa_id.sweeps.pace import PaceStore

    store = PaceStore()
    low_sum, total, high_sum = 0.0, 0.0, 0.0
    left_out = []
    t_probe = time.perf_counter()
    blank = f"{'':>6s} {'':>7s} {'':>9s} {'-':>12s} {'':>25s}"
    for exp in names:
        part = budget.parts[exp]
        if isinstance(part, ReacherPart):
            sizes = reacher_sizes(part)
            reacher = _reacher_row(sizes, device_type, jobs, cores, out, store, name, stated)
            if reacher is None:
                left_out.append(exp)
                what = f"cnn {sizes.size}x{sizes.size} batch {sizes.batch} ({sizes.look} look)"
                yield f"{exp:{w}s} {blank}  no Reacher pace stated for {what}"
                continue
            row, seconds, pace = reacher
            low, high = seconds, seconds
        elif stated is not None and not stated.points:
            left_out.append(exp)
            yield f"{exp:{w}s} {blank}  no synthetic pace stated"
            continue
        else:
            row, (low, seconds, high), pace = _synthetic_row(
                exp, budget, device_type, jobs, out, args, store, name, stated
            )
        low_sum, total, high_sum = low_sum + low, total + seconds, high_sum + high
        yield f"{exp:{w}s} {row} {format_duration(seconds):>12s} {_range(low, high):>25s}  {pace}"
    yield (
        f"{'total':{w}s} {'':>6s} {'':>7s} {'':>9s} {format_duration(total):>12s} "
        f"{_range(low_sum, high_sum):>25s}"
    )
    spent = f"{time.perf_counter() - t_probe:.0f} s of probes this time"
    if stated is not None:
        skipped = f" ({', '.join(left_out)} not included)" if left_out else ""
        yield (
            f"Projected wall times, not measurements{skipped}: each group's steps at the pace "
            f"{stated.source} states for a group of its work, interpolated between the "
            "measured groups (range: as fast as the next smaller group per step, as slow as "
            "it per unit of work; the high end also runs the groups one after another, as a "
            "shared device may); the benchmarks' paces include their own setup and "
            "evaluations; a Reacher row at the training, rendering and encoding rates "
            "stated for its frame size, look and batch; process start-up, aggregation, "
            "figures and report not included."
        )
        return
    yield (
        f"Projected wall times, not measurements: paces measured on this device (here, or "
        f"stored in {store.path} from an earlier dry run: delete it to measure again), "
        f"{spent}, extrapolated (groups scheduled on {counted(jobs, 'worker')} without contention; "
        "process start-up, aggregation, figures and report not included; other work on "
        "the machine slows every step). Range: the faster and the slower of each probe's "
        "repeated timings (the Reacher probe is not repeated; its pace is stored too)."
    )


def committed_dry_run(
    budget: Budget, names: list[str], args: argparse.Namespace, out: Path
) -> Iterator[str]:
    """The dry run of a budget sized from committed paces (``overnight``): every
    experiment projected from :mod:`lejepa_id.sweeps.committed`'s table for the machine
    kind it was sized for (2 CPU cores, 2 workers of 1 thread), probing nothing; runs
    already finished under ``out`` are left out."""
    from lejepa_id.config.experiments import load_experiment
    from lejepa_id.sweeps.committed import MACHINE, load_table, project_reacher, project_synthetic
    from lejepa_id.sweeps.runner import counted
    from lejepa_id.sweeps.state import partition

    table = load_table()
    jobs = args.jobs or 2
    w = name_width(names)
    yield f"lejepa-id paper --budget {budget.name} --dry-run: {budget.summary}"
    yield f"paces committed for {MACHINE} ({table.source}), {counted(jobs, 'concurrent group')}"
    yield (
        f"{'experiment':{w}s} {'runs':>6s} {'stacks':>7s} {'steps':>9s} {'projected':>12s} "
        f"{'range':>25s}  pace (committed runs)"
    )
    sums = [0.0, 0.0, 0.0]
    unknown = []
    stage_note = ""
    for exp in names:
        part = budget.parts[exp]
        if isinstance(part, ReacherPart):
            sizes = reacher_sizes(part)
            todo, total, frames = reacher_todo(sizes, out)
            proj = project_reacher(sizes, todo, frames, table, jobs)
            runs = f"{todo}" if todo == total else f"{todo}/{total}"
        else:
            specs = load_experiment(*part_sweep(budget, exp)).expand()
            root = (out if exp in EXPERIMENTS else out / "beyond") / specs[0].experiment
            done, todo_specs, _ = partition(specs, root) if root.is_dir() else ([], specs, [])
            runs = f"{len(todo_specs)}" if not done else f"{len(todo_specs)}/{len(specs)}"
            if not todo_specs:
                steps = _steps(sorted({s.config.steps for s in specs}))
                blank = f"{0:>7d} {steps:>9s} {format_duration(0):>12s}"
                yield f"{exp:{w}s} {runs:>6s} {blank} {'':>25s}  nothing to train"
                continue
            proj = project_synthetic(todo_specs, table, jobs)
        head = f"{exp:{w}s} {runs:>6s} {proj.stacks:>7d} {proj.steps:>9s}"
        if proj.mid is None or proj.low is None or proj.high is None:
            unknown.append(exp)
            yield f"{head} {'?':>12s} {'':>25s}  no committed pace for {'; '.join(proj.missing)}"
            continue
        sums = [a + b for a, b in zip(sums, (proj.low, proj.mid, proj.high))]
        text = "; ".join(proj.paces) or "nothing to train"
        yield f"{head} {format_duration(proj.mid):>12s} {_range(proj.low, proj.high):>25s}  {text}"
        if isinstance(part, ReacherPart) and sizes.stage_two:
            stage_note = " " + _stage_two_note(sizes, out)
    left = f" ({', '.join(unknown)} not included: no pace)" if unknown else ""
    yield (
        f"{'total':{w}s} {'':>6s} {'':>7s} {'':>9s} {format_duration(sums[1]):>12s} "
        f"{_range(sums[0], sums[2]):>25s}{left}"
    )
    yield (
        "Projected wall times, not measurements: each group's member-steps at the median "
        "seconds per member-step of the committed runs of its class (range: their fastest "
        "and slowest, measured under the load the machine had then), stacking's gain not "
        "counted, groups longest first on the workers; Reacher: committed runs' seconds "
        "per step and rendering's seconds per frame; process start-up, planning, "
        "aggregation, figures and report not included. Nothing was probed; `--pace-from` "
        f"projects from another device's paces instead.{stage_note}"
    )


def name_width(names: Sequence[str]) -> int:
    """The dry run's first column: 12 characters, wider for a longer experiment name."""
    return max(12, *(len(n) for n in names)) if names else 12


def _range(low: float, high: float) -> str:
    """``12 min to 19 min``, or one value when the spread is under 5% or both ends
    print alike (``2 s``, not ``2 s to 2 s``)."""
    if high <= 1.05 * low or format_duration(low) == format_duration(high):
        return format_duration(low)
    return f"{format_duration(low)} to {format_duration(high)}"


def _synthetic_row(
    exp: str,
    budget: Budget,
    device_type: str,
    jobs: int,
    out: Path,
    args: argparse.Namespace,
    store: Any = None,
    device_name: str = "",
    stated: Any = None,
) -> tuple[str, tuple[float, float, float], str]:
    """The experiment's row, its (low, projected, high) seconds, and its paces."""
    from lejepa_id.config.experiments import load_experiment
    from lejepa_id.sweeps.pace import (
        beyond_probes,
        describe,
        group_work,
        probe_groups,
        projected_span,
        spread,
    )
    from lejepa_id.sweeps.plan import plan_groups
    from lejepa_id.sweeps.runner import counted
    from lejepa_id.sweeps.state import partition

    device = args.device if stated is None else None
    config, sets = part_sweep(budget, exp)
    sets += [f"device={device}"] if device else []
    specs = load_experiment(config, sets).expand()
    root = (out if exp in EXPERIMENTS else out / "beyond") / specs[0].experiment
    done, todo, _ = partition(specs, root) if root.is_dir() else ([], specs, [])
    groups = plan_groups(todo, device_type, jobs)
    steps = sorted({s.config.steps for s in specs})
    runs = f"{len(todo)}" if not done else f"{len(todo)}/{len(specs)}"
    row = f"{runs:>6s} {len(groups):>7d} {_steps(steps):>9s}"
    if stated is not None:
        from lejepa_id.sweeps.stated import project_groups

        return row, project_groups(groups, stated, jobs), "stated"
    paces = probe_groups(groups, store, device_name)
    low, seconds, high = projected_span(groups, paces, jobs)
    pace = "; ".join(p.line() for p in paces) or "nothing to train"
    far = beyond_probes(groups, paces) if groups else []
    if far:
        top = max(far, key=lambda g: group_work(g.specs))
        pace += f"; {counted(len(far), 'group')} up to {describe(top)} extrapolated"
    return row, (low, seconds, high * spread(paces)), pace


def _steps(steps: list[int]) -> str:
    return f"{steps[0]:,}" if len(steps) == 1 else f"{steps[0]:,}-{steps[-1]:,}"


def _stage_two_note(sizes: ReacherSizes, out: Path) -> str:
    """The dry run's sentence on the Reacher stage two: included above once sized, else
    the most it can add."""
    from lejepa_id.reacher.sizing import KINDS, RULE

    if (out / "reacher" / SIZING_FILE).is_file():
        return f"Reacher: stage two's runs included (from reacher/{SIZING_FILE})."
    most = len(KINDS) * len(sizes.lams) * max(RULE.cap - len(sizes.seeds), 0)
    return (
        "Reacher: stage two, sized after the grid's runs by the rule registered "
        f"{RULE.date}, adds up to {most} runs (at most {RULE.cap} a kind), not in the total."
    )


def reacher_todo(sizes: ReacherSizes, out: Path) -> tuple[int, int, int]:
    """(runs to train, runs in all, frames to render) of the Reacher part under ``out``,
    stage two's runs included once its ``sizing.json`` is written."""
    from lejepa_id.reacher.experiment import run_dir_name
    from lejepa_id.sweeps.state import read_result

    grid = [(out / "reacher" / label, sizes.lams, sizes.seeds) for label in sizes.grid_labels()]
    grid += [
        (out / "reacher" / "sweep" / label, sizes.sweep_lams, sizes.sweep_seeds)
        for label in sizes.sweep_labels
    ]
    added = stage_two_seeds(sizes, out / "reacher")  # once stage one is sized
    grid += [(out / "reacher" / kind, sizes.lams, seeds) for kind, seeds in added.items()]
    runs = [
        d / run_dir_name(lam, seed) for d, lams, seeds in grid for lam in lams for seed in seeds
    ]
    todo = sum(read_result(r / "result.json") is None for r in runs)
    datasets = sizes.datasets()
    for kind, seeds in added.items():
        datasets |= stage_two_datasets(sizes, kind, seeds)
    frames = 0
    for label, spec in datasets.items():
        if not (out / "data" / "reacher" / label / "dataset.json").is_file():
            frames += spec["n"] * (1 if spec["kind"] == "eval" else 2)
    return todo, len(runs), frames


def _reacher_row(
    sizes: ReacherSizes,
    device_type: str,
    jobs: int,
    cores: int,
    out: Path,
    store: Any = None,
    device_name: str = "",
    stated: Any = None,
) -> tuple[str, float, str] | None:
    """The Reacher row, its projected seconds and its pace: measured here (a stored
    pace reused, else probed and stored), or the pace ``stated`` gives for these sizes
    (None when it gives none)."""
    from lejepa_id.reacher.pace import stored_or_probed
    from lejepa_id.sweeps.pace import makespan

    todo, total, frames = reacher_todo(sizes, out)
    per_epoch = max(sizes.pairs // sizes.batch, 1)
    runs = f"{todo}" if todo == total else f"{todo}/{total}"
    row = f"{runs:>6s} {todo:>7d} {sizes.epochs * per_epoch:>9,d}"
    if not todo and not frames:
        return row, 0.0, "nothing to train"
    if stated is not None:
        given = stated.reacher_row(sizes.size, sizes.look, sizes.batch)
        if given is None:
            return None
        frames_per_s, processes = given.frames_per_s, given.render_processes
        step_s, encode_s = 2 * sizes.batch / given.images_per_s, 1 / given.encoded_per_s
        where = "stated"
        what = f"cnn {sizes.size}x{sizes.size} batch {sizes.batch} on {stated.device}"
    else:
        pace = stored_or_probed(
            store, sizes.size, sizes.look, sizes.target, sizes.batch, device_type, device_name
        )
        frames_per_s, processes, step_s, encode_s = (
            pace.frames_per_s,
            cores,
            pace.step_s,
            pace.encode_s,
        )
        where, what = pace.where(), pace.what
    render_s = frames / (frames_per_s * processes)
    run_s = sizes.epochs * per_epoch * step_s + (sizes.eval_n + sizes.fit_n) * encode_s
    seconds = render_s + makespan([run_s] * todo, jobs)
    text = (
        f"{what}: {sizes.batch * 2 / step_s:,.0f} images/s trained, "
        f"{frames_per_s:,.0f} frames/s rendered ({sizes.look} look, 1 process), {where}; "
        f"render {frames:,} frames on {processes} processes"
    )
    return row, seconds, text
