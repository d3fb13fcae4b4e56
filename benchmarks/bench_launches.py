"""Operators per training step: aten ops on the CPU; CUDA launches and host syncs on a GPU.

    python benchmarks/bench_launches.py                          # CPU: 2d, N64, N1024
    python benchmarks/bench_launches.py --device cuda --json launches.json

For each case (``2d``, ``N64``, ``N1024``, as in ``bench_train.py``), as one run and as a
stack of ``--stack`` runs, and for each step path (``eager``, the reference step, and
``static``, its device-only program; on CUDA ``graph``, that program as one CUDA graph),
the script builds the run's training state, takes enough steps to pass the warm-up and a
chunk boundary, then counts over one chunk of :data:`~lejepa_id.training.engine.CHUNK`
steps (so a chunk's drawing of data and directions is included once):

- ``aten_ops``: the ATen operators dispatched per step (counted with a
  ``TorchDispatchMode`` below autograd, backward and optimizer included), and
  ``compute_ops``: those that are not views (``view``, ``detach``, ``transpose``, ...),
  which is what runs a kernel (one launch each on CUDA without a graph);
- on CUDA, from ``torch.profiler``: ``launches`` (kernel launches, graph launches and
  asynchronous copies issued by the host) and ``syncs`` (calls that make the host wait
  for the device: stream, event and device synchronizations and synchronous copies).

Prints one JSON object per row and, with ``--json``, writes them all with the device and
date. No evaluation runs in the counted steps (a run evaluates every 100 steps or more).
A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import platform
from collections import Counter
from typing import Any

import torch
from bench_train import cases  # run from benchmarks/, or with it on sys.path
from torch.utils._python_dispatch import TorchDispatchMode

from lejepa_id.training import trainer as trainer_module
from lejepa_id.training.engine import STEP_VAR, GraphedEngine
from lejepa_id.training.streams import CHUNK
from lejepa_id.worlds.build import world_for

LAUNCH_CALLS = ("cudaLaunchKernel", "cuLaunchKernel", "cudaGraphLaunch", "cudaMemcpyAsync")
VIEW_OPS = {
    "aten.view", "aten.detach", "aten.transpose", "aten.t", "aten.reshape", "aten.expand",
    "aten.as_strided", "aten.unsqueeze", "aten.squeeze", "aten.permute", "aten.alias",
    "aten.select", "aten.slice", "aten._unsafe_view", "aten.unbind", "aten.split",
    "aten.chunk", "aten.narrow", "aten.movedim", "aten.unflatten", "aten.flatten",
}  # fmt: skip
SYNC_CALLS = (
    "cudaStreamSynchronize",
    "cudaDeviceSynchronize",
    "cudaEventSynchronize",
    "cudaMemcpy",  # the synchronous copy (cudaMemcpyAsync is matched exactly above)
)


class CountOps(TorchDispatchMode):
    """Counts the ATen operators dispatched inside the ``with`` block."""

    def __init__(self) -> None:
        super().__init__()
        self.ops: Counter[str] = Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001
        self.ops[str(func.overloadpacket)] += 1
        return func(*args, **(kwargs or {}))


def build(case: str, members: int, device: str, path: str) -> Any:
    """The training state of a stack of ``members`` runs of ``case`` with step ``path``."""
    base = dataclasses.replace(cases(10_000)[case], device=device)
    cfgs = [dataclasses.replace(base, seed=s) for s in range(members)]
    os.environ[STEP_VAR] = path
    try:
        # The trainer's own state, as train() builds it (a benchmark may use the private
        # class: it measures exactly what a run executes).
        return trainer_module._Trainer(
            cfgs, [world_for(c) for c in cfgs], [""] * members, False, None
        )
    finally:
        del os.environ[STEP_VAR]


def count_ops(engine: Any, start: int, steps: int) -> Counter[str]:
    """The ATen operators of ``steps`` steps of ``engine`` from 0-based step ``start``."""
    with CountOps() as mode:
        for step in range(start, start + steps):
            engine.step(step)
    return mode.ops


def count(case: str, members: int, device: str, path: str) -> dict[str, Any]:
    engine = build(case, members, device, path).engine
    warm = max(GraphedEngine.WARMUP + 1, CHUNK) + 1
    for step in range(warm):
        engine.step(step)
    if device == "cuda":
        torch.cuda.synchronize()
    ops = count_ops(engine, warm, CHUNK)
    row: dict[str, Any] = {
        "case": case,
        "members": members,
        "path": path,
        "device": device,
        "aten_ops": round(sum(ops.values()) / CHUNK, 2),
        "compute_ops": round(sum(n for k, n in ops.items() if k not in VIEW_OPS) / CHUNK, 2),
        "top_ops": dict(ops.most_common(5)),
    }
    if device == "cuda":
        from torch.profiler import ProfilerActivity, profile

        start = warm + CHUNK
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for step in range(start, start + CHUNK):
                engine.step(step)
            torch.cuda.synchronize()
        names = Counter(e.name for e in prof.events())
        launches = sum(n for name, n in names.items() if name in LAUNCH_CALLS)
        syncs = sum(n for name, n in names.items() if name in SYNC_CALLS) - 1  # ours
        row.update(launches=round(launches / CHUNK, 2), syncs=round(syncs / CHUNK, 2))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=["2d", "N64", "N1024"])
    parser.add_argument("--stack", type=int, default=4, help="members of the stacked row")
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--json", help="also write the rows to this JSON file")
    args = parser.parse_args()
    paths = ["eager", "static"] + (["graph"] if args.device == "cuda" else [])
    rows = []
    for case in args.cases:
        for members in (1, args.stack):
            for path in paths:
                row = count(case, members, args.device, path)
                rows.append(row)
                print(json.dumps(row), flush=True)
    if args.json:
        device = torch.cuda.get_device_name() if args.device == "cuda" else platform.processor()
        meta = {
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "device": device or platform.machine(),
            "torch": torch.__version__,
        }
        with open(args.json, "w") as f:
            json.dump({**meta, "rows": rows}, f, indent=2)


if __name__ == "__main__":
    main()
