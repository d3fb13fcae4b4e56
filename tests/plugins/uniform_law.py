"""A user's latent law in one file: uniform coordinates on [-sqrt(3), sqrt(3)] (zero mean,
unit variance, like every latent law).

``lejepa-id run 2d --run spiral_lejepa --seed 0 --plugin uniform_law.py --set law=uniform``
trains the paper's 2D run on uniform latents.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from lejepa_id.worlds import register_law


@register_law("uniform")
def uniform(shape: tuple[int, ...], generator: torch.Generator, dtype: torch.dtype, **_: Any):
    """``shape`` i.i.d. draws, from ``generator`` and on its device."""
    u = torch.rand(shape, generator=generator, device=generator.device, dtype=dtype)
    return math.sqrt(3.0) * (2.0 * u - 1.0)
