"""The ``lejepa-id`` command line.

Bad input (a config key, value, file or directory) ends with one line on stderr naming
the offending key or value and what is allowed, exit status 2, and nothing written.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence

from lejepa_id.cli.args import (
    OneLineParser,
    add_run_arguments,
    add_threads_argument,
    apply_threads_argument,
)
from lejepa_id.cli.paper import register as register_paper
from lejepa_id.cli.reacher import register as register_reacher
from lejepa_id.cli.sweep import register as register_sweeps
from lejepa_id.errors import UsageError


def cmd_run(args: argparse.Namespace) -> int:
    from lejepa_id.config.experiments import load_experiment
    from lejepa_id.records.layout import ensure_writable, run_dir, train_and_save
    from lejepa_id.records.result import RESULT_FILE
    from lejepa_id.training.runtime import resolve_device

    sets = list(args.sets) + ([f"device={args.device}"] if args.device else [])
    # Only the chosen run is validated: --set dim=4 must not fail on another run's mixing.
    exp = load_experiment(args.config, sets, only=args.run)
    (spec,) = dataclasses.replace(exp, axes={**exp.axes, "seeds": [args.seed]}).expand()
    resolve_device(spec.config.device)  # a missing GPU is refused before the folder exists
    out = ensure_writable(args.out)
    (result,) = train_and_save([spec], out, progress=not args.no_progress)
    path = run_dir(out, spec.experiment, spec.run_id) / RESULT_FILE
    _print_metrics(result.status, result.diverged_step, result.metrics)
    print(f"wrote {path}")
    return 0


def _print_metrics(status: str, diverged_step: int | None, metrics: dict[str, float]) -> None:
    from lejepa_id.metrics.evaluation import metric_infos

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
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser(
        "run",
        help="train one run of an experiment config and write its result",
        description="Train one named run of an experiment YAML with one seed; "
        "writes OUT/<experiment>/<run_id>/result.json, the weights "
        "and, if configured, a scatter of (z, x, h).",
    )
    p.add_argument("config", help="experiment YAML file, e.g. configs/2d.yaml")
    p.add_argument("--run", required=True, help="run name from the config's 'runs'")
    p.add_argument("--seed", type=int, required=True, help="run seed")
    p.add_argument("--out", default="runs", help="results directory (default: runs)")
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
    p.add_argument("--mode", default="lejepa", help="lejepa, whiten or infonce")
    p.add_argument("--lam", type=float, default=None, help="regularizer weight lambda")
    p.add_argument("--out", default="runs/demo", help="output directory (default runs/demo)")
    p.add_argument(
        "--device", choices=["auto", "cpu", "cuda"], default=None, help="device (default cpu)"
    )
    add_threads_argument(p)
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(func=cmd_demo)

    register_sweeps(sub)
    register_paper(sub)
    register_reacher(sub)

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
        from lejepa_id.proofs.checker import main as verify_main

        return verify_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        apply_threads_argument(args)
        return int(args.func(args) or 0)
    except UsageError as exc:
        print(f"lejepa-id: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("lejepa-id: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
