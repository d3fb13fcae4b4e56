"""Training speed: steps/s of single runs against the published pace (docs/model.md, section 10).

    python benchmarks/bench_train.py              # all cases, on CUDA when present
    python benchmarks/bench_train.py --steps 4000 --cases 2d

Cases: (a) the 2d spiral lejepa config with the full evaluation schedule (dense every
100 steps up to 1,000, then every 500); (b) the scaling config (coupling L = 4, matched
encoder, lejepa lambda = 1e-6) at N = 64 and N = 1024. Prints steps/s, wall time and
R^2(h -> z) at the end (a benchmark, not a test: compare ratios within one run).
"""

from __future__ import annotations

import argparse
import json
import time

import torch

from lejepa_id import RunConfig, train
from lejepa_id.sweeps.stated import bench_cases as cases  # the cases --pace-from reads

REFERENCE = {  # steps/s of the published code (docs/model.md, section 10)
    ("2d", "cpu"): 33.0,
    ("N64", "cpu"): 36.0,
    ("N256", "cpu"): 36.0,
    ("2d", "cuda"): 129.0,
    ("N1024", "cuda"): 205.0,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--cases", nargs="+", default=["2d", "N64", "N1024"])
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", default="auto", help="torch CPU threads, or auto (by size)")
    parser.add_argument("--json", help="also write the numbers to this JSON file")
    args = parser.parse_args()
    device = (
        "cuda"
        if args.device == "auto" and torch.cuda.is_available()
        else ("cpu" if args.device == "auto" else args.device)
    )
    rows = []
    print(f"device={device} torch={torch.__version__} threads={args.threads}")
    for name in args.cases:
        cfg = cases(args.steps)[name]
        cfg.device = device
        warm = RunConfig(**{**cfg.__dict__, "steps": 20})
        train(warm, progress=False, threads=args.threads)  # warm-up / JIT
        start = time.perf_counter()
        res = train(cfg, progress=False, threads=args.threads)
        wall = time.perf_counter() - start
        ref = REFERENCE.get((name, device))
        row = {
            "case": name,
            "device": device,
            "steps": cfg.steps,
            "threads": res.threads,
            "wall_s": round(wall, 2),
            "steps_per_s": round(cfg.steps / wall, 1),
            "r2_hz": res.metrics["r2_hz"],
            "reference_steps_per_s": ref,
            "speedup": round(cfg.steps / wall / ref, 2) if ref else None,
        }
        rows.append(row)
        print(
            f"{name:6s} {row['steps_per_s']:8.1f} steps/s  wall {wall:7.1f} s  "
            f"threads {res.threads}  "
            f"R2(h->z) {row['r2_hz']:.6f}  reference {ref or '-'}  x{row['speedup'] or '-'}",
            flush=True,
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
