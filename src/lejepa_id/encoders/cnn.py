"""The Reacher experiment's pixel encoder: a small convolutional network (one run; the
synthetic encoders, stacked over runs, are :mod:`lejepa_id.encoders.stacked`)."""

from __future__ import annotations

import math

import torch
from torch import nn

from lejepa_id.encoders.stacked import seeded_generator


class CNNEncoder(nn.Module):
    """Pixels (3 x 64 x 64) -> code_dim codes.

    Four Conv(k=4, s=2, p=1) layers with 32, 64, 128, 256 channels, each followed by
    BatchNorm and GELU; 4 x 4 average pool; Linear(256, 256), BatchNorm1d, GELU;
    Linear(256, code_dim).

    Shape:
        (B, 3, 64, 64) -> (B, code_dim)
    """

    def __init__(self, code_dim: int = 2, in_channels: int = 3, seed: int = 0) -> None:
        super().__init__()
        blocks: list[nn.Module] = []
        channels = [in_channels, 32, 64, 128, 256]
        for c_in, c_out in zip(channels[:-1], channels[1:]):
            blocks += [nn.Conv2d(c_in, c_out, 4, 2, 1), nn.BatchNorm2d(c_out), nn.GELU()]
        self.features = nn.Sequential(*blocks, nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Sequential(
            nn.Linear(256, 256), nn.BatchNorm1d(256), nn.GELU(), nn.Linear(256, code_dim)
        )
        self._reset(seed)

    @torch.no_grad()
    def _reset(self, seed: int) -> None:
        # Re-draw every parameter from the run's own generator, with torch's default
        # schemes, so the initialization depends on the seed alone.
        gen = seeded_generator(seed)
        for m in self.modules():
            if isinstance(m, nn.Conv2d | nn.Linear):
                fan_in = m.weight[0].numel()
                bound = 1.0 / math.sqrt(fan_in)
                m.weight.copy_((torch.rand(m.weight.shape, generator=gen) * 2 - 1) * bound)
                if m.bias is not None:
                    m.bias.copy_((torch.rand(m.bias.shape, generator=gen) * 2 - 1) * bound)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))
