"""Checkpoints of a training group: how often (``LEJEPA_ID_CHECKPOINT_EVERY``), and the
file that holds the group's state, written atomically and read back only when it holds
the same runs."""

from __future__ import annotations

import io
import os
import sys
import time
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
        """The saved state when it is a sound checkpoint of these runs (configs as
        ``to_dict()``, names, every key, a step inside the schedule), else None.

        A file in the place of the checkpoint that is not one (unreadable, truncated, a
        folder, a hand edit, another config's) is moved aside with a one-line warning,
        so the run trains from the start and the next save is not blocked by it. The
        temporary files of a save that was killed are removed first."""
        for stale in self.path.parent.glob(f".{self.path.name}.*.tmp"):
            stale.unlink(missing_ok=True)
        if not self.path.exists() and not self.path.is_symlink():
            return None
        state, unread = _read(self.path)
        problem = unread if state is None else _state_problem(state, cfgs, names)
        if problem is None:
            return state
        aside = self.reject()
        print(
            f"warning: checkpoint {self.path} {problem}; moved to {aside.name}, "
            "training from step 0",
            file=sys.stderr,
        )
        return None

    def reject(self) -> Path:
        """Move the checkpoint aside (kept for a look, never read again); its new path."""
        aside = self.path.with_name(f"{self.path.name}.rejected-{time.strftime('%Y%m%dT%H%M%S')}")
        os.replace(self.path, aside)
        return aside

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)


# What Trainer.state_dict writes; a checkpoint lacking any of them is not restored.
STATE_KEYS = (
    "format", "configs", "names", "done", "elapsed_s", "encoder", "module", "engine",
    "data_generators", "draw_generators", "curves", "recent_loss", "recent_count",
    "last_loss", "last_terms", "last_rows",
)  # fmt: skip
FORMAT = 1


def _read(path: Path) -> tuple[dict | None, str]:
    if not path.is_file():
        return None, "is not a file"
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is moved aside
        return None, f"is unreadable ({type(exc).__name__}; truncated or not a checkpoint)"
    if not isinstance(state, dict):
        return None, f"holds a {type(state).__name__}, not a checkpoint"
    return state, ""


def _state_problem(state: dict, cfgs: Sequence[Any], names: Sequence[str]) -> str | None:
    missing = [k for k in STATE_KEYS if k not in state]
    if missing:
        return f"lacks {', '.join(missing)}"
    if state["format"] != FORMAT:
        return f"has format {state['format']!r}, not {FORMAT}"
    if state["names"] != list(names) or state["configs"] != [c.to_dict() for c in cfgs]:
        return "is of other runs or another config"
    done, steps = state["done"], cfgs[0].steps
    if type(done) is not int or not 0 < done < steps or done % CHUNK:
        return (
            f"is at step {done!r}, not a multiple of {CHUNK} inside the schedule (1 to {steps - 1})"
        )
    return None
