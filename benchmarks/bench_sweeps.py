"""Sweep throughput: runs per hour, and the speed-up of batched groups over one by one.

For each group size R, trains R compatible runs of one experiment (different seeds)
once as a stacked group and once one after another, with the same step budget, and
reports run-steps/s for both, the speed-up, and runs/hour extrapolated to the config's
full step count. Not a timed test: run it by hand (or from benchmarks/gpu_suite.sh).

    python benchmarks/bench_sweeps.py --config configs/2d.yaml --run spiral_lejepa \\
        --steps 200 --sizes 1 4 --threads 2
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import torch

from lejepa_id.config.experiments import load_experiment
from lejepa_id.runtime import resolve_device
from lejepa_id.training.trainer import train


def _time_train(configs: list, device: torch.device, repeat: int = 1) -> float:
    """Best of ``repeat`` wall times (the minimum is robust to a shared machine's noise)."""
    best = float("inf")
    for _ in range(repeat):
        if device.type == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        train(configs, progress=False)
        if device.type == "cuda":
            torch.cuda.synchronize()
        best = min(best, time.perf_counter() - start)
    return best


def quiet_evaluation(steps: int, sets: list[str]) -> list[str]:
    """Evaluations are not what is measured: evaluate once, on the smallest set the
    run's dimension allows (the limit R^2 needs, at least 2,000 points)."""
    dims = [int(s.split("=", 1)[1]) for s in sets if s.replace(" ", "").startswith("dim=")]
    size = max([2000] + [4 * d for d in dims])
    evals = [f"eval_size={size}", f"eval_every={steps}", f"eval_every_early={steps}"]
    return [*evals, "scatter=0", *sets]


def bench(
    config: Path,
    run: str,
    steps: int,
    sizes: list[int],
    sets: list[str],
    device: str,
    repeat: int = 3,
) -> list[dict]:
    """One row per group size: batched and one-by-one run-steps/s, speed-up, runs/hour."""
    exp = load_experiment(config, [f"steps={steps}", f"device={device}", *sets])
    full_steps = load_experiment(config).run_config(run).steps
    dev = resolve_device(device)
    rows = []
    for size in sizes:
        # Only the seed axis: other axes (dims, alphas, ...) are fixed by --set.
        exp.axes = {"seeds": list(range(size))}
        exp.runs = {run: exp.runs[run]}
        configs = [s.config for s in exp.expand()]
        _time_train(configs[:1], dev)  # warm-up: allocator, kernels, lazy imports
        batched = _time_train(configs, dev, repeat)
        solo = sum(_time_train([c], dev, repeat) for c in configs)
        members = sum(c.effective_inits for c in configs)
        row = {
            "config": str(config),
            "run": run,
            "dim": configs[0].dim,
            "device": str(dev),
            "group_size": size,
            "encoders": members,
            "steps": steps,
            "batched_s": round(batched, 3),
            "one_by_one_s": round(solo, 3),
            "batched_run_steps_per_s": round(size * steps / batched, 1),
            "one_by_one_run_steps_per_s": round(size * steps / solo, 1),
            "speedup": round(solo / batched, 2),
            "runs_per_hour_full_steps": round(3600 * size * steps / batched / full_steps, 1),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=Path("configs/2d.yaml"))
    parser.add_argument("--run", default="spiral_lejepa")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 4])
    parser.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        help="extra key=value overrides, e.g. dim=16 (other axes are dropped)",
    )
    parser.add_argument("--device", default="auto")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many timings")
    parser.add_argument(
        "--threads", type=int, default=2, help="torch CPU threads (keep small on a shared machine)"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write rows here")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    sets = quiet_evaluation(args.steps, args.sets)
    rows = bench(args.config, args.run, args.steps, args.sizes, sets, args.device, args.repeat)
    out = args.json or (
        Path(os.environ["OUT"]) / "bench_sweeps.json" if os.environ.get("OUT") else None
    )
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
