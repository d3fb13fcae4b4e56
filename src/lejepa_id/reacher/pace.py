"""The measured pace of the Reacher experiment: frames rendered, cnn steps, frames encoded.

``lejepa-id paper --dry-run`` projects the Reacher row's wall time from these
measurements, as :mod:`lejepa_id.sweeps.pace` does for the synthetic groups: a pace once
probed is kept in the same :class:`~lejepa_id.sweeps.pace.PaceStore`, keyed by what
decides it (:func:`reacher_key`), so a later dry run of the same sizes probes nothing;
``--pace-from`` reads a Reacher pace a file states (:mod:`lejepa_id.sweeps.stated`).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass

import numpy as np

from lejepa_id.sweeps.pace import TARGET_S, PaceStore, load_average, timed


@dataclass
class ReacherPace:
    """Measured: frames rendered per second (one process), seconds per training step of
    ``batch`` pairs, seconds to encode one frame."""

    frames_per_s: float
    step_s: float
    encode_s: float
    probe_s: float
    what: str
    stored: str = ""
    """When the pace was measured, for a pace read from the store."""
    load: float = -1.0
    """The 1-minute load average while it was measured (-1: not recorded)."""

    def where(self) -> str:
        """``measured``, or ``stored, measured <date>``, with the load average."""
        text = f"stored, measured {self.stored}" if self.stored else "measured"
        return text + (f" at load {self.load:.1f}" if self.load >= 0 else "")


def reacher_key(size: int, look: str, target: str, batch: int, device: str) -> str:
    """What decides a Reacher pace: the frame size, look and target (rendering), the
    batch (a training step), the device (a GPU model, or the CPU's core count), the
    threads and torch; a ``reacher:`` prefix keeps it apart from the synthetic keys."""
    import torch

    what = {
        "kind": "reacher",
        "size": size,
        "look": look,
        "target": target,
        "batch": batch,
        "device": device,
        "threads": torch.get_num_threads(),
        "torch": torch.__version__,
    }
    text = json.dumps(what, sort_keys=True)
    return "reacher:" + hashlib.sha256(text.encode()).hexdigest()[:24]


def stored_or_probed(
    store: PaceStore | None,
    size: int,
    look: str,
    target: str,
    batch: int,
    device_type: str,
    device_name: str,
) -> ReacherPace:
    """The stored Reacher pace of these sizes on ``device_name``, or a probe's (then
    stored): a second dry run of the same budget probes nothing."""
    key = reacher_key(size, look, target, batch, device_name)
    known = store.get(key, ReacherPace) if store is not None else None
    if known is not None:
        return known
    pace = probe_reacher(size, look, target, batch, device_type)
    if store is not None:
        store.put(key, pace)
    return pace


def probe_reacher(
    size: int, look: str, target: str, batch: int, device: str, render: bool = True
) -> ReacherPace:
    """Render frames for about a second, then time cnn training steps (best of two
    timings) and encoding on random frames of the budget's size (the pace does not
    depend on what they show)."""
    import torch

    from lejepa_id.reacher.training import (
        FrameNormalizer,
        PairBatches,
        TrainConfig,
        _engine,
        _model,
        encode,
    )
    from lejepa_id.runtime import generator, resolve_device
    from lejepa_id.training.engine import run_loop

    t_start = time.perf_counter()
    fps = float("nan")
    if render:
        from lejepa_id.reacher.render import ReacherRenderer

        renderer = ReacherRenderer(size, look, target)
        rng = np.random.default_rng(0)
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < 1.0 or n < 10:
            renderer.render(rng.normal(size=2))
            n += 1
        fps = n / (time.perf_counter() - t0)
        renderer.close()
    dev = resolve_device(device)
    cfg = TrainConfig(batch=batch, device=str(dev))
    frames = np.random.default_rng(1).integers(0, 256, (2 * batch, 2, size, size, 3), np.uint8)
    model, channels_last = _model(cfg, dev)
    normalize = FrameNormalizer({"mean": [0.5] * 3, "std": [0.25] * 3}, dev, channels_last)
    source = PairBatches(frames, batch, normalize, generator(torch.device("cpu"), 0, 1))
    engine = _engine(model, source, cfg, dev)
    run_loop(engine, 1, (), lambda done: None)  # warm-up
    steps = 1
    t = timed(lambda: run_loop(engine, steps, (), lambda done: None))
    steps = max(1, min(20, int(TARGET_S / max(t, 1e-6))))
    t = min(timed(lambda: run_loop(engine, steps, (), lambda done: None)) for _ in range(2))
    flat = frames[:, 0]
    enc = timed(lambda: encode(model, flat, normalize)) / len(flat)
    what = f"cnn {size}x{size} batch {batch} on {dev.type}"
    probe_s = time.perf_counter() - t_start
    return ReacherPace(fps, t / steps, enc, probe_s, what, load=load_average())
