"""The ``lejepa-id`` command line.

Bad input (a config key, value, file or directory) ends with one line on stderr naming
the offending key or value and what is allowed, exit status 2, and nothing written.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lejepa_id import __version__
from lejepa_id.cli.args import (
    add_device_argument,
    add_run_arguments,
    add_threads_argument,
    apply_threads_argument,
)
from lejepa_id.cli.completion import register as register_completion
from lejepa_id.cli.config import register as register_config
from lejepa_id.cli.paper import register as register_paper
from lejepa_id.cli.reacher import register as register_reacher
from lejepa_id.cli.sweep import register as register_sweeps
from lejepa_id.errors import OneLineParser, Terminated, UsageError
from lejepa_id.plugins import consent, load_entry_points, only_loaded
from lejepa_id.plugins import load_all as load_plugins


def cmd_run(args: argparse.Namespace) -> int:
    from lejepa_id.records.layout import (
        check_path_length,
        check_run_dirs,
        claim_version,
        ensure_writable,
    )
    from lejepa_id.records.loggers import check_loggers
    from lejepa_id.records.result import RESULT_FILE
    from lejepa_id.resources import resolve_config
    from lejepa_id.runtime import resolve_device
    from lejepa_id.sweeps.kinds import file_kind, get_kind

    # Any experiment kind: the file's ``kind:`` names it, and `run` knows it through
    # its registration only (sweeps/kinds.py).
    config = resolve_config(args.config)
    kind = get_kind(file_kind(config))
    sets = list(args.sets) + ([f"device={args.device}"] if args.device else [])
    # Only the chosen run is validated: --set dim=4 must not fail on another run's mixing.
    # The file with the user's --set first (a bad one, such as seeds=1,2, is refused as
    # written), then with --seed as its one seed (it wins over a seeds axis).
    kind.load(config, sets, only=args.run)
    exp = kind.load(config, [*sets, f"seeds=[{args.seed}]"], only=args.run)
    spec = _one_spec(exp, args.run)
    resolve_device(spec.config.device)  # a missing GPU is refused before the folder exists
    if args.loggers and not kind.feeds_loggers:
        raise UsageError(f"--logger {args.loggers[0]}: {kind.name} runs feed no trackers")
    check_loggers(args.loggers)  # so is a tracker whose package is not installed
    wanted = check_path_length(args.out).expanduser().absolute()
    if not args.versioned:
        check_run_dirs(wanted / spec.experiment, [spec.run_id])
        if not args.overwrite:  # the check `sweep` makes: a result of another config stays
            from lejepa_id.sweeps.state import check_compatible

            try:
                check_compatible(exp, [spec], wanted / spec.experiment)
            except UsageError as exc:
                raise UsageError(
                    f"{exc}; or --overwrite to replace it, --versioned to write beside it"
                ) from None
    made = [] if wanted.exists() else [wanted]
    out = ensure_writable(args.out)
    if args.versioned:  # a fresh OUT/version_N/ is the results root: nothing to refuse
        out = claim_version(out)
        made.append(out)
    root = out / spec.experiment
    made += [d for d in (root, root / spec.run_id) if not d.exists()]
    progress = not args.no_progress
    try:
        if args.loggers:
            (result,) = kind.train_and_save([spec], root, progress, loggers=tuple(args.loggers))
        else:  # only a kind that feeds trackers is handed them
            (result,) = kind.train_and_save([spec], root, progress)
    except UsageError:
        # Refused before anything was trained (a plugin's probe, a checkpoint setting):
        # the folders this command made are taken back, so nothing is half-written.
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    path = root / spec.run_id / RESULT_FILE
    if args.overwrite:
        _drop_stale_files(path)
    _print_metrics(result.status, result.diverged_step, result.metrics)
    print(f"wrote {path}")
    return 0


def _drop_stale_files(result: Path) -> None:
    """After ``run --overwrite``: the run files (a scatter, initial weights) that the
    replaced result had and the new one does not are removed, so no figure reads them as
    this config's."""
    from lejepa_id.records.io import read_json
    from lejepa_id.records.validate import RUN_FILES

    files = read_json(result).get("files", {})
    for name in RUN_FILES:
        if name not in files:
            (result.parent / name).unlink(missing_ok=True)


def _one_spec(exp: Any, run: str) -> Any:
    """The one run ``run`` (its seed already set); an experiment that sweeps another axis
    (grid's lambs x rhos, scaling's dims) must have each pinned to one value with --set."""
    swept = {k: v for k, v in getattr(exp, "axes", {}).items() if k != "seeds" and len(v) > 1}
    if swept:
        key, values = next(iter(swept.items()))
        names = ", ".join(f"{k} ({len(v)} values)" for k, v in swept.items())
        raise UsageError(
            f"--run {run!r} of {exp.name} sweeps {names}; `run` trains one run: pin each "
            f"axis to one value, e.g. {_pin_example(key, values[0])}, or train "
            "them all with `lejepa-id sweep`"
        )
    specs = [s for s in exp.expand() if s.run == run]
    if len(specs) != 1:
        raise UsageError(f"--run {run!r} of {exp.name} names {len(specs)} runs, not one")
    return specs[0]


def _pin_example(key: str, value: Any) -> str:
    """A --set that pins sweep axis ``key`` to ``value``, spelled as the file spells it."""
    import json

    if key == "rho_grid":  # a mapping of the first correlation and the others
        first, rest = value
        return f"--set 'rho_grid={{first: [{first}], rest: [{rest}]}}'"
    return f"--set '{key}=[{json.dumps(value)}]'"


def _print_metrics(status: str, diverged_step: int | None, metrics: dict[str, float]) -> None:
    from lejepa_id.metrics.registry import metric_infos

    if status != "finished":
        print(f"status: {status} at step {diverged_step}")
    for key, info in metric_infos().items():
        if info.summary and key in metrics:
            print(f"  {key:24s} {metrics[key]:.6g}")


def cmd_demo(args: argparse.Namespace) -> int:
    from lejepa_id.cli.demo import run_demo

    result, png = run_demo(
        steps=args.steps,
        seed=args.seed,
        out=args.out,
        mixing=args.mixing,
        mode=args.mode,
        lam=args.lam,
        device=args.device or "cpu",
        progress=not args.no_progress,
    )
    _print_metrics(result.status, result.diverged_step, result.metrics)
    print(f"  {'steps/s':20s} {result.steps_per_s:.1f}")
    print(f"  {'wall time (s)':20s} {result.wall_time_s:.1f}")
    print(f"wrote {png}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="lejepa-id",
        description="Train joint-embedding encoders on synthetic worlds and measure whether "
        "they recover the true latents (LeJEPA identifiability).",
    )
    parser.add_argument(
        "--version", action="version", version=f"lejepa-id {__version__}", help="print the version"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser(
        "run",
        help="train one run of an experiment config and write its result",
        description="Train one named run of an experiment YAML with one seed; "
        "writes OUT/<experiment>/<run_id>/result.json, the weights "
        "and, if configured, a scatter of (z, x, h).",
    )
    p.add_argument(
        "config",
        help="experiment YAML file (configs/2d.yaml) or the name of a paper config the "
        "package ships (2d, gennorm, scaling, grid, anisotropic, codedim, action)",
    )
    p.add_argument("--run", required=True, help="run name from the config's 'runs'")
    p.add_argument("--seed", type=int, required=True, help="run seed")
    p.add_argument("--out", default="runs", help="results directory (default: runs)")
    again = p.add_mutually_exclusive_group()
    again.add_argument(
        "--overwrite",
        action="store_true",
        help="replace a result of another config in the run's folder (refused without it)",
    )
    again.add_argument(
        "--versioned",
        action="store_true",
        help="write under a new OUT/version_N/ (N one above the highest there), so "
        "every call keeps its own results root",
    )
    add_run_arguments(p)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser(
        "demo",
        help="the 2D quick start: spiral world, lejepa, on CPU, ~1 minute",
        description="Train an MLP encoder on the 2D spiral world with the lejepa "
        "objective, print the identifiability metrics and write a "
        "three-panel PNG (latents z, observations x, learned h, "
        "coloured by the latent angle).",
    )
    p.add_argument(
        "--steps",
        type=int,
        default=None,
        help="optimizer steps (default: the demo's short schedule)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--mixing", default="spiral", help="spiral, banana, sinusoid or coupling")
    p.add_argument(
        "--objective", "--mode", dest="mode", default="lejepa", help="lejepa, whiten or infonce"
    )
    p.add_argument("--lam", type=float, default=None, help="regularizer weight lambda")
    p.add_argument("--out", default="runs/demo", help="output directory (default runs/demo)")
    add_device_argument(p, None, "device (default cpu)")
    add_threads_argument(p)
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(func=cmd_demo)

    register_sweeps(sub)
    register_paper(sub)
    register_reacher(sub)
    register_config(sub)
    register_completion(sub, parser)

    p = sub.add_parser(
        "verify",
        help="compile the Coq proofs and check their assumptions",
        description="Compile formal/ from scratch and check that every main "
        "theorem rests only on the declared axioms.",
        add_help=False,
    )
    p.set_defaults(func=None, passthrough="verify")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "verify":
        return _verify(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    previous = _handle(signal.SIGTERM, terminate)
    try:
        trains = _trains(args)
        if trains:
            load_entry_points()
        load_plugins(getattr(args, "plugins", None) or [])
        apply_threads_argument(args)
        if trains:
            _check_environment()
        allowed = trains or consent(args, _command_name(args))
        with contextlib.nullcontext() if allowed else only_loaded(_command_name(args)):
            return int(args.func(args) or 0)
    except UsageError as exc:
        print(f"lejepa-id: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        # The net under every command: a read or write the command did not check
        # itself still ends in one line naming the path and the OS's reason.
        where = f"{str(exc.filename)!r}: " if exc.filename else ""
        print(f"lejepa-id: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except Terminated:
        return interrupted("interrupted (SIGTERM)", 143)
    except KeyboardInterrupt:
        return interrupted("interrupted", 130)
    finally:
        _handle(signal.SIGTERM, previous)


def _trains(args: argparse.Namespace) -> bool:
    """Whether the command trains, and so may run installed plugins and a file's
    ``plugins:`` list; every other command runs only what ``--plugin`` names."""
    if getattr(args, "dry_run", False):
        return False
    if args.command == "reacher":
        return getattr(args, "reacher_command", None) in ("train", "sweep")
    return args.command in ("run", "demo", "sweep", "paper")


def _check_environment() -> None:
    """The training settings read from the environment, checked before a command that
    trains makes any folder (a sweep's runs would each fail on them into error.json)."""
    import os

    from lejepa_id.training.checkpoints import checkpoint_interval
    from lejepa_id.training.engine import step_setting
    from lejepa_id.training.threads import ENV_VAR, parse_threads

    checkpoint_interval()
    step_setting()
    parse_threads(os.environ.get(ENV_VAR), ENV_VAR)  # --threads, when given, is in it


def _command_name(args: argparse.Namespace) -> str:
    words = [args.command, getattr(args, "reacher_command", None)]
    words.append(getattr(args, "config_command", None))
    name = " ".join(w for w in words if w)
    return f"{name} --dry-run" if getattr(args, "dry_run", False) else name


def run_as_script() -> int:
    """:func:`main` for ``python -m lejepa_id``: a Ctrl-C that lands after main() has
    handled its own (between its return and the exit) still ends as an interrupted
    command, exit 130, not a signal death."""
    try:
        return main()
    except KeyboardInterrupt:
        return interrupted("interrupted", 130)


def _verify(argv: list[str]) -> int:
    """``lejepa-id verify``: on SIGTERM or Ctrl-C its coqc processes are killed first
    (they lead their own process groups), then it exits 143 or 130."""
    from lejepa_id.proofs.checker import main as verify_main
    from lejepa_id.proofs.coq import kill_running

    def stop(signum: int, frame: object) -> None:
        kill_running()
        raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt

    previous = {sig: _handle(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        return verify_main(argv)
    except Terminated:
        return interrupted("verify interrupted (SIGTERM); coqc stopped", 143)
    except KeyboardInterrupt:
        return interrupted("verify interrupted; coqc stopped", 130)
    finally:
        for sig, handler in previous.items():
            _handle(sig, handler)


def interrupted(message: str, status: int) -> int:
    """Report a handled interrupt and return its exit status (130 Ctrl-C, 143 SIGTERM).

    CPython remembers a KeyboardInterrupt that escaped code run from a string (``exec``
    or ``eval`` of source text, as ``dataclasses`` and ``typing`` do while a module is
    imported) and, at exit, kills the process with SIGINT whatever status it returns:
    an interrupt that lands in such an import would end as a signal death (-2) although
    we caught it. Running any string code resets that flag, so the status we return is
    the one the shell sees."""
    print(f"lejepa-id: {message}", file=sys.stderr)
    exec("None")  # noqa: S102 - a constant; its only effect is the reset described above
    return status


def _handle(sig: int, handler: Any) -> Any:
    """Install a signal handler; only the main thread may (main() called from another
    thread, as an embedding application might, keeps the process's handlers)."""
    if handler is None or threading.current_thread() is not threading.main_thread():
        return None  # None: a handler installed outside Python, which stays
    return signal.signal(sig, handler)


def terminate(signum: int, frame: object) -> None:
    """SIGTERM handler: unwind like Ctrl-C (finally blocks run, workers are stopped)."""
    raise Terminated


if __name__ == "__main__":
    sys.exit(main())
