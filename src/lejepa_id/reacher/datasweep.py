"""`lejepa-id reacher sweep`: render OU datasets over rho and trajectory datasets over delta,
then train on each, for the figures R^2 against rho and against delta.

Each dataset goes to DATA_ROOT/<label> (``ou_rho0.95``, ``traj_delta16``,
``trajmatch_delta16``), each run to OUT/<label>/lam<lam>_seed<seed>/; both resume. Datasets
are trained one at a time, so only one is in memory.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from lejepa_id.errors import UsageError

SWEEP_KEYS = ("rhos", "deltas", "traj_kinds")


def register_sweep(sub) -> None:
    """Add the ``sweep`` sub-command."""
    from lejepa_id.cli.reacher import add_frame_options, add_train_options

    p = sub.add_parser(
        "sweep",
        help="render and train over OU rho and trajectory delta (R^2 vs rho / delta)",
        description="Render OU datasets at each --rhos and trajectory datasets (--traj-kinds) "
        "at each --deltas into --data-root, then train every dataset x --lams x --seeds "
        "into --out. Rerunning resumes. `reacher figures --runs OUT` then draws "
        "reacher_r2_vs_rho and reacher_r2_vs_delta. --config reads the 'sweep' section "
        "(rhos, deltas, traj_kinds) and the 'train' section.",
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
    if config is None:
        return {}
    import yaml

    if not config.is_file():
        raise UsageError(f"--config {config} does not exist")
    section = (yaml.safe_load(config.read_text()) or {}).get("sweep", {}) or {}
    unknown = sorted(set(section) - set(SWEEP_KEYS))
    if unknown:
        raise UsageError(
            f"{config}: unknown sweep key(s) {', '.join(unknown)}; allowed: {', '.join(SWEEP_KEYS)}"
        )
    return section


def sweep_specs(args: argparse.Namespace) -> list[tuple[str, object]]:
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
    from lejepa_id.cli.reacher import print_runs, train_setup
    from lejepa_id.reacher.datasets import load_dataset, render_dataset
    from lejepa_id.reacher.grid import sweep

    specs = sweep_specs(args)
    base, lams, seeds = train_setup(args)
    if args.workers < 0:
        raise UsageError(f"--workers={args.workers} must be >= 0")
    gallery = load_dataset(args.eval, expect_kind="eval")
    runs = []
    for label, spec in specs:
        render_dataset(spec, args.data_root / label, workers=args.workers)
        data = load_dataset(args.data_root / label, expect_kind="pairs")
        runs += sweep([data], gallery, base, lams, seeds, args.out, [label], not args.quiet)
        del data  # one dataset in memory at a time
    print_runs(runs)
    return 0
