"""Where a Reacher training step's CPU time goes, and its CPU-seconds per trained image.

    nice -n 19 python benchmarks/profile_reacher.py --size 64 --steps 3

For each layout (float32 NCHW, the reference; float32 NHWC, the default; bfloat16 autocast
on NHWC) it times ``--steps`` steps of the real training step (:func:`_engine`, batch 256,
random frames: the pace does not depend on what they show) on one thread, after a warm-up
step, as process CPU time (user + system, ``time.process_time``): on a machine shared with
other jobs that moves far less than wall time. Then it prints torch.profiler's table of the
default layout's operators. A benchmark aid, not a test.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

from lejepa_id.reacher.training import FrameNormalizer, PairBatches, TrainConfig, _engine, _model
from lejepa_id.runtime import generator
from lejepa_id.training.engine import run_loop

LAYOUTS = {
    "fp32_nchw": {"channels_last": False, "bf16": False},
    "fp32_nhwc": {"channels_last": True, "bf16": False},
    "bf16_nhwc": {"channels_last": True, "bf16": True},
}


def engine_for(size: int, batch: int, **opts):
    cfg = TrainConfig(batch=batch, device="cpu", **opts)
    dev = torch.device("cpu")
    frames = np.random.default_rng(1).integers(0, 256, (4 * batch, 2, size, size, 3), np.uint8)
    model, nhwc = _model(cfg, dev)
    norm = FrameNormalizer({"mean": [0.5] * 3, "std": [0.25] * 3}, dev, nhwc)
    source = PairBatches(frames, batch, norm, generator(dev, 0, 1))
    return _engine(model, source, cfg, dev)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--rows", type=int, default=15)
    args = ap.parse_args()
    torch.set_num_threads(1)
    images = args.steps * 2 * args.batch
    out = {}
    for name, opts in LAYOUTS.items():
        engine = engine_for(args.size, args.batch, **opts)
        run_loop(engine, 1, (), lambda done: None)  # warm-up: oneDNN primitives, allocator
        cpu = time.process_time()
        run_loop(engine, args.steps, (), lambda done: None)
        ms = 1e3 * (time.process_time() - cpu) / images
        out[name] = {"cpu_ms_per_image": ms, "images_per_cpu_s": 1e3 / ms}
    print(json.dumps({"size": args.size, "batch": args.batch, "threads": 1, **out}, indent=1))
    engine = engine_for(args.size, args.batch)
    run_loop(engine, 1, (), lambda done: None)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        run_loop(engine, args.steps, (), lambda done: None)
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=args.rows))


if __name__ == "__main__":
    main()
