"""Headless rendering of the DeepMind Control Suite Reacher (docs/model.md, section 8).

The two joint angles are the latents: a frame is a pure function of (shoulder, wrist)
because the target is pinned at (0.1, 0.1) and velocities are zero. Rendering goes through
MuJoCo's offscreen OpenGL context, chosen by the ``MUJOCO_GL`` environment variable:
``egl`` (GPU drivers, or Mesa llvmpipe on a CPU-only machine) or ``osmesa``.

This module does not import torch, so spawned render workers start quickly.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from lejepa_id.errors import UsageError

LOOKS = ("paper", "fast")
# Target sphere radius: "big" is reacher.xml's default (0.05), which the published renderer
# keeps because it never calls env.reset(); "small" is the hard task's size (0.015), set by
# env.reset(). The big target covers the arm where they overlap.
TARGETS = {"big": 0.05, "small": 0.015}
TARGET_XY = (0.1, 0.1)
CAMERA_ID = 0
CAMERA_HEIGHT = 0.75  # camera "fixed" of reacher.xml: pos="0 0 .75", looking down
CAMERA_FOVY = 45.0  # MuJoCo's default vertical field of view, in degrees
GL_HELP = (
    "install libegl1 libegl-mesa0 libgl1-mesa-dri libopengl0 and set MUJOCO_GL=egl, "
    "or install libosmesa6 and set MUJOCO_GL=osmesa"
)
PIP_HELP = "pip install 'mujoco==3.17.0' 'dm-control==1.0.50' (the [reacher] extra)"


def _default_backend() -> None:
    # dm_control reads MUJOCO_GL once, at import; egl works both on GPUs and on CPUs
    # through Mesa's llvmpipe, so it is the headless default.
    os.environ.setdefault("MUJOCO_GL", "egl")


def load_physics(target: str = "big"):
    """The reacher-hard physics with the target pinned at TARGET_XY. Needs no OpenGL.

    ``target="big"`` never calls ``env.reset()``, as the published renderer, so the target
    keeps the model's default radius 0.05; ``"small"`` calls it once, which sets the hard
    task's radius 0.015. Contacts are disabled in the model, so the dynamics do not depend
    on the choice.
    """
    if target not in TARGETS:
        raise UsageError(f"target={target!r} is not one of {', '.join(TARGETS)}")
    _default_backend()
    try:
        from dm_control import suite
    except ImportError as exc:
        raise UsageError(f"dm_control is not installed ({exc}): {PIP_HELP}") from exc
    except Exception as exc:  # dm_control validates MUJOCO_GL at import time
        raise UsageError(
            f"MuJoCo rendering backend MUJOCO_GL={os.environ.get('MUJOCO_GL')!r} is unusable "
            f"({str(exc).splitlines()[0] if str(exc) else type(exc).__name__}): {GL_HELP}"
        ) from exc
    env = suite.load("reacher", "hard", task_kwargs={"random": 0})
    if target == "small":
        env.reset()
    physics = env.physics
    physics.named.model.geom_pos["target", "x"] = TARGET_XY[0]
    physics.named.model.geom_pos["target", "y"] = TARGET_XY[1]
    return physics


def set_angles(physics, q: np.ndarray) -> None:
    """Put the arm at joint angles q = (shoulder, wrist) with zero velocity."""
    with physics.reset_context():  # runs mj_forward on exit, so kinematics are current
        physics.data.qpos[:] = q
        physics.data.qvel[:] = 0.0


@dataclass
class ReacherRenderer:
    """Renders (size, size, 3) uint8 frames of given joint angles from camera 0.

    ``look='paper'`` keeps MuJoCo's defaults (shadows, reflections, 4x multisampling),
    which reproduce the paper's images at ~70-100 frames/s per CPU process; ``'fast'``
    turns those three off (~500-1500 frames/s) and gives darker, flatter images.
    ``target='big'`` (radius 0.05) is the published frames' target, ``'small'`` (0.015)
    the hard task's after ``env.reset()``; the paper's frames are look paper, target big.
    """

    size: int = 64
    look: str = "paper"
    target: str = "big"

    def __post_init__(self) -> None:
        if self.look not in LOOKS:
            raise UsageError(f"look={self.look!r} is not one of {', '.join(LOOKS)}")
        if not 8 <= self.size <= 512:
            raise UsageError(f"size={self.size!r} must be between 8 and 512 pixels")
        self.physics = load_physics(self.target)
        if self.look == "fast":
            # Multisampling is fixed when the offscreen buffer is created: set it first.
            self.physics.model.vis.quality.offsamples = 0
        self._flags = {"shadow": False, "reflection": False} if self.look == "fast" else None
        try:
            from dm_control.mujoco.engine import Camera

            self.camera = Camera(self.physics, self.size, self.size, camera_id=CAMERA_ID)
            self.render(np.zeros(2))  # opens the GL context now, so failures surface here
        except UsageError:
            raise
        except Exception as exc:
            msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise UsageError(
                f"cannot open an OpenGL context with MUJOCO_GL="
                f"{os.environ.get('MUJOCO_GL')!r} ({msg}): {GL_HELP}"
            ) from exc

    def render(self, q: np.ndarray) -> np.ndarray:
        """One frame. Shape: q (2,) -> (size, size, 3) uint8."""
        set_angles(self.physics, np.asarray(q, dtype=np.float64))
        self.camera.update()
        # dm_control returns a flipped view of its reused buffer: copy, or the next
        # render would overwrite this frame.
        return self.camera.render(render_flag_overrides=self._flags).copy()

    def render_batch(self, q: np.ndarray) -> np.ndarray:
        """Frames of many angle vectors. Shape: (..., 2) -> (..., size, size, 3) uint8."""
        q = np.asarray(q, dtype=np.float64)
        flat = q.reshape(-1, 2)
        out = np.empty((flat.shape[0], self.size, self.size, 3), dtype=np.uint8)
        for i, qi in enumerate(flat):
            out[i] = self.render(qi)
        return out.reshape(*q.shape[:-1], self.size, self.size, 3)

    def close(self) -> None:
        """Free the GL context now; left to interpreter exit, osmesa prints tracebacks."""
        self.camera = None
        self.physics.free()


def world_to_pixel(xy: np.ndarray, size: int, z: float = 0.01) -> np.ndarray:
    """Project points of height z into camera 0's image (for annotations; no OpenGL).

    Camera 0 ("fixed") looks straight down from CAMERA_HEIGHT with vertical field of
    view CAMERA_FOVY (reacher.xml; a test checks both against the loaded model); image
    rows grow towards -y. Shape: (..., 2) -> (..., 2) as (column, row) in pixels.
    """
    focal = (size / 2) / np.tan(np.deg2rad(CAMERA_FOVY) / 2)
    xy = np.asarray(xy, dtype=np.float64)
    depth = CAMERA_HEIGHT - z
    col = size / 2 + focal * xy[..., 0] / depth
    row = size / 2 - focal * xy[..., 1] / depth
    return np.stack([col, row], axis=-1)


def arm_points(q: np.ndarray) -> np.ndarray:
    """Table-plane positions of shoulder, wrist and fingertip for angles q.

    Link lengths 0.12 and 0.12 are those of the reacher model. Shape: (2,) -> (3, 2).
    """
    s, w = float(q[0]), float(q[1])
    elbow = 0.12 * np.array([np.cos(s), np.sin(s)])
    tip = elbow + 0.12 * np.array([np.cos(s + w), np.sin(s + w)])
    return np.stack([np.zeros(2), elbow, tip])
