"""Frame shards on disk and the worker processes that render them.

A dataset's frames live in ``shards/frames_<k>.npy``, each written to a temporary file and
renamed into place, so a shard either exists whole or not at all and an interrupted render
resumes by skipping the shards that load with the right shape. Workers are spawned
processes with their own OpenGL context; each dies with the render that started it.
"""

from __future__ import annotations

import io
import multiprocessing as mp
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from lejepa_id.records.io import atomic_write_bytes


def save_npy_atomic(path: Path, array: np.ndarray) -> None:
    """Write ``array`` to ``path`` through a temporary file and a rename."""
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    atomic_write_bytes(path, buf.getvalue())


def shard_path(root: Path, k: int) -> Path:
    return root / "shards" / f"frames_{k:05d}.npy"


def shard_ok(path: Path, shape: tuple[int, ...]) -> bool:
    """Whether ``path`` holds a finished uint8 shard of ``shape``."""
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError):
        return False
    return arr.shape == shape and arr.dtype == np.uint8


def pending_shards(
    root: Path, angles: np.ndarray, shard_size: int, views: int, size: int
) -> tuple[int, list[tuple[str, np.ndarray]]]:
    """The number of shards and the (path, angles) of those still to render."""
    n_shards = -(-angles.shape[0] // shard_size)
    todo = []
    for k in range(n_shards):
        chunk = angles[k * shard_size : (k + 1) * shard_size]
        if not shard_ok(shard_path(root, k), (chunk.shape[0], views, size, size, 3)):
            todo.append((str(shard_path(root, k)), chunk))
    return n_shards, todo


_WORKER_RENDERER = None
_PARENT: int | None = None


def _init_worker(size: int, look: str, target: str, parent: int) -> None:
    global _WORKER_RENDERER, _PARENT
    from lejepa_id.reacher.render import ReacherRenderer

    _PARENT = parent
    die_with_parent(parent)
    _WORKER_RENDERER = ReacherRenderer(size, look, target)


def die_with_parent(parent: int) -> None:
    """Make this worker die when the render that started it dies, even by SIGKILL.

    On Linux the kernel sends SIGKILL to this process when its parent exits
    (prctl PR_SET_PDEATHSIG); a parent that died before the call is caught by the pid
    check. Elsewhere :func:`_render_shard` checks the parent before every shard.
    """
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)


def _render_shard(task: tuple[str, np.ndarray]) -> int:
    path, angles = task
    if _PARENT is not None and os.getppid() != _PARENT:
        os._exit(1)  # orphaned: the render was killed; its rerun renders this shard
    assert _WORKER_RENDERER is not None, "the pool initializer builds the renderer"
    save_npy_atomic(Path(path), _WORKER_RENDERER.render_batch(angles))
    return angles.shape[0]


def render_shards(todo: list[tuple[str, np.ndarray]], renderer, workers: int, on_done) -> None:
    """Render every (path, angles) shard of ``todo``; ``on_done(items)`` after each.

    One worker (or one shard) renders with ``renderer`` in this process; otherwise
    ``renderer`` is closed and ``workers`` spawned processes share the shards.
    """
    if workers == 1 or len(todo) <= 1:
        for path, chunk in todo:
            save_npy_atomic(Path(path), renderer.render_batch(chunk))
            on_done(chunk.shape[0])
        renderer.close()
        return
    renderer.close()
    # spawn, not fork: a forked child would share the parent's GL state. An executor, not
    # mp.Pool: a worker whose initializer fails breaks the pool (BrokenProcessPool)
    # instead of being respawned forever.
    with ProcessPoolExecutor(
        min(workers, len(todo)),
        mp_context=mp.get_context("spawn"),
        initializer=_init_worker,
        initargs=(renderer.size, renderer.look, renderer.target, os.getpid()),
    ) as pool:
        for m in pool.map(_render_shard, todo):
            on_done(m)


def channel_stats(root: Path, n_shards: int) -> dict:
    """Per-channel mean and std of all frames, in [0, 1] intensity units (float64 sums)."""
    s = np.zeros(3)
    s2 = np.zeros(3)
    count = 0
    for k in range(n_shards):
        x = np.load(shard_path(root, k), allow_pickle=False).reshape(-1, 3).astype(np.float64)
        x /= 255.0
        s += x.sum(0)
        s2 += (x * x).sum(0)
        count += x.shape[0]
    mean = s / count
    std = np.sqrt(np.maximum(s2 / count - mean**2, 1e-12))
    return {"mean": mean.tolist(), "std": std.tolist()}
