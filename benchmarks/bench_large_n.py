"""What one full-length scaling run costs at large N on this machine: its training steps and
its evaluations, timed apart, and the projection they give.

    python benchmarks/bench_large_n.py                      # N = 512 and 1024, 2 threads
    python benchmarks/bench_large_n.py --dims 1024 --steps 200 --threads 1 --json out.json

For each N and objective (the scaling config's matched encoder, coupling L = 4, lambda
1e-6 for lejepa), two runs of ``--steps`` steps after a warm-up: one evaluated only at its
end, one also at every ``--steps / 4`` steps (3 evaluations more). The first gives the
seconds per step (its one evaluation subtracted), the difference the seconds per
evaluation. A full run is then 20,000 steps and the config's evaluation schedule
(``RunConfig.eval_steps``: every 100 steps up to 1,000, then every 500). A benchmark, not a
test: other load shifts every number, so run it on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import time

from lejepa_id import RunConfig, train

FULL_STEPS = 20_000


def _timed(config: RunConfig, threads: str) -> float:
    start = time.perf_counter()
    train(config, progress=False, threads=threads)
    return time.perf_counter() - start


def measure(dim: int, mode: str, steps: int, threads: str) -> dict:
    base = dict(
        mixing="coupling", encoder="matched", layers=4, dim=dim, mode=mode, device="cpu",
        lam=1e-6, eval_every_early=steps, early_until=steps, eval_every=steps,
    )  # fmt: skip
    if mode != "lejepa":
        base.pop("lam")
    train(RunConfig(**{**base, "steps": 10}), progress=False, threads=threads)  # warm-up
    one = _timed(RunConfig(**base, steps=steps), threads)
    every = steps // 4
    four = _timed(
        RunConfig(**{**base, "eval_every_early": every, "early_until": steps, "eval_every": every},
                  steps=steps),
        threads,
    )  # fmt: skip
    eval_s = max(four - one, 0.0) / 3
    step_s = max(one - eval_s, 0.0) / steps
    evals = len(RunConfig(dim=dim, steps=FULL_STEPS).eval_steps())
    return {
        "dim": dim,
        "mode": mode,
        "steps": steps,
        "threads": threads,
        "step_s": step_s,
        "eval_s": eval_s,
        "full_run_s": FULL_STEPS * step_s + evals * eval_s,
        "full_run_evals": evals,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=[512, 1024])
    parser.add_argument("--modes", nargs="+", default=["lejepa", "whiten", "infonce"])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--threads", default="2")
    parser.add_argument("--json", help="also write the rows to this JSON file")
    args = parser.parse_args()
    rows = []
    for dim in args.dims:
        for mode in args.modes:
            row = measure(dim, mode, args.steps, args.threads)
            rows.append(row)
            print(
                f"N = {dim:5d} {mode:8s} {row['step_s'] * 1e3:8.1f} ms/step  "
                f"{row['eval_s']:6.2f} s/evaluation  full run ({FULL_STEPS:,} steps, "
                f"{row['full_run_evals']} evaluations): {row['full_run_s'] / 60:6.1f} min",
                flush=True,
            )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
