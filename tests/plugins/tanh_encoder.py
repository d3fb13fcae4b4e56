"""A user's encoder in one file: one tanh layer and a linear read-out, stacked over runs,
with a config key of its own (``width``, in its namespace: ``tanh1.width``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import nn

from lejepa_id.encoders import register_encoder


class StackedTanh(nn.Module):
    """h = tanh(x W1 + b1) W2 for R runs at once. Shape: (R, ..., D) -> (R, ..., m)."""

    def __init__(self, obs_dim: int, code_dim: int, seeds: Sequence[int], width: int) -> None:
        super().__init__()
        w1, w2 = [], []
        for seed in seeds:  # each run draws its weights from its own seed
            g = torch.Generator().manual_seed(int(seed) % 2**63)
            w1.append(torch.randn(obs_dim, width, generator=g) / obs_dim**0.5)
            w2.append(torch.randn(width, code_dim, generator=g) / width**0.5)
        self.w1 = nn.Parameter(torch.stack(w1))
        self.b1 = nn.Parameter(torch.zeros(len(seeds), 1, width))
        self.w2 = nn.Parameter(torch.stack(w2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        R = x.shape[0]
        flat = x.reshape(R, -1, x.shape[-1])
        h = torch.tanh(flat @ self.w1 + self.b1) @ self.w2
        return h.reshape(*x.shape[:-1], h.shape[-1])


@dataclass(frozen=True)
class Tanh1Keys:
    width: int = 16
    """Units of the tanh layer."""


@register_encoder("tanh1", keys=Tanh1Keys)
def tanh1(obs_dim: int, code_dim: int, seeds: Sequence[int], **options) -> nn.Module:
    return StackedTanh(obs_dim, code_dim, seeds, options["width"])
