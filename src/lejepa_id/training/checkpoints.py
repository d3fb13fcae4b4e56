"""Checkpoints of a training group: how often (``LEJEPA_ID_CHECKPOINT_EVERY``), and the
file that holds the group's state, written atomically and read back only when it holds
the same runs."""

from __future__ import annotations

import io
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import torch

from lejepa_id.errors import UsageError
from lejepa_id.records.io import atomic_write_bytes
from lejepa_id.training.streams import CHUNK

CHECKPOINT_DIR = ".checkpoints"
CHECKPOINT_VAR = "LEJEPA_ID_CHECKPOINT_EVERY"
CHECKPOINT_EVERY = 1000
"""Steps between two checkpoints of a run that has a checkpoint file (rounded up to a
multiple of CHUNK, so a checkpoint never holds a half-used chunk of data)."""


def checkpoint_interval(env: Mapping[str, str] | None = None) -> int:
    """Steps between checkpoints, from ``LEJEPA_ID_CHECKPOINT_EVERY`` (0: never)."""
    raw = (os.environ if env is None else env).get(CHECKPOINT_VAR, str(CHECKPOINT_EVERY))
    try:
        every = int(raw)
    except ValueError:
        every = -1
    if every < 0 or raw.strip() != str(every):
        raise UsageError(f"{CHECKPOINT_VAR}={raw!r} must be a whole number of steps >= 0")
    return -(-every // CHUNK) * CHUNK


class Checkpoint:
    """One group's checkpoint file: saved atomically every ``every`` steps (0: never),
    read back only if it holds the same configs and names."""

    def __init__(self, path: Path, every: int) -> None:
        self.path, self.every = path, every

    def due(self, done: int, steps: int) -> bool:
        return self.every > 0 and done % self.every == 0 and done < steps

    def save(self, state: dict) -> None:
        buffer = io.BytesIO()
        torch.save(state, buffer)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path, buffer.getvalue())

    def load(self, cfgs: Sequence[Any], names: Sequence[str]) -> dict | None:
        """The saved state when it is of these runs (configs as ``to_dict()``), else None."""
        if not self.path.is_file():
            return None
        try:
            state = torch.load(self.path, map_location="cpu", weights_only=True)
        except Exception:  # noqa: BLE001 - an unreadable checkpoint means: start again
            return None
        if not isinstance(state, dict):
            return None
        same = state.get("configs") == [c.to_dict() for c in cfgs]
        return state if same and state.get("names") == list(names) else None

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)
