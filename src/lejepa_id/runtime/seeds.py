"""Seeds: one integer per purpose, derived from a run's seed, the same on every platform.

The synthetic engine and the Reacher pixel runs draw their randomness from
:func:`generator` with fixed purposes, so a seed means the same thing everywhere.
"""

from __future__ import annotations

import numpy as np
import torch


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers (run seed, purpose, index), stable across platforms."""
    state = np.random.SeedSequence([int(p) % 2**63 for p in parts]).generate_state(2)
    return int(state[0]) << 31 ^ int(state[1])


def generator(device: torch.device, *parts: int) -> torch.Generator:
    """A generator on ``device`` seeded with :func:`derive_seed` of ``parts``."""
    return torch.Generator(device=device).manual_seed(derive_seed(*parts))
