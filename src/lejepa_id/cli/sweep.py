"""Subcommands ``sweep``, ``aggregate``, ``figures``, ``report`` and ``curves``.

``lejepa_id.cli.main`` calls :func:`register` with its subparsers. Each handler takes the
parsed arguments and returns an exit status; bad input raises UsageError (one line,
exit status 2).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from lejepa_id.cli.args import (
    add_pace_from_argument,
    add_plugin_argument,
    add_recorded_plugins_argument,
    add_run_arguments,
)
from lejepa_id.errors import UsageError

SLURM_OPTIONS = ("partition", "time", "gpus", "array_parallelism")


def cmd_sweep(args: argparse.Namespace) -> int:
    from lejepa_id.sweeps.runner import ExecutorOptions, run_sweep

    given = [name for name in SLURM_OPTIONS if getattr(args, name) is not None]
    if args.executor == "local" and given:
        flag = "--" + given[0].replace("_", "-")
        raise UsageError(f"{flag} is a SLURM option; it needs --executor slurm")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs={args.jobs} must be >= 1")
    if args.max_group is not None and args.max_group < 1:
        raise UsageError(f"--max-group={args.max_group} must be >= 1")
    sets = list(args.sets) + ([f"device={args.device}"] if args.device else [])
    if args.pace_from is not None and not args.dry_run:
        raise UsageError("--pace-from projects a dry run; it needs --dry-run")
    if args.probe and not args.dry_run:
        raise UsageError("--probe measures paces for a dry run; it needs --dry-run")
    if args.dry_run:
        from lejepa_id.sweeps.runner import dry_run

        plan = dry_run(
            args.config, sets, args.out, args.jobs, args.max_group, args.pace_from,
            probe=args.probe,
        )  # fmt: skip
        for line in plan.lines():
            print(line)
        return 0
    options = ExecutorOptions(
        kind=args.executor,
        jobs=args.jobs,
        partition=args.partition,
        time_min=args.time,
        gpus=args.gpus,
        array_parallelism=args.array_parallelism,
        max_members=args.max_group,
        loggers=tuple(args.loggers),
    )
    # SIGTERM (a scheduler or `kill`) stops the sweep like Ctrl-C (main installs the
    # handler): pool workers are terminated, submitted jobs cancelled, and every
    # finished run stays saved for the next invocation.
    from lejepa_id.plugins import resolve

    plugins = [resolve(p) for p in args.plugins]
    summary = run_sweep(
        args.config, sets, args.out, options, progress=not args.no_progress, plugins=plugins
    )
    for note in summary.notes:
        print(note, file=sys.stderr)
    for line in summary.lines():
        print(line)
    failed = sorted(run for run, status in summary.statuses.items() if status == "failed")
    if failed:
        # Exit status 1 (not 2: the input was fine, training failed); rerunning retries.
        print(
            f"lejepa-id: {len(failed)} run(s) failed: {', '.join(failed)}; "
            f"see their error.json under {summary.root}, rerun the sweep to retry",
            file=sys.stderr,
        )
        return 1
    return 0


def cmd_aggregate(args: argparse.Namespace) -> int:
    from lejepa_id.analysis.table import write_table

    table = write_table(_existing_dir(args.dir), args.out)
    _print_skipped(table.skipped, table.reasons)
    n = len(table.frame)
    print(f"{n} run{'s' * (n != 1)} ({table.counts()})")
    for path in table.written:
        print(f"wrote {path}")
    return 0


def cmd_figures(args: argparse.Namespace) -> int:
    from lejepa_id.analysis.figures import make_figures

    made = make_figures(_existing_dir(args.dir), args.out, formats=tuple(args.formats.split(",")))
    _print_skipped(made.skipped, made.reasons)
    for note in made.notes:
        print(note)
    for path in made.written:
        print(f"wrote {path}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from lejepa_id.analysis.report import write_report

    command = report_command(args)
    report = write_report(
        _existing_dir(args.dir),
        args.out,
        command=command,
        from_table=args.from_table,
        with_dirs=args.with_dirs,
    )
    _print_skipped(report.skipped, report.reasons)
    for note in report.notes:
        print(note, file=sys.stderr)
    for claim in report.claims:
        print(f"  [{claim.verdict:12s}] {claim.id} ({claim.metric.split(':')[0]}): {claim.summary}")
    print(f"wrote {report.path}")
    print(f"wrote {report.claims_path}")
    return 0


def report_command(args: argparse.Namespace) -> str:
    """The report's own line among "Commands that made it", as it reruns from any folder:
    every ``--plugin`` as the absolute path (or module) it loaded, ``--recorded-plugins``
    when it was given (without it a rerun shows the sweep's plugin components by their raw
    names, not as this page does), ``--out`` and ``--from-table`` as given."""
    from lejepa_id.plugins import resolve

    words = ["lejepa-id", "report", str(args.dir)]
    if args.out:
        words += ["--out", str(args.out)]
    for plugin in getattr(args, "plugins", None) or []:
        words += ["--plugin", resolve(plugin)]
    if getattr(args, "recorded_plugins", False):
        words.append("--recorded-plugins")
    if args.from_table:
        words.append("--from-table")
    for other in getattr(args, "with_dirs", None) or []:
        words += ["--with", str(other)]
    return shlex.join(words)


def cmd_curves(args: argparse.Namespace) -> int:
    from lejepa_id.analysis.curves import plot_curves

    metrics = [m for m in args.metrics.split(",") if m] if args.metrics else None
    path, found = plot_curves(args.dir, args.out, metrics)
    for skipped in found.skipped:
        print(f"skipped {skipped}: not a valid result or curves file", file=sys.stderr)
    running = f", {len(found.running)} still training" if found.running else ""
    n = len(found.runs)
    print(f"{n} run{'s' * (n != 1)}{running}")
    print(f"wrote {path}")
    return 0


def _print_skipped(skipped: list[Path], reasons: dict[Path, str]) -> None:
    """Name every result file left out, with why, and count them (stderr)."""
    for path in skipped:
        print(f"skipped {path}: {reasons.get(path, 'not a valid result file')}", file=sys.stderr)
    if skipped:
        print(f"{len(skipped)} result file(s) skipped, not counted", file=sys.stderr)


def _existing_dir(value: str) -> Path:
    """The results directory, or a one-line UsageError when it is not a directory."""
    path = Path(value)
    try:
        if path.is_dir():
            return path
        exists = path.exists()
    except OSError as exc:  # a name too long, a loop of symlinks
        raise UsageError(f"results directory {value!r} is unusable: {exc.strerror}") from None
    if exists:
        raise UsageError(f"results directory {value!r} is a file, not a directory")
    raise UsageError(f"results directory {value!r} does not exist")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the sweep and analysis subcommands to the main parser."""
    _register_sweep(sub)
    _register_analysis(sub)


def _register_sweep(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sweep",
        help="train every run of an experiment (batched, resumable)",
        description="Expand an experiment YAML into runs, skip the ones already done under "
        "OUT/<experiment>/, pack compatible runs into stacked groups and train "
        "them with a progress bar. Killing a sweep and starting it again "
        "finishes the same results. Failed runs get error.json and are retried "
        "on the next invocation.",
    )
    p.add_argument(
        "config", help="experiment YAML (configs/scaling.yaml) or a paper config's name (scaling)"
    )
    p.add_argument("--out", default="runs", help="results root (default: runs)")
    p.add_argument(
        "--executor",
        choices=["local", "slurm", "submitit-local"],
        default="local",
        help="local process pool (default), SLURM via submitit, or submitit's "
        "local executor (the SLURM code path on this machine)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="local workers (default: one per CPU core on a CPU, 4 groups "
        "sharing a GPU); each worker uses cores/jobs torch threads",
    )
    p.add_argument(
        "--max-group",
        type=int,
        default=None,
        help="at most this many stacked encoders per group (1 disables batching; "
        "default: a memory heuristic on GPU, a small cap on CPU)",
    )
    add_run_arguments(p)
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="expand the config and check it against OUT, print the runs it would train "
        "(per run name, and the objectives, lengths, seeds, rho and code sizes), their stacks "
        "and the projected wall time with its range (from paces stored by an earlier dry "
        "run, --probe or --pace-from), write nothing",
    )
    p.add_argument(
        "--probe",
        action="store_true",
        help="with --dry-run: measure the paces no earlier dry run stored here (a few "
        "seconds a group on a small model; stored for the next dry run)",
    )
    add_pace_from_argument(p)
    p.add_argument("--partition", default=None, help="SLURM partition")
    p.add_argument("--time", type=int, default=None, help="SLURM time limit per job, minutes")
    p.add_argument("--gpus", type=int, default=None, help="SLURM GPUs per job")
    p.add_argument(
        "--array-parallelism",
        type=int,
        default=None,
        help="SLURM: jobs of the array running at once",
    )
    p.set_defaults(func=cmd_sweep)


def _add_plugin(p: argparse.ArgumentParser) -> None:
    """--plugin on the analysis commands: a plugin's metrics (their labels and report
    columns) and claims are known to the tables, figures and report only when it is
    loaded (lejepa_id.cli.main loads every --plugin before the command runs), and the
    plugins DIR's runs were trained with only under --recorded-plugins."""
    add_plugin_argument(p)
    add_recorded_plugins_argument(p, "that DIR's runs were trained with")


def _register_analysis(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "aggregate",
        help="collect every run's result into one table (CSV and Parquet)",
        description="Read every OUT/<experiment>/<run_id>/result.json under DIR and write "
        "one row per run (config columns, status, final metrics and losses) to "
        "runs.csv and runs.parquet. Corrupt result files are named and skipped.",
    )
    p.add_argument("dir", help="results root (the sweep's --out)")
    p.add_argument("--out", default=None, help="output directory (default: DIR)")
    _add_plugin(p)
    p.set_defaults(func=cmd_aggregate)

    p = sub.add_parser(
        "figures",
        help="draw the paper's figures and tables from a results directory",
        description="Draw the 2D panel grid, R^2 vs alpha, R^2 and orthogonality vs N, "
        "empirical error vs the Theorem-3 bound, and the scaling table next to "
        "the paper's (Markdown and LaTeX), for whatever experiments DIR holds.",
    )
    p.add_argument("dir", help="results root (the sweep's --out)")
    p.add_argument("--out", default=None, help="output directory (default: DIR/figures)")
    p.add_argument("--formats", default="png,pdf", help="comma-separated (default png,pdf)")
    _add_plugin(p)
    p.set_defaults(func=cmd_figures)

    p = sub.add_parser(
        "report",
        help="one self-contained HTML page: figures, tables, claims checklist",
        description="Write DIR/report.html with every figure embedded, the tables, and "
        "the paper's claims, each judged on a named metric, filter and statistic (pass, "
        "fail, not shown or not measured); the same claims go to claims.json and the "
        "figures to figures/, beside the page.",
    )
    p.add_argument("dir", help="results root (the sweep's --out)")
    p.add_argument(
        "--out",
        default=None,
        help="HTML file (default: DIR/report.html); claims.json and figures/ are written beside it",
    )
    p.add_argument(
        "--from-table",
        action="store_true",
        help="judge the claims on DIR's committed runs table (runs.parquet or runs.csv) and "
        "keep the figures beside the page: for results kept without their weights",
    )
    p.add_argument(
        "--with",
        dest="with_dirs",
        action="append",
        default=[],
        metavar="OTHER",
        help="judge the claims on OTHER's runs too (repeatable): a sweep whose claim pairs "
        "its runs with an earlier sweep's, e.g. results/stall-lambda --with results/stall; a "
        "run two folders hold (same experiment, run id and configuration) counts once",
    )
    _add_plugin(p)
    p.set_defaults(func=cmd_report)

    p = sub.add_parser(
        "curves",
        help="plot the training curves of a run or of every run under a folder (PNG, PDF, SVG)",
        description="Read the curves of every run under DIR (a run's folder, an "
        "experiment's or a results root): result.json of finished runs, curves.csv "
        "(--logger csv) of runs still training; draw one panel per metric against the "
        "step, one line per run.",
    )
    p.add_argument("dir", help="a run's folder, a sweep's OUT/<experiment> or a results root")
    p.add_argument(
        "--out",
        default=None,
        help="figure file, .png, .pdf or .svg (default: DIR/curves.png)",
    )
    p.add_argument(
        "--metrics",
        default=None,
        help="comma-separated curve keys (default: loss, r2_hz, orth_err, alignment, "
        "sigreg, lr where present)",
    )
    _add_plugin(p)
    p.set_defaults(func=cmd_curves)
