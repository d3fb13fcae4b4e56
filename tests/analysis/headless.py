"""Headless Chromium for the report tests: the binary (skip without it, fail on CI) and
one call that loads a page with a fresh profile."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"


def chromium() -> str:
    """The Chromium binary; skips the test when there is none, fails it on CI (CI set):
    ``scripts/setup.sh --all`` installs it."""
    path = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (apt-get install -y chromium)")
        pytest.skip("chromium is not installed")
    return path


def run_chromium(binary: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    """Chromium headless with a throwaway profile, no network services, and 5 s of virtual
    time for the page's load handlers to run."""
    cmd = [
        binary,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        "--virtual-time-budget=5000",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)
