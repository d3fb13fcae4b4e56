"""The software versions a result depends on, recorded with every run."""

from __future__ import annotations

import platform

import numpy as np
import torch


def software_versions() -> dict[str, str]:
    """Versions of the package, Python, torch, numpy, numba and CUDA."""
    from lejepa_id import __version__

    return {
        "lejepa_id": __version__,
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
