"""Where runs live on disk, and checks that an output folder can be written.

Layout: ``OUT/<experiment>/<run_id>/`` holds ``result.json`` (written last, atomically:
its presence marks a finished run), ``weights.safetensors`` and, for runs that save one,
``scatter.safetensors``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from lejepa_id.errors import UsageError


def run_dir(out: str | Path, experiment: str, run_id: str) -> Path:
    """Where one run lives: ``OUT/<experiment>/<run_id>/`` (a Reacher run's experiment
    is its dataset label and its run id ``lam<lam>_seed<seed>``)."""
    return Path(out) / experiment / run_id


def ensure_writable(out: str | Path) -> Path:
    """Create ``out`` if needed and prove it writable, or raise a one-line UsageError."""
    out = Path(out)
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
    creating anything: its nearest existing ancestor must be a writable directory."""
    path = Path(path)
    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise UsageError(f"{what} {str(path)!r} is not possible: {str(probe)!r} is a file")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise UsageError(f"{what} {str(path)!r} is not writable ({str(probe)!r} is read-only)")
    return path
