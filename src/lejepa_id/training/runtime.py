"""Helpers every training loop shares: seeds, the device, the learning-rate schedule.

The synthetic engine and the Reacher pixel runs both draw their randomness from
:func:`generator` with fixed purposes, resolve ``device`` the same way and decay the
learning rate with :func:`lr_factor`, so a seed means the same thing everywhere.
"""

from __future__ import annotations

import math
import platform

import numpy as np
import torch

from lejepa_id.errors import UsageError


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers (run seed, purpose, index), stable across platforms."""
    state = np.random.SeedSequence([int(p) % 2**63 for p in parts]).generate_state(2)
    return int(state[0]) << 31 ^ int(state[1])


def generator(device: torch.device, *parts: int) -> torch.Generator:
    """A generator on ``device`` seeded with :func:`derive_seed` of ``parts``."""
    return torch.Generator(device=device).manual_seed(derive_seed(*parts))


def check_device(name: str) -> str:
    """Refuse a device name other than auto, cpu or cuda[:N] (without looking for a GPU)."""
    if name not in ("auto", "cpu") and not name.startswith("cuda"):
        raise UsageError(f"device={name!r} is not one of auto, cpu, cuda")
    return name


def resolve_device(name: str) -> torch.device:
    """``auto`` picks CUDA when present; asking for CUDA without one is a usage error."""
    if check_device(name) == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise UsageError(f"device={name!r} but no CUDA device is available; use cpu or auto")
    return torch.device(name)


def lr_factor(step: int, steps: int, hold: int | None = None) -> float:
    """Constant for the first ``hold`` steps (default: half of them), then cosine to 0.

    The default is the synthetic runs' schedule (docs/model.md, section 6); ``hold = 0`` is a
    plain cosine over the whole run, the Reacher runs' schedule (section 8).
    """
    start = steps // 2 if hold is None else hold
    step = min(step, steps)
    if step < start:
        return 1.0
    return 0.5 * (1.0 + math.cos(math.pi * (step - start) / max(steps - start, 1)))


def software_versions() -> dict[str, str]:
    """Versions that a result depends on, recorded with every run."""
    import lejepa_id

    return {
        "lejepa_id": lejepa_id.__version__,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "numba": _numba_version(),
        "cuda": str(torch.version.cuda),
    }


def _numba_version() -> str:
    try:
        import numba
    except ImportError:
        return "absent"
    return numba.__version__
