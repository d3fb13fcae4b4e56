"""The ``lejepa-id reacher`` command: render, train, plan, figures.

``register(subparsers)`` adds the command to the main parser; every handler takes the
parsed arguments and returns an exit status. Bad input raises UsageError, which the main
command prints as one line with exit status 2 (``main`` here does the same, standalone).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from lejepa_id.cli.args import add_device_argument, add_threads_argument, apply_threads_argument
from lejepa_id.errors import UsageError

if TYPE_CHECKING:  # imported where used: the command line starts without the renderer
    from lejepa_id.reacher.datasets import RenderSpec

DESCRIPTION = """\
The Reacher experiment (docs/model.md, section 8): frames of the DeepMind Control Suite reacher
whose two joint angles are the latents; cnn encoders trained with LeJEPA on OU pairs and
on pairs from a reaching controller's trajectories; straight-line planning in the learned
latent space and the LQR value check (Theorem 4).

Typical order:
  lejepa-id reacher render eval --out data/reacher/eval
  lejepa-id reacher render ou --out data/reacher/ou
  lejepa-id reacher render traj --out data/reacher/traj
  lejepa-id reacher train --data data/reacher/ou data/reacher/traj \\
      --eval data/reacher/eval --out runs/reacher
  lejepa-id reacher plan --runs runs/reacher --eval data/reacher/eval
  lejepa-id reacher figures --runs runs/reacher --eval data/reacher/eval
  lejepa-id reacher sweep --eval data/reacher/eval --data-root data/reacher \\
      --out runs/reacher_sweep --rhos 0.5 0.8 0.95 --deltas 4 16 64

Rendering is headless through MUJOCO_GL (default egl; osmesa also works) and needs
mujoco==3.17.0 and dm-control==1.0.50 (the [reacher] extra).
"""

RENDER_HELP = {
    "eval": "the evaluation gallery: --n Gaussian angle vectors (one frame each, fixed seed)",
    "ou": "OU pairs (z, z'), z ~ N(0, I), z' = rho z + sqrt(1 - rho^2) eta",
    "traj": "pairs (q_t, q_{t+delta}) from episodes of a goal-directed controller",
    "trajmatch": "controller pairs within the OU data's angle range (Gaussian goals, no "
    "wrap): the coverage-matched control",
}
RENDER_N = {"eval": 10_000, "ou": 100_000, "traj": 100_000, "trajmatch": 100_000}


def _add_device(p: argparse.ArgumentParser) -> None:
    add_device_argument(
        p, "auto", "where to run the encoder (auto: cuda when available; default %(default)s)"
    )


def add_frame_options(p: argparse.ArgumentParser) -> None:
    """--size, --look, --target and --workers of every command that renders."""
    p.add_argument("--size", type=int, default=64, help="frame side in pixels (default 64)")
    p.add_argument(
        "--look",
        choices=["paper", "fast"],
        default="paper",
        help="paper: MuJoCo's default shadows, reflections and multisampling (the "
        "paper's images, ~70-100 frames/s per CPU process); fast: all three off "
        "(~500-1500 frames/s)",
    )
    p.add_argument(
        "--target",
        choices=["big", "small"],
        default="big",
        help="big (default): the target at the model's default radius 0.05, as in the "
        "published frames, whose renderer never calls env.reset(); small: radius 0.015, "
        "the hard task's size after env.reset() (this project's earlier frames)",
    )
    p.add_argument("--workers", type=int, default=0, help="render processes (0: one per core)")


def add_train_options(p: argparse.ArgumentParser) -> None:
    """The options of `train` and `sweep` that set the TrainConfig."""
    p.add_argument(
        "--config",
        type=Path,
        help="a Reacher experiment YAML (configs/reacher_grid.yaml's format): its 'defaults' "
        "set the training defaults below, its 'lambs' and 'seeds' the grid",
    )
    p.add_argument(
        "--lambs",
        "--lams",
        dest="lams",
        nargs="+",
        type=float,
        help="SIGReg weights (default 1e-3 5e-3 1e-2 5e-2)",
    )
    p.add_argument("--seeds", nargs="+", type=int, help="seeds (default 0 1 2)")
    p.add_argument("--epochs", type=int, help="epochs (default 100)")
    p.add_argument("--batch", type=int, help="pairs per step (default 256)")
    p.add_argument("--lr", type=float, help="peak learning rate (default 3e-3)")
    p.add_argument("--weight-decay", type=float, help="AdamW weight decay (default 1e-4)")
    p.add_argument("--clip", type=float, help="gradient-norm clip (default 1.0)")
    p.add_argument("--fit-n", type=int, help="training frames for the read-out fits (10000)")
    p.add_argument(
        "--bf16",
        action="store_true",
        default=None,
        help="bfloat16 autocast (fast on CUDA and on CPUs with bfloat16 arithmetic; "
        "changes the numbers: float32 is the reference)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    add_threads_argument(p)
    _add_device(p)


def register(subparsers) -> None:
    """Add the ``reacher`` command and its sub-commands to an argparse subparsers object."""
    top = subparsers.add_parser(
        "reacher",
        help="pixels and planning: the Reacher experiment (docs/model.md, section 8)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = top.add_subparsers(dest="reacher_command", metavar="COMMAND", required=True)
    _register_render(sub)
    _register_train(sub)
    _register_plan(sub)
    _register_figures(sub)
    register_sweep(sub)


def _register_render(sub) -> None:
    render = sub.add_parser(
        "render",
        help="render a frame dataset (eval, ou, traj or trajmatch)",
        description="Render a dataset of uint8 frames with their joint angles into --out. "
        "An interrupted render resumes: rerun the same command.",
    )
    rsub = render.add_subparsers(dest="render_kind", metavar="KIND", required=True)
    for kind in RENDER_HELP:
        p = rsub.add_parser(kind, help=RENDER_HELP[kind], description=RENDER_HELP[kind] + ".")
        p.add_argument("--out", required=True, type=Path, help="dataset directory to create")
        p.add_argument(
            "--n",
            type=int,
            default=RENDER_N[kind],
            help=("frames" if kind == "eval" else "pairs") + " to render (default %(default)s)",
        )
        add_frame_options(p)
        p.add_argument(
            "--seed",
            type=int,
            default=0,
            help="seed of the angles (eval, ou) or of the controller's episodes (traj)",
        )
        p.add_argument("--shard-size", type=int, default=1000, help="items per shard file")
        if kind == "ou":
            p.add_argument("--rho", type=float, default=0.95, help="OU correlation (0.95)")
        if kind in ("traj", "trajmatch"):
            p.add_argument("--delta", type=int, default=16, help="lag in control steps (16)")
            p.add_argument(
                "--stride", type=int, default=4, help="steps between pair start times (4)"
            )
            p.add_argument(
                "--episode-steps", type=int, default=1000, help="steps per episode (1000)"
            )
        p.set_defaults(func=cmd_render)


def _register_train(sub) -> None:
    train = sub.add_parser(
        "train",
        help="train cnn encoders over datasets x --lambs x --seeds (the sweep machinery)",
        description="Train one cnn encoder per (dataset, lambda, seed) with the LeJEPA "
        "objective and evaluate it on the eval gallery: the same grid `lejepa-id sweep` runs "
        "from a Reacher experiment YAML, named here on the command line. Runs go to "
        "OUT/LABEL/lam<lam>_seed<seed>/ (weights.safetensors, codes.safetensors, "
        "result.json); finished runs are skipped, so an interrupted sweep resumes.",
    )
    train.add_argument("--data", nargs="+", required=True, type=Path, help="pair datasets")
    train.add_argument("--labels", nargs="+", help="one run-group name per --data (dir names)")
    train.add_argument("--eval", required=True, type=Path, help="the eval gallery dataset")
    train.add_argument("--out", required=True, type=Path, help="runs directory")
    add_train_options(train)
    train.set_defaults(func=cmd_train)


def _register_plan(sub) -> None:
    plan = sub.add_parser(
        "plan",
        help="planning evaluation, LQR check and statistical tests over all runs",
        description="Straight-line planning in each encoder's latent space on --k start/"
        "goal pairs of the eval gallery, cost relative to the oracle straight line in angle "
        "space and regret against the exact J-optimal path, the LQR value check, and tests: "
        "per run (pairs as replicates) Wilcoxon with bootstrap intervals; across seeds (one "
        "value per run) TOST equivalence with --equiv-margin, t-tests, Welch and Mann-"
        "Whitney between kinds, two-level bootstrap intervals. Writes plan.json and, beside "
        "it, claims.json (the report reads DIR/reacher/claims.json).",
    )
    plan.add_argument("--runs", required=True, type=Path, help="runs directory of `train`")
    plan.add_argument("--eval", required=True, type=Path, help="the eval gallery dataset")
    plan.add_argument("--out", type=Path, help="output JSON (default RUNS/plan.json)")
    plan.add_argument("--k", type=int, default=100, help="start/goal pairs (default 100)")
    plan.add_argument("--points", type=int, default=8, help="waypoints per plan (default 8)")
    plan.add_argument("--knn", type=int, default=5, help="neighbours of the read-out (5)")
    plan.add_argument("--margin", type=float, default=0.25, help="angle margin from +-pi")
    plan.add_argument("--seed", type=int, default=0, help="seed of the pair draw")
    plan.add_argument(
        "--equiv-margin",
        type=float,
        default=0.05,
        help="TOST margin m: equivalent when the mean log(J/J_oracle) lies within "
        "+-log(1 + m) (default 0.05, i.e. 5%%)",
    )
    plan.set_defaults(func=cmd_plan)


def _register_figures(sub) -> None:
    figs = sub.add_parser(
        "figures",
        help="draw the Reacher figures (PNG and PDF) and tab_reacher.tex",
        description="Annotated frame, planning demo, learned latent spaces, cost-ratio "
        "boxplot, planning scatter, LQR value scatter and error boxplot, dataset "
        "distributions, R^2 against rho and delta (when the runs sweep them) and the LaTeX "
        "table tab_reacher.tex.",
    )
    figs.add_argument("--runs", required=True, type=Path, help="runs directory of `train`")
    figs.add_argument("--eval", required=True, type=Path, help="the eval gallery dataset")
    figs.add_argument("--plan", type=Path, help="plan.json (default RUNS/plan.json)")
    figs.add_argument("--out", type=Path, help="figures directory (default RUNS/figures)")
    figs.add_argument(
        "--formats", default="png,pdf", help="comma-separated file types (default png,pdf)"
    )
    figs.add_argument("--pair", type=int, default=0, help="index of the demo's start/goal pair")
    figs.set_defaults(func=cmd_figures)


def cmd_render(args: argparse.Namespace) -> int:
    from lejepa_id.reacher.datasets import RenderSpec, render_dataset

    spec = RenderSpec(
        kind=args.render_kind,
        n=args.n,
        size=args.size,
        look=args.look,
        target=args.target,
        seed=args.seed,
        shard_size=args.shard_size,
        rho=getattr(args, "rho", 0.95),
        delta=getattr(args, "delta", 16),
        stride=getattr(args, "stride", 4),
        episode_steps=getattr(args, "episode_steps", 1000),
    )
    if args.workers < 0:
        raise UsageError(f"--workers={args.workers} must be >= 0")
    meta = render_dataset(spec, args.out, workers=args.workers)
    summary = {"out": str(args.out), "frames": meta["frames"], "norm": meta["norm"]}
    if "diagnostics" in meta:
        summary["diagnostics"] = meta["diagnostics"]["per_joint"]
    print(json.dumps(summary, indent=1))
    return 0


def _train_defaults(config: Path | None) -> dict:
    """The training defaults and grid of a Reacher YAML (``defaults``, ``lambs``,
    ``seeds``: configs/reacher_grid.yaml's format), read by the one Reacher reader."""
    from lejepa_id.reacher.experiment import read_reacher_file

    if config is None:
        return {}
    file = read_reacher_file(config)
    return {**file.defaults, **file.axes}


def train_setup(args: argparse.Namespace) -> tuple[dict, list, list]:
    """(training settings, lambdas, seeds) from --config and the train options, with the
    thread setting shared with every other command (``--threads``, LEJEPA_ID_THREADS)."""
    from lejepa_id.reacher.training import TrainConfig
    from lejepa_id.runtime import resolve_device

    conf = _train_defaults(args.config)
    lams = args.lams or conf.pop("lambs", [1e-3, 5e-3, 1e-2, 5e-2])
    seeds = args.seeds or conf.pop("seeds", [0, 1, 2])
    conf.pop("lambs", None)
    conf.pop("seeds", None)
    cli = {
        "epochs": args.epochs,
        "batch": args.batch,
        "lr": args.lr,
        "weight_decay": args.weight_decay,
        "clip": args.clip,
        "fit_n": args.fit_n,
        "bf16": args.bf16,
        "device": args.device if args.device != "auto" else None,
    }
    conf.update({k: v for k, v in cli.items() if v is not None})
    for flag, values in (("--lambs", lams), ("--seeds", seeds)):
        numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
        if len(numbers) == len(values) and len({float(v) for v in numbers}) != len(values):
            raise UsageError(f"{flag} {list(values)} must list each value once")
    device = TrainConfig.from_mapping(conf, where="--config").device
    resolve_device(device)  # fail on a missing GPU before loading gigabytes of frames
    apply_threads_argument(args)
    return conf, list(lams), list(seeds)


def train_grid(
    args: argparse.Namespace, datasets: dict[str, Path], conf: dict, lams: list, seeds: list
) -> list[Path]:
    """Train datasets x lambdas x seeds into ``--out`` through the sweep machinery (the
    route of `lejepa-id sweep`: its resume check, lock, manifest and progress)."""
    from lejepa_id.config.limits import check_name
    from lejepa_id.reacher.experiment import ReacherExperiment, check_datasets
    from lejepa_id.sweeps.runner import ExecutorOptions, run_experiment
    from lejepa_id.sweeps.state import read_manifest

    root = Path(args.out).resolve()
    manifest = read_manifest(root) if root.is_dir() else None
    # A grid folder keeps the name it was first trained under, also when moved.
    recorded = (manifest or {}).get("experiment")
    exp = ReacherExperiment(
        name=recorded if isinstance(recorded, str) else root.name,
        runs={check_name("label", label): {"data": str(path)} for label, path in datasets.items()},
        eval=str(args.eval),
        defaults=conf,
        axes={"lambs": lams, "seeds": seeds},
    )
    specs = exp.expand()  # every run's settings are checked before anything is read
    check_datasets(exp)
    summary = run_experiment(exp, root, ExecutorOptions(jobs=1), progress=not args.quiet)
    failed = sorted(k for k, v in summary.statuses.items() if v == "failed")
    if failed:
        raise UsageError(f"{len(failed)} run(s) failed: {', '.join(failed)} (see error.json)")
    return [root / s.run_id for s in specs]


def cmd_train(args: argparse.Namespace) -> int:
    from lejepa_id.records.layout import check_creatable

    if args.labels and len(args.labels) != len(args.data):
        raise UsageError(f"--labels needs one name per --data ({len(args.data)})")
    labels = args.labels or [Path(d).name for d in args.data]
    if len(set(labels)) != len(labels):
        raise UsageError(f"need one distinct label per dataset, got {labels}")
    conf, lams, seeds = train_setup(args)
    check_creatable(args.out)
    print_runs(train_grid(args, dict(zip(labels, args.data)), conf, lams, seeds))
    return 0


def print_runs(runs: list[Path]) -> None:
    """One line of metrics per finished run (or its divergence step)."""
    from lejepa_id.records.io import read_json
    from lejepa_id.records.result import RESULT_FILE

    for run in runs:
        res = read_json(run / RESULT_FILE)
        m = res["metrics"]
        if res.get("status") == "diverged":
            print(f"{run}: diverged at step {res['diverged_step']}")
            continue
        # Runs saved before the shared run record called the training time train_seconds.
        secs = res.get("wall_time_s", res.get("train_seconds", float("nan")))
        print(
            f"{run}: r2_hz={m['r2_hz']:.4f} r2_zh={m['r2_zh']:.4f} "
            f"orth_err_whitened={m['orth_err_whitened']:.3f} train_s={secs:.1f}"
        )


def cmd_plan(args: argparse.Namespace) -> int:
    from lejepa_id.reacher.datasets import load_angles
    from lejepa_id.reacher.planning import PlanConfig, evaluate_planning
    from lejepa_id.records.io import atomic_write_json
    from lejepa_id.records.layout import check_creatable

    angles, meta = load_angles(args.eval)
    if meta["identity"]["kind"] != "eval":
        raise UsageError(f"{args.eval} is not an eval gallery")
    cfg = PlanConfig(args.k, args.points, args.knn, args.margin, args.seed, args.equiv_margin)
    out = args.out or args.runs / "plan.json"
    if out.is_dir():
        raise UsageError(f"--out {str(out)!r} is a directory; give the JSON file's path")
    check_creatable(out.parent)
    result = evaluate_planning(args.runs, angles[:, 0], cfg)
    atomic_write_json(out, result)
    from lejepa_id.reacher.claims import plan_lines, read_datasets, write_claims

    # The datasets' render metadata, when kept beside the runs (DIR/datasets/<kind>.json),
    # lets the conclusions name every difference between the data compared.
    write_claims(result, out.parent / "claims.json", read_datasets(args.runs.parent / "datasets"))
    for line in plan_lines(result):
        print(line)
    print(f"wrote {out} and {out.parent / 'claims.json'}")
    return 0


def cmd_figures(args: argparse.Namespace) -> int:
    from lejepa_id.reacher.datasets import load_dataset
    from lejepa_id.reacher.figures import make_figures
    from lejepa_id.records.io import read_json_mapping
    from lejepa_id.records.layout import ensure_writable

    plan_path = args.plan or args.runs / "plan.json"
    if not plan_path.is_file():
        raise UsageError(f"{plan_path} does not exist: run `lejepa-id reacher plan` first")
    formats = tuple(f.strip() for f in args.formats.split(",") if f.strip())
    bad = [f for f in formats if f not in ("png", "pdf", "svg")]
    if bad or not formats:
        raise UsageError(f"--formats {args.formats!r}: choose from png, pdf, svg")
    plan = read_json_mapping(plan_path, "plan")
    shapes = {"runs": list, "pairs": list, "config": dict, "reference": dict}
    bad_keys = [k for k, kind in shapes.items() if not isinstance(plan.get(k), kind)]
    if bad_keys or not plan["runs"] or not plan["pairs"]:
        raise UsageError(
            f"plan {str(plan_path)!r} lacks {', '.join(bad_keys) or 'runs and pairs'}: "
            "rerun `lejepa-id reacher plan`"
        )
    where = _non_finite(plan)
    if where is not None:
        # `reacher plan` writes NaN as null, so a NaN/Infinity literal is a hand edit; the
        # figures would fail one by one after some were written.
        raise UsageError(
            f"plan {str(plan_path)!r} holds a non-finite number at {where}: "
            "rerun `lejepa-id reacher plan`"
        )
    pairs = len(plan["pairs"])
    if not 0 <= args.pair < pairs:
        raise UsageError(f"--pair {args.pair} is out of range: the plan has pairs 0 to {pairs - 1}")
    gallery = load_dataset(args.eval, expect_kind="eval")
    out = ensure_writable(args.out or args.runs / "figures")
    entries = make_figures(gallery, plan, out, formats, args.pair, runs_dir=args.runs)
    for e in entries:
        print(out / e[formats[0]])
    return 0


def _non_finite(tree: object, where: str = "") -> str | None:
    """The key path (``runs[0].ratio[3]``) of the first NaN or infinity in a JSON tree."""
    import math

    if isinstance(tree, float) and not math.isfinite(tree):
        return where or "the top level"
    items: list[tuple[str, object]] = []
    if isinstance(tree, dict):
        items = [(f"{where}.{k}" if where else str(k), v) for k, v in tree.items()]
    elif isinstance(tree, list):
        items = [(f"{where}[{i}]", v) for i, v in enumerate(tree)]
    for path, value in items:
        found = _non_finite(value, path)
        if found is not None:
            return found
    return None


def main(argv: list[str] | None = None) -> int:
    """Standalone entry (``python -m lejepa_id.cli.reacher``), mirroring ``lejepa-id``."""
    from lejepa_id.errors import OneLineParser

    parser = OneLineParser(prog="lejepa-id")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def register_sweep(sub) -> None:
    """Add the ``sweep`` sub-command."""

    p = sub.add_parser(
        "sweep",
        help="render and train over OU rho and trajectory delta (R^2 vs rho / delta)",
        description="Render OU datasets at each --rhos and trajectory datasets (--traj-kinds) "
        "at each --deltas into --data-root, then train every dataset x --lams x --seeds "
        "into --out. Rerunning resumes. `reacher figures --runs OUT` then draws "
        "reacher_r2_vs_rho and reacher_r2_vs_delta. --config reads the 'sweep' section "
        "(rhos, deltas, traj_kinds) and the training 'defaults', 'lambs' and 'seeds'.",
    )
    p.add_argument("--eval", required=True, type=Path, help="the eval gallery dataset")
    p.add_argument("--data-root", required=True, type=Path, help="where datasets are rendered")
    p.add_argument("--out", required=True, type=Path, help="runs directory")
    p.add_argument("--rhos", nargs="*", type=float, help="OU correlations (default: none)")
    p.add_argument("--deltas", nargs="*", type=int, help="trajectory lags (default: none)")
    p.add_argument(
        "--traj-kinds",
        nargs="+",
        choices=["traj", "trajmatch"],
        help="trajectory datasets swept over delta (default: traj trajmatch)",
    )
    p.add_argument("--n", type=int, default=100_000, help="pairs per dataset (100000)")
    p.add_argument("--data-seed", type=int, default=0, help="seed of every dataset (0)")
    add_frame_options(p)
    add_train_options(p)
    p.set_defaults(func=cmd_sweep)


def _sweep_section(config: Path | None) -> dict:
    """The ``sweep`` section of a Reacher YAML, read by the one Reacher reader."""
    from lejepa_id.reacher.experiment import read_reacher_file

    return {} if config is None else read_reacher_file(config).sweep


def sweep_specs(args: argparse.Namespace) -> list[tuple[str, RenderSpec]]:
    """(label, RenderSpec) of every dataset of the sweep, validated."""
    from lejepa_id.reacher.datasets import RenderSpec

    conf = _sweep_section(args.config)
    rhos = args.rhos if args.rhos is not None else conf.get("rhos", [])
    deltas = args.deltas if args.deltas is not None else conf.get("deltas", [])
    kinds = args.traj_kinds or conf.get("traj_kinds", ["traj", "trajmatch"])
    if not rhos and not deltas:
        raise UsageError("--rhos and --deltas are both empty: nothing to sweep")
    common = dict(n=args.n, size=args.size, look=args.look, target=args.target)
    common["seed"] = args.data_seed
    specs = [(f"ou_rho{r:g}", RenderSpec("ou", rho=float(r), **common)) for r in rhos]
    for kind in kinds:
        specs += [(f"{kind}_delta{d}", RenderSpec(kind, delta=int(d), **common)) for d in deltas]
    for _, spec in specs:
        spec.validate()
        if spec.kind != "ou" and not 1 <= spec.delta < spec.episode_steps:
            raise UsageError(f"--deltas value {spec.delta} must lie in [1, {spec.episode_steps})")
    return specs


def cmd_sweep(args: argparse.Namespace) -> int:
    from lejepa_id.reacher.datasets import render_dataset

    specs = sweep_specs(args)
    conf, lams, seeds = train_setup(args)
    if args.workers < 0:
        raise UsageError(f"--workers={args.workers} must be >= 0")
    for label, spec in specs:
        render_dataset(spec, args.data_root / label, workers=args.workers)
    datasets = {label: args.data_root / label for label, _ in specs}
    print_runs(train_grid(args, datasets, conf, lams, seeds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
