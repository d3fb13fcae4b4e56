"""The Ornstein-Uhlenbeck channel that produces positive pairs (SPEC.md section 2)."""

from __future__ import annotations

import math

import torch

from lejepa_id.worlds.laws import LatentLaw


def ou_views(
    z: torch.Tensor,
    rho: float,
    law: LatentLaw,
    n_views: int,
    generator: torch.Generator,
) -> torch.Tensor:
    """Draw ``n_views`` independent OU views z' = rho z + sqrt(1 - rho^2) eta of ``z``.

    The noise eta follows the same latent law as z, so the channel is stationary.

    Shape:
        z: (B, N) -> (n_views, B, N)
    """
    if not 0.0 < rho < 1.0:
        raise ValueError(f"rho={rho!r} must lie in the open interval (0, 1)")
    eta = law.sample((n_views, *z.shape), generator, dtype=z.dtype)
    return rho * z.unsqueeze(0) + math.sqrt(1.0 - rho * rho) * eta
