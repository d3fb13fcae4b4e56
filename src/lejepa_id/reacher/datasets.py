"""Reacher frame datasets on disk: eval gallery, OU pairs, controller-trajectory pairs.

Layout of a dataset directory:

```text
dataset.json            identity, status ("complete": true only when finished),
                        per-channel mean/std of the frames, diagnostics
angles.npy              (n, V, 2) float64 joint angles (V = 1 for eval, 2 for pairs)
shards/frames_00000.npy (m, V, S, S, 3) uint8 frames of items [k m, (k + 1) m)
```

The angles are drawn and saved before any frame is rendered, and each shard is written
to a temporary file and renamed into place, so an interrupted render resumes by skipping
the shards that exist. ``dataset.json`` is marked complete only after every shard exists
and the normalization statistics are computed.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lejepa_id.errors import UsageError
from lejepa_id.reacher.shards import (
    channel_stats,
    pending_shards,
    render_shards,
    save_npy_atomic,
    shard_path,
)
from lejepa_id.records.io import atomic_write_json

KINDS = ("eval", "ou", "traj", "trajmatch")
TRAJ_KINDS = ("traj", "trajmatch")
# The controller's goal law per trajectory kind: trajmatch is the coverage-matched control.
GOALS = {"traj": "circle", "trajmatch": "gaussian"}
_KIND_STREAM = {"eval": 1, "ou": 2, "traj": 3}  # keeps equal seeds of different kinds apart
FORMAT_VERSION = 1
# Most frames or pairs of one dataset: 10^8 64 x 64 frames are 1.2 TB; more is a typo.
MAX_ITEMS = 100_000_000


@dataclass
class RenderSpec:
    """What to render: the identity of a dataset (a resumed render must match it)."""

    kind: str
    """eval (Gaussian angles, one frame each), ou (OU pairs), traj (controller pairs) or
    trajmatch (controller pairs with the OU data's angle range)."""
    n: int
    """Number of items: frames for eval, pairs for ou and traj."""
    size: int = 64
    """Frame side in pixels."""
    look: str = "paper"
    """paper (MuJoCo defaults, the paper's images) or fast (no shadows/reflections/MSAA)."""
    target: str = "big"
    """big (radius 0.05, the published frames) or small (0.015, after env.reset())."""
    seed: int = 0
    """Seed of the angle sampler (eval, ou) or of the controller's episodes (traj)."""
    rho: float = 0.95
    """OU channel correlation (ou only)."""
    delta: int = 16
    """Lag in control steps between the two frames of a pair (traj only)."""
    stride: int = 4
    """Steps between consecutive pair start times within an episode (traj only)."""
    episode_steps: int = 1000
    """Control steps per controller episode (traj only)."""
    shard_size: int = 1000
    """Items per shard file."""

    def validate(self) -> None:
        if self.kind not in KINDS:
            raise UsageError(f"kind={self.kind!r} is not one of {', '.join(KINDS)}")
        if not 1 <= self.n <= MAX_ITEMS:
            raise UsageError(f"--n={self.n} must lie in 1 to {MAX_ITEMS:,}")
        if not 1 <= self.shard_size <= MAX_ITEMS:
            raise UsageError(f"--shard-size={self.shard_size} must lie in 1 to {MAX_ITEMS:,}")
        if not 8 <= self.size <= 512:
            raise UsageError(f"--size={self.size} must be between 8 and 512 pixels")
        if not 0.0 < self.rho < 1.0:
            raise UsageError(f"--rho={self.rho} must lie strictly between 0 and 1")
        from lejepa_id.reacher.render import TARGETS

        if self.target not in TARGETS:
            raise UsageError(f"--target={self.target!r} is not one of {', '.join(TARGETS)}")
        if self.kind in TRAJ_KINDS and not (
            self.delta >= 1 and self.stride >= 1 and self.delta < self.episode_steps <= 10**7
        ):
            raise UsageError(
                f"--delta={self.delta}, --stride={self.stride}, --episode-steps="
                f"{self.episode_steps}: need delta, stride >= 1 and delta < episode-steps <= 10^7"
            )

    def identity(self) -> dict:
        keys = ["kind", "n", "size", "look", "target", "seed", "shard_size"]
        if self.kind == "ou":
            keys.append("rho")
        if self.kind in TRAJ_KINDS:
            keys += ["delta", "stride", "episode_steps"]
        return {k: getattr(self, k) for k in keys}

    @property
    def views(self) -> int:
        return 1 if self.kind == "eval" else 2


def sample_angles(spec: RenderSpec) -> np.ndarray:
    """The dataset's joint angles. Shape: -> (n, V, 2)."""
    if spec.kind in TRAJ_KINDS:
        from lejepa_id.reacher.controller import trajectory_pairs

        cfg = controller_config(spec.kind)
        return trajectory_pairs(spec.n, spec.delta, spec.seed, spec.episode_steps, spec.stride, cfg)
    rng = np.random.default_rng([spec.seed, _KIND_STREAM[spec.kind]])
    z = rng.standard_normal((spec.n, 2))
    if spec.kind == "eval":
        return z[:, None, :]
    z2 = spec.rho * z + np.sqrt(1.0 - spec.rho**2) * rng.standard_normal((spec.n, 2))
    return np.stack([z, z2], axis=1)


def controller_config(kind: str):
    """The reaching controller of a trajectory kind."""
    from lejepa_id.reacher.controller import ControllerConfig

    return ControllerConfig(goals=GOALS[kind])


def read_meta(root: Path, complete: bool = False) -> dict:
    """dataset.json of ``root``, checked for the keys this module reads.

    A garbage, truncated or hand-edited file is a one-line UsageError naming it, never a
    traceback. ``complete``: also check what a finished dataset holds.
    """
    from lejepa_id.records.io import read_json_mapping

    path = root / "dataset.json"
    meta = read_json_mapping(path, "dataset metadata")
    ident = meta.get("identity")
    problem = None
    if not isinstance(ident, dict) or ident.get("kind") not in KINDS:
        problem = f"'identity' must name a kind ({', '.join(KINDS)})"
    elif not all(isinstance(ident.get(k), int) for k in ("n", "size")):
        problem = "'identity' must give integer n and size"
    elif complete and not isinstance(meta.get("n_shards"), int):
        problem = "'n_shards' must be an integer"
    elif complete and not _norm_ok(meta.get("norm")):
        problem = "'norm' must give 3 channel means and stds"
    if problem:
        raise UsageError(f"dataset metadata {str(path)!r} is malformed: {problem}; re-render it")
    return meta


def _norm_ok(norm: object) -> bool:
    if not isinstance(norm, dict):
        return False
    parts = [norm.get("mean"), norm.get("std")]
    return all(isinstance(v, list) and len(v) == 3 for v in parts)


def _load_npy(path: Path, root: Path) -> np.ndarray:
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UsageError(
            f"{root}: {path.name} is unreadable ({reason}); rerun the render command"
        ) from None


def _progress(total: int, done: int, desc: str, show: bool = True):
    from tqdm import tqdm

    return tqdm(
        total=total, initial=done, desc=desc, unit="frame", file=sys.stderr, disable=not show
    )


def render_dataset(
    spec: RenderSpec, out: str | os.PathLike, workers: int = 0, progress: bool = True
) -> dict:
    """Render (or finish rendering) a dataset into ``out`` and return its metadata.

    ``workers`` render processes (0: one per CPU core); 1 renders in this process.
    ``progress``: show the render bar (``paper --no-progress`` hides it).
    Raises UsageError when ``out`` holds a different dataset or OpenGL is unusable; in
    both cases nothing has been written.
    """
    from lejepa_id.reacher.render import ReacherRenderer

    spec.validate()
    root = Path(out)
    meta = _existing_meta(root, spec.identity())
    if meta is not None and meta.get("complete"):
        return meta
    # Open the GL context before writing anything: a missing backend leaves no debris.
    renderer = ReacherRenderer(spec.size, spec.look, spec.target)
    t0 = time.perf_counter()
    angles = _planned_angles(root, spec, resume=meta is not None)
    (root / "shards").mkdir(parents=True, exist_ok=True)
    n_shards, todo = pending_shards(root, angles, spec.shard_size, spec.views, spec.size)
    total = spec.n * spec.views
    done = total - sum(c.shape[0] * spec.views for _, c in todo)
    with _progress(total, done, f"render {spec.kind}", progress) as bar:
        render_shards(
            todo, renderer, workers or os.cpu_count() or 1, lambda m: bar.update(m * spec.views)
        )
    meta = {
        "format": FORMAT_VERSION,
        "identity": spec.identity(),
        "complete": True,
        "n_shards": n_shards,
        "views": spec.views,
        "frames": total,
        "norm": channel_stats(root, n_shards),
        "render_seconds_this_call": time.perf_counter() - t0,
        "frames_rendered_this_call": total - done,
        "mujoco_gl": os.environ.get("MUJOCO_GL"),
        "versions": _versions(),
        **_angle_reports(spec, angles),
    }
    atomic_write_json(root / "dataset.json", meta)
    return meta


def _existing_meta(root: Path, ident: dict) -> dict | None:
    """The metadata of the same dataset already begun in ``root``, or None for a new one.

    Refuses a file, an unwritable path, a different dataset and a foreign directory.
    """
    from lejepa_id.records.layout import check_creatable

    if root.exists() and not root.is_dir():
        raise UsageError(f"--out {str(root)!r} is a file; choose a directory")
    check_creatable(root)
    if (root / "dataset.json").exists():
        meta = read_meta(root)
        if meta.get("identity") != ident:
            raise UsageError(
                f"{root} already holds a different dataset ({meta.get('identity')}); "
                f"choose another --out or delete it"
            )
        return meta
    if root.exists() and any(root.iterdir()):
        raise UsageError(f"--out {root} exists and is not a reacher dataset; choose another")
    return None


def _planned_angles(root: Path, spec: RenderSpec, resume: bool) -> np.ndarray:
    """The dataset's angles: read back when resuming, else drawn and saved first."""
    angles_path = root / "angles.npy"
    if resume and angles_path.exists():
        return _load_npy(angles_path, root)
    angles = sample_angles(spec)
    # The plan goes first: a crash before angles.npy exists still leaves a resumable
    # directory, and the angles are redrawn identically from the seed.
    atomic_write_json(
        root / "dataset.json",
        {"format": FORMAT_VERSION, "identity": spec.identity(), "complete": False},
    )
    save_npy_atomic(angles_path, angles)
    return angles


def _angle_reports(spec: RenderSpec, angles: np.ndarray) -> dict:
    """Coverage of every dataset, pair diagnostics and the controller of the pair kinds."""
    from lejepa_id.reacher.controller import angle_coverage, controller_dict, pair_diagnostics

    out: dict[str, Any] = {"coverage": angle_coverage(angles)}
    if spec.kind != "eval":
        out["diagnostics"] = pair_diagnostics(angles)
    if spec.kind in TRAJ_KINDS:
        out["controller"] = controller_dict(controller_config(spec.kind))
    return out


def _versions() -> dict:
    import importlib.metadata as md

    out: dict[str, str | None] = {}
    for pkg in ("mujoco", "dm-control", "numpy"):
        try:
            out[pkg] = md.version(pkg)
        except md.PackageNotFoundError:
            out[pkg] = None
    return out


@dataclass
class FrameData:
    """A loaded dataset: frames, angles and metadata.

    Shapes: frames (n, V, S, S, 3) uint8, angles (n, V, 2) float64.
    """

    frames: np.ndarray
    angles: np.ndarray
    meta: dict
    path: Path

    @property
    def kind(self) -> str:
        return self.meta["identity"]["kind"]

    @property
    def size(self) -> int:
        return int(self.meta["identity"]["size"])

    @property
    def look(self) -> tuple[str, str]:
        """(look, target); datasets from before the target option have the small target."""
        ident = self.meta["identity"]
        return ident["look"], ident.get("target", "small")


def load_dataset(path: str | os.PathLike, expect_kind: str | None = None) -> FrameData:
    """Load a complete dataset; a missing, partial or wrong-kind one raises UsageError."""
    root = Path(path)
    meta_path = root / "dataset.json"
    if not meta_path.is_file():
        raise UsageError(
            f"{root} is not a reacher dataset (no dataset.json): "
            f"create it with `lejepa-id reacher render`"
        )
    meta = read_meta(root)
    ident = meta["identity"]
    if not meta.get("complete"):
        raise UsageError(
            f"{root} is a partial dataset: rerun the same `lejepa-id reacher render` "
            f"command to finish it"
        )
    read_meta(root, complete=True)
    if expect_kind == "pairs" and ident.get("kind") == "eval":
        raise UsageError(f"{root} is an eval gallery; training needs an ou or traj dataset")
    if expect_kind == "eval" and ident.get("kind") != "eval":
        raise UsageError(f"{root} holds {ident.get('kind')} pairs; --eval needs an eval dataset")
    shards = []
    for k in range(int(meta["n_shards"])):
        p = shard_path(root, k)
        if not p.is_file():
            raise UsageError(f"{root} is missing shard {p.name}: rerun the render command")
        shards.append(_load_npy(p, root))
    angles = _load_npy(root / "angles.npy", root)
    views = 1 if ident["kind"] == "eval" else 2
    shape = (views, ident["size"], ident["size"], 3)
    if any(s.dtype != np.uint8 or s.shape[1:] != shape for s in shards) or not shards:
        raise UsageError(f"{root}: a shard does not hold uint8 frames of shape {shape}")
    frames = np.concatenate(shards)
    if angles.shape[1:] != (views, 2) or frames.shape[0] != angles.shape[0]:
        raise UsageError(f"{root} has {frames.shape[0]} frames for angles of shape {angles.shape}")
    if frames.shape[0] != int(ident["n"]):
        raise UsageError(f"{root} has {frames.shape[0]} frames for {angles.shape[0]} angles")
    return FrameData(frames, angles, meta, root)


def check_same_size(train: FrameData, gallery: FrameData) -> None:
    """Training and evaluation frames must share one resolution, look and target."""
    if train.size != gallery.size:
        raise UsageError(
            f"image sizes differ: {train.path} has {train.size}x{train.size} frames, "
            f"{gallery.path} has {gallery.size}x{gallery.size}; render both with the same --size"
        )
    if train.look != gallery.look:
        raise UsageError(
            f"looks differ: {train.path} has (look, target) {train.look}, {gallery.path} "
            f"has {gallery.look}; render both with the same --look and --target"
        )


def check_shards(path: str | os.PathLike, meta: dict) -> None:
    """Every frame shard of a complete dataset is a uint8 ``.npy`` array of the dataset's
    frame shape, together holding its n frames: read from the files' headers only (a
    memory map), so a sweep refuses a pickle or a truncated shard before any worker
    trains, not in each run's error.json."""
    root = Path(path)
    ident = meta["identity"]
    views = 1 if ident["kind"] == "eval" else 2
    shape = (views, ident["size"], ident["size"], 3)
    total = 0
    for k in range(int(meta["n_shards"])):
        shard = shard_path(root, k)
        if not shard.is_file():
            raise UsageError(f"{root} is missing shard {shard.name}: rerun the render command")
        try:
            frames = np.load(shard, mmap_mode="r", allow_pickle=False)
        except (OSError, ValueError, EOFError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise UsageError(
                f"{root}: {shard.name} is not a frame shard ({reason}); rerun the render command"
            ) from None
        if frames.dtype != np.uint8 or frames.shape[1:] != shape:
            raise UsageError(
                f"{root}: {shard.name} holds {frames.dtype} of shape {frames.shape}, not uint8 "
                f"frames of shape (n, {', '.join(map(str, shape))}); rerun the render command"
            )
        total += frames.shape[0]
    if total != int(ident["n"]):
        raise UsageError(f"{root} has {total} frames in its shards for n = {ident['n']}")


def load_angles(path: str | os.PathLike) -> tuple[np.ndarray, dict]:
    """Angles and metadata of a complete dataset without reading its frames.

    Shape: -> (n, V, 2), meta
    """
    root = Path(path)
    meta_path = root / "dataset.json"
    if not meta_path.is_file():
        raise UsageError(f"{root} is not a reacher dataset (no dataset.json)")
    if not read_meta(root).get("complete"):
        raise UsageError(f"{root} is a partial dataset: rerun its render command to finish it")
    meta = read_meta(root, complete=True)
    angles = _load_npy(root / "angles.npy", root)
    views = 1 if meta["identity"]["kind"] == "eval" else 2
    if angles.ndim != 3 or angles.shape[1:] != (views, 2):
        raise UsageError(f"{root}: angles.npy has shape {angles.shape}, not (n, {views}, 2)")
    return angles, meta
