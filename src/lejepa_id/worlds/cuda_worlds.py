"""The paper's coupling worlds, recorded on CUDA, for runs without a GPU.

The published code draws its coupling weights on the GPU, and CUDA's random stream is not
the CPU's, so the same procedure on a CPU gives other worlds. These weights were drawn by
that procedure on an NVIDIA H200 (``benchmarks/record_cuda_worlds.py``, torch 2.11, CUDA
13.0) and ship with the package for L = 4 layers, N = 2 to 256 and seeds 0 to 4; the
SHA-256 of every recorded world up to N = 1024 is listed beside them
(``data/cuda_coupling_worlds.json``). ``coupling_draw="published_cuda"`` uses them on a
CPU and draws afresh on a CUDA device.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
import torch

from lejepa_id.errors import UsageError

_DATA = Path(__file__).parent / "data" / "cuda_coupling_worlds"
RECORDED = "layers = 4, dim 2 to 256, seeds 0 to 4"
"""Which worlds ship, for error messages."""


@functools.lru_cache(maxsize=1)
def manifest() -> dict:
    """Where and how the worlds were drawn, which ones ship, and every world's SHA-256."""
    return json.loads(_DATA.with_suffix(".json").read_text())


@functools.lru_cache(maxsize=1)
def _arrays() -> dict[str, np.ndarray]:
    with np.load(_DATA.with_suffix(".npz"), allow_pickle=False) as data:
        return {key: data[key] for key in data.files}


def world_key(dim: int, seed: int) -> str:
    return f"N{dim}_seed{seed}"


def has_recorded_world(dim: int, layers: int, seed: int) -> bool:
    return layers == manifest()["layers"] and world_key(dim, seed) in manifest()["shipped"]


def recorded_world(dim: int, layers: int, seed: int) -> torch.Tensor:
    """The coupling weights drawn on CUDA for (n, L, seed), as float32 on the CPU.

    Shape:
        -> (L, n/2, n/2)
    """
    if not has_recorded_world(dim, layers, seed):
        raise UsageError(
            f"no recorded CUDA coupling world for dim={dim}, layers={layers}, seed={seed} "
            f"(recorded: {RECORDED}); "
            "run on a CUDA device or use coupling_draw='published'"
        )
    return torch.from_numpy(_arrays()[world_key(dim, seed)].copy())
