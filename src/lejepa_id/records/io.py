"""Atomic, safe persistence: JSON results and tensors.

Results are written to a temporary file in the target directory and renamed into
place, so a crash never leaves a half-written file. Weights use safetensors, which
stores raw tensors and can never execute code when loaded.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import torch
from safetensors.torch import load_file, save_file


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, torch.Tensor):
        return _jsonable(obj.detach().cpu().tolist())
    if isinstance(obj, np.ndarray):
        return _jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return _jsonable(obj.item())
    if isinstance(obj, float) and not math.isfinite(obj):
        return None if math.isnan(obj) else ("inf" if obj > 0 else "-inf")
    if isinstance(obj, Path):
        return str(obj)
    return obj


def _file_mode() -> int:
    # mkstemp creates 0600 files; results should get the usual 0666 & ~umask.
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file and an atomic rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, _file_mode())
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_json(path: str | os.PathLike, obj: Any) -> None:
    """Write ``obj`` as indented JSON atomically. NaN becomes null and inf "inf"."""
    text = json.dumps(_jsonable(obj), indent=2, allow_nan=False)
    atomic_write_bytes(path, (text + "\n").encode())


def read_json(path: str | os.PathLike) -> Any:
    with open(path) as f:
        return json.load(f)


def read_json_mapping(path: str | os.PathLike, what: str = "file") -> dict[str, Any]:
    """A JSON file that must hold an object; anything else is a one-line UsageError.

    For files a command reads as input (a dataset's dataset.json, a plan.json, a
    sweep.json): a garbage, truncated or wrong-shaped file names itself instead of
    ending in a traceback.
    """
    from lejepa_id.errors import UsageError

    try:
        data = read_json(path)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not valid JSON"
        raise UsageError(f"{what} {str(path)!r} is unreadable ({reason})") from None
    if not isinstance(data, dict):
        raise UsageError(
            f"{what} {str(path)!r} must hold a JSON object, not a {type(data).__name__}"
        )
    return data


def save_tensors(path: str | os.PathLike, tensors: dict[str, torch.Tensor]) -> None:
    """Save named tensors as safetensors, atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        save_file({k: v.detach().cpu().contiguous() for k, v in tensors.items()}, tmp)
        os.chmod(tmp, _file_mode())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_tensors(path: str | os.PathLike) -> dict[str, torch.Tensor]:
    """Load safetensors: raw arrays only, nothing is unpickled or executed."""
    return load_file(str(path))
