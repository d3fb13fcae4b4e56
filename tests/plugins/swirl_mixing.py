"""A user's mixing in one file: a swirl, each pair of latents turned by an angle that grows
with the pair's radius (the radius is kept, so the map is inverted by turning back).

``lejepa-id run 2d --run spiral_lejepa --seed 0 --plugin swirl_mixing.py --set mixing=swirl``
trains the paper's 2D run on it.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from lejepa_id.errors import UsageError
from lejepa_id.worlds import register_mixing


class Swirl(nn.Module):
    """(a, b) -> the pair turned by ``turn * |(a, b)|^2`` radians, for each pair of latents."""

    def __init__(self, turn: float) -> None:
        super().__init__()
        self.turn = turn

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        pairs = z.unflatten(-1, (-1, 2))
        a, b = pairs[..., 0], pairs[..., 1]
        angle = self.turn * (a * a + b * b)
        c, s = torch.cos(angle), torch.sin(angle)
        return torch.stack([c * a - s * b, s * a + c * b], dim=-1).flatten(-2)


@register_mixing("swirl")
def swirl(dim: int, obs_dim: int | None = None, **_: Any) -> nn.Module:
    """The world's mixing for ``mixing: swirl``: any even ``dim``, D = n."""
    if dim % 2 or (obs_dim is not None and obs_dim != dim):
        raise UsageError(f"dim={dim!r}: the swirl mixing needs an even dim and D = n")
    return Swirl(turn=0.75)
