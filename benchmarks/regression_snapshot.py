"""Train short versions of every run of the 2d and scaling configs and print their numbers.

A before/after check for engine changes: run it on two checkouts and diff the JSON.
Same seed must give the same numbers, so the files should agree exactly.

    python benchmarks/regression_snapshot.py --out before.json
    python benchmarks/regression_snapshot.py --out after.json
    python benchmarks/regression_snapshot.py --compare before.json after.json
    python benchmarks/regression_snapshot.py --table before.json after.json   # markdown
    python benchmarks/regression_snapshot.py --reacher --out reacher.json   # the Reacher grid

``--reacher`` renders two tiny datasets (16 x 16, fast look) and trains the lambda x seed
grid on them for 2 epochs through ``lejepa-id reacher train`` (needs the reacher extra).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from lejepa_id.config.experiments import load_experiment
from lejepa_id.training.trainer import train

SHORT = ["steps=120", "eval_size=2000", "eval_every_early=40", "early_until=120", "scatter=0"]
CASES = {
    "2d": ("configs/2d.yaml", ["seeds=[1337]"]),
    "scaling": ("configs/scaling.yaml", ["dims=[2,8,64]", "seeds=[0]", "inits=2"]),
}


def snapshot() -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for name, (path, sets) in CASES.items():
        for spec in load_experiment(path, SHORT + sets).expand():
            res = train(spec.config, progress=False)
            out[f"{name}/{spec.run_id}"] = {**res.metrics, **res.losses}
    return out


def reacher_snapshot() -> dict[str, dict[str, float]]:
    import tempfile

    from lejepa_id.cli.main import main as cli
    from lejepa_id.reacher.datasets import RenderSpec, render_dataset

    root = Path(tempfile.mkdtemp(prefix="reacher-snapshot-"))
    render_dataset(RenderSpec("eval", 120, size=16, look="fast"), root / "eval", workers=1)
    render_dataset(RenderSpec("ou", 96, size=16, look="fast"), root / "ou", workers=1)
    out = root / "runs"
    argv = ["reacher", "train", "--data", str(root / "ou"), "--eval", str(root / "eval")]
    argv += ["--out", str(out), "--lams", "0.01", "0.1", "--seeds", "0", "1", "--epochs", "2"]
    if cli([*argv, "--batch", "16", "--fit-n", "60", "--device", "cpu", "--quiet"]) != 0:
        raise SystemExit("reacher train failed")
    runs = {}
    for path in sorted(out.rglob("result.json")):
        record = json.loads(path.read_text())
        floats = {k: v for k, v in record["metrics"].items() if isinstance(v, float)}
        runs[f"reacher/{path.parent.relative_to(out)}"] = {**floats, **record["losses"]}
    return runs


def compare(a: dict, b: dict) -> int:
    worst = 0.0
    for run in sorted(set(a) | set(b)):
        if run not in a or run not in b:
            print(f"{run}: only in one file")
            worst = math.inf
            continue
        for key in sorted(set(a[run]) & set(b[run])):
            x, y = a[run][key], b[run][key]
            diff = 0.0 if x == y or (x != x and y != y) else abs(x - y)
            worst = max(worst, diff)
            if diff:
                print(f"{run} {key}: {x!r} -> {y!r}")
    print(f"{len(a)} runs; largest difference {worst:.3g}")
    return 0 if worst == 0 else 1


def table(a: dict, b: dict) -> str:
    """A markdown table of a few final metrics per run, before and after."""
    keys = ("r2_hz", "orth_err", "procrustes_mse", "loss")
    lines = ["| run | " + " | ".join(f"{k} before | {k} after" for k in keys) + " |"]
    lines.append("|---" * (1 + 2 * len(keys)) + "|")
    for run in sorted(a):
        cells = [f"{a[run][k]:.10g} | {b.get(run, {}).get(k, float('nan')):.10g}" for k in keys]
        lines.append(f"| {run} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path)
    parser.add_argument("--table", nargs=2, type=Path)
    parser.add_argument("--reacher", action="store_true", help="the Reacher grid instead")
    args = parser.parse_args()
    if args.table:
        print(table(*(json.loads(p.read_text()) for p in args.table)))
        return 0
    if args.compare:
        return compare(*(json.loads(p.read_text()) for p in args.compare))
    data = reacher_snapshot() if args.reacher else snapshot()
    text = json.dumps(data, indent=1, sort_keys=True)
    if args.out:
        args.out.write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
