"""Device names: the one rule every config (synthetic run, Reacher run, CLI flag) obeys.

A device is ``auto`` (CUDA when present), ``cpu``, ``cuda`` or ``cuda:N``; anything else
("cudafoo", "cuda:", "gpu") is refused by name before anything looks for a GPU.
"""

from __future__ import annotations

import re

import torch

from lejepa_id.errors import UsageError

DEVICE_NAMES = ("auto", "cpu", "cuda", "cuda:N")
_CUDA = re.compile(r"cuda(:\d+)?")


def is_cuda(name: str) -> bool:
    """Whether ``name`` is a valid CUDA device name (cuda or cuda:N)."""
    return _CUDA.fullmatch(name) is not None


def check_device(name: str) -> str:
    """Refuse a device name other than auto, cpu, cuda or cuda:N (without looking for a
    GPU); return the name."""
    if not isinstance(name, str) or not (name in ("auto", "cpu") or is_cuda(name)):
        raise UsageError(f"device={name!r} is not one of {', '.join(DEVICE_NAMES)}")
    return name


def resolve_device(name: str) -> torch.device:
    """``auto`` picks CUDA when present; asking for CUDA without one is a usage error."""
    if check_device(name) == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if is_cuda(name) and not torch.cuda.is_available():
        raise UsageError(f"device={name!r} but no CUDA device is available; use cpu or auto")
    return torch.device(name)
