"""Atomic, safe persistence: JSON results and tensors.

Results are written to a temporary file in the target directory and renamed into
place, so a crash never leaves a half-written file. Weights use safetensors, which
stores raw tensors and can never execute code when loaded.

Every write goes through :func:`atomic_write_bytes` (JSON, tensors, figures, tables):
an OS error there (disk full, quota, read-only, a directory in the way, a name too
long) removes the temporary file and becomes one :class:`~lejepa_id.errors.WriteError`
naming the path and the OS's reason, so a command ends in one line, never in a
traceback or a truncated file. :func:`atomic_write_group` replaces several files
together or not at all (a table's CSV and Parquet).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import torch
from safetensors.torch import load_file
from safetensors.torch import save as tensors_to_bytes

from lejepa_id.errors import WriteError


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


def jsonable(obj: Any) -> Any:
    """``obj`` as it will read back from JSON (tensors as lists, NaN as null, inf as
    "inf"), for checks that must agree with the file."""
    return _jsonable(obj)


def _file_mode() -> int:
    # mkstemp creates 0600 files; results should get the usual 0666 & ~umask.
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: str | os.PathLike) -> str:
    """sha256 of a file's bytes, read in blocks (weights may be large)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_failed(path: str | os.PathLike, exc: OSError) -> WriteError:
    """The one-line error of a failed write: the path and what the OS said (and which
    other path it was about, when that was not the file or its temporary)."""
    reason = exc.strerror or type(exc).__name__
    other = str(exc.filename) if exc.filename else ""
    name = Path(path).name
    if isinstance(exc, FileExistsError | NotADirectoryError) and other != str(path):
        reason = f"{other!r} is a file, not a directory"
    elif other and other != str(path) and not Path(other).name.startswith(f".{name}."):
        reason = f"{reason} ({other!r})"
    return WriteError(f"cannot write {str(path)!r}: {reason}")


def _write_temp(path: Path, data: bytes) -> Path:
    """``data`` in a fsynced hidden temporary beside ``path``; removed again on failure."""
    if path.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, _file_mode())
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> str:
    """Write ``data`` to ``path`` via a temporary file and an atomic rename; returns the
    sha256 of what was written. An OS error is a one-line WriteError, nothing left."""
    path = Path(path)
    tmp: Path | None = None
    try:
        tmp = _write_temp(path, data)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        raise write_failed(path, exc) from None
    except BaseException:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        raise
    return sha256_hex(data)


def atomic_write_group(files: dict[Path, bytes]) -> None:
    """Replace every file of ``files`` or none of them.

    All temporaries are written (and fsynced) before the first rename, so a full disk
    leaves the old files; a rename that fails midway puts the already-replaced files
    back from hard links taken before (renames need no free blocks).
    """
    temps: dict[Path, Path] = {}
    backups: dict[Path, Path] = {}
    replaced: list[Path] = []
    current = next(iter(files), Path("."))
    try:
        for current, data in files.items():
            temps[current] = _write_temp(current, data)
        for current in files:
            if current.exists():
                backup = current.with_name(f".{current.name}.{os.getpid()}.bak")
                backup.unlink(missing_ok=True)
                os.link(current, backup)
                backups[current] = backup
        for current, tmp in temps.items():
            os.replace(tmp, current)
            replaced.append(current)
    except BaseException as exc:
        for done in replaced:
            if done in backups:
                os.replace(backups.pop(done), done)
            else:
                done.unlink(missing_ok=True)
        for tmp in temps.values():
            tmp.unlink(missing_ok=True)
        for backup in backups.values():
            backup.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise write_failed(current, exc) from None
        raise
    for backup in backups.values():
        backup.unlink(missing_ok=True)


def figure_bytes(fig: Any, fmt: str, **kwargs: Any) -> bytes:
    """A matplotlib figure rendered in memory, for an atomic write."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, **kwargs)
    return buffer.getvalue()


def atomic_save_figure(fig: Any, path: str | os.PathLike, **kwargs: Any) -> str:
    """Save a figure atomically (never a truncated PNG); the format is the suffix."""
    path = Path(path)
    return atomic_write_bytes(path, figure_bytes(fig, path.suffix.lstrip(".") or "png", **kwargs))


def atomic_write_json(path: str | os.PathLike, obj: Any) -> str:
    """Write ``obj`` as indented JSON atomically. NaN becomes null and inf "inf"."""
    text = json.dumps(_jsonable(obj), indent=2, allow_nan=False)
    return atomic_write_bytes(path, (text + "\n").encode())


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


def save_tensors(path: str | os.PathLike, tensors: dict[str, torch.Tensor]) -> str:
    """Save named tensors as safetensors, atomically; returns the file's sha256.

    Serialised in memory first, so a full disk is an OS error of the one write (a
    WriteError), never a SafetensorError from inside the library.
    """
    data = tensors_to_bytes({k: v.detach().cpu().contiguous() for k, v in tensors.items()})
    return atomic_write_bytes(path, data)


def load_tensors(path: str | os.PathLike) -> dict[str, torch.Tensor]:
    """Load safetensors: raw arrays only, nothing is unpickled or executed."""
    return load_file(str(path))
