"""Where runs live on disk, and checks that an output folder can be written.

Layout: ``OUT/<experiment>/<run_id>/`` holds ``result.json`` (written last, atomically:
its presence marks a finished run), ``weights.safetensors`` and, for runs that save one,
``scatter.safetensors``.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Collection
from pathlib import Path

from lejepa_id.errors import UsageError


def run_dir(out: str | Path, experiment: str, run_id: str) -> Path:
    """Where one run lives: ``OUT/<experiment>/<run_id>/`` (a Reacher run's experiment
    is its dataset label and its run id ``lam<lam>_seed<seed>``)."""
    return Path(out) / experiment / run_id


# Linux's limits on one name in a path and on a whole path (bytes, as the kernel counts).
NAME_MAX = 255
PATH_MAX = 4096
# Room kept for what goes below an output directory (<experiment>/<run_id>/.file.tmp).
RESERVED = 512


def check_path_length(path: str | Path, what: str = "--out", reserve: int = RESERVED) -> Path:
    """Refuse (one-line UsageError) a path with a control character (a newline) or a
    name over 255 bytes, or one so long that the files below it would pass 4,096 bytes,
    before anything is written."""
    path = Path(path)
    control = next((c for c in str(path) if ord(c) < 32 or ord(c) == 127), None)
    if control is not None:
        # A newline in a folder name splits every message and listing that names it.
        raise UsageError(
            f"{what} {str(path)!r} holds a control character ({control!r}); use a name without one"
        )
    for part in path.parts:
        if len(os.fsencode(part)) > NAME_MAX:
            raise UsageError(
                f"{what} has a name of {len(os.fsencode(part))} bytes "
                f"({part[:20]!r}...); names are at most {NAME_MAX} bytes"
            )
    size = len(os.fsencode(os.path.abspath(path)))
    if size + reserve > PATH_MAX:
        raise UsageError(
            f"{what} is {size} bytes long; with the run folders below it paths must stay "
            f"under {PATH_MAX} bytes, so use at most {PATH_MAX - reserve}"
        )
    return path


def check_run_dirs(root: Path, run_ids: Collection[str]) -> None:
    """Refuse (one line) run folders that are files, or results that are folders, before
    a sweep writes its manifest: the sweep would otherwise train and then fail."""
    for run_id in run_ids:
        folder = root / run_id
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"run folder {str(folder)!r} is a file; move it away")
        for name in ("result.json", "error.json", "weights.safetensors"):
            if (folder / name).is_dir():
                raise UsageError(f"{str(folder / name)!r} is a directory; move it away")


VERSION_PREFIX = "version_"


def next_version(out: str | Path) -> Path:
    """``out/version_N`` for the smallest N above every ``version_<int>`` already in
    ``out`` (``version_0`` in a new or empty folder), like Lightning's ``version_N``: each
    ``lejepa-id run --versioned`` gets a results root of its own, one that
    ``aggregate --out`` or ``report`` reads like any other. Nothing is created here."""
    out = Path(out)
    taken = [-1]
    if out.is_dir():
        for entry in out.iterdir():
            number = entry.name.removeprefix(VERSION_PREFIX)
            if entry.name.startswith(VERSION_PREFIX) and number.isdigit():
                taken.append(int(number))
    return out / f"{VERSION_PREFIX}{max(taken) + 1}"


def claim_version(out: str | Path) -> Path:
    """Create and return the next ``out/version_N`` (:func:`next_version`); a folder that
    another command created meanwhile is skipped, never shared."""
    while True:
        path = next_version(out)
        try:
            path.mkdir(parents=True, exist_ok=False)
        except FileExistsError:
            continue
        return path


def ensure_writable(out: str | Path) -> Path:
    """Create ``out`` if needed and prove it writable, or raise a one-line UsageError."""
    out = check_path_length(out)
    if out.is_symlink() and not out.exists():
        raise UsageError(
            f"output directory {str(out)!r} is a symbolic link to nothing (a loop or a "
            "missing target)"
        )
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=out, prefix=".write-test-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UsageError(f"output directory {str(out)!r} is not writable: {exc.strerror}") from None
    return out


def check_creatable(path: str | Path, what: str = "--out") -> Path:
    """Refuse (one-line UsageError) a directory that could not be created, without
    creating anything: its nearest existing ancestor must be a writable directory, and
    its name must pass :func:`check_path_length`."""
    path = check_path_length(path, what)
    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise UsageError(f"{what} {str(path)!r} is not possible: {str(probe)!r} is a file")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise UsageError(f"{what} {str(path)!r} is not writable ({str(probe)!r} is read-only)")
    return path
