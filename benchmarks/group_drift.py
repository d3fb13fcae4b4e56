"""How far a stacked group drifts from its runs trained one by one, by training length.

    python benchmarks/group_drift.py --device cuda

Prints, per objective and number of steps, the largest relative weight difference between
each run trained in a group of three and the same run trained alone. Differences that
start at float32 rounding and grow with the steps are the dynamics amplifying the
different summation orders of batched and single matrix kernels; a large difference at
step 1 would be a bug. A diagnostic, not a test.
"""

from __future__ import annotations

import argparse

from lejepa_id import RunConfig, train

MEMBERS = [(0, 1e-3, 0.9, 2.0), (1, 0.3, 0.5, 1.0), (2, 0.5, 0.95, 4.0)]


def drift(mode: str, steps: int, device: str) -> float:
    small = dict(batch=64, eval_size=500, hidden=32, num_directions=32, device=device)
    sched = dict(steps=steps, eval_every=steps, eval_every_early=steps, early_until=steps)
    cfgs = [
        RunConfig(**small, **sched, mode=mode, seed=s, lam=lam, rho=rho, law="gennorm", alpha=a)
        for s, lam, rho, a in MEMBERS
    ]
    worst = 0.0
    for cfg, res in zip(cfgs, train(cfgs, progress=False)):
        alone = train(cfg, progress=False).weights
        for k, w in alone.items():
            rel = (res.weights[k] - w).abs().max() / w.abs().max().clamp_min(1e-12)
            worst = max(worst, float(rel))
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--steps", type=int, nargs="+", default=[1, 2, 5, 10, 20, 40])
    args = parser.parse_args()
    for mode in ("lejepa", "whiten", "infonce"):
        row = [f"{drift(mode, s, args.device):.1e}" for s in args.steps]
        print(f"{mode:8s} " + "  ".join(f"{s}:{v}" for s, v in zip(args.steps, row)), flush=True)


if __name__ == "__main__":
    main()
