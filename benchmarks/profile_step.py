"""Where a training step's time goes: torch.profiler over a short run of one case.

    python benchmarks/profile_step.py --case N1024 --steps 200 --device cuda

Prints the operators with the largest self time on the device and on the CPU. A step
whose CPU time far exceeds its device time is bound by kernel launches and host work,
not by arithmetic. A benchmark aid, not a test.
"""

from __future__ import annotations

import argparse
import dataclasses

from bench_train import cases  # run from benchmarks/, or with it on sys.path
from torch.profiler import ProfilerActivity, profile

from lejepa_id import train


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", default="N1024", choices=["2d", "N64", "N256", "N1024"])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--group", type=int, default=1, help="seeds trained as one group")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--rows", type=int, default=20)
    args = parser.parse_args()
    base = cases(args.steps)[args.case]
    quiet = dict(eval_every=args.steps, eval_every_early=args.steps, scatter=0)
    configs = [
        dataclasses.replace(base, seed=s, device=args.device, **quiet) for s in range(args.group)
    ]
    train(dataclasses.replace(configs[0], steps=20), progress=False)  # warm-up: kernels, allocator
    activities = [ProfilerActivity.CPU]
    if args.device == "cuda":
        activities.append(ProfilerActivity.CUDA)
    with profile(activities=activities) as prof:
        train(configs, progress=False)
    keys = prof.key_averages()
    if args.device == "cuda":
        print(keys.table(sort_by="self_cuda_time_total", row_limit=args.rows))
    print(keys.table(sort_by="self_cpu_time_total", row_limit=args.rows))


if __name__ == "__main__":
    main()
