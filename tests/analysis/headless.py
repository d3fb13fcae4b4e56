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


def page_at_width(binary: str, profile: Path, page: Path, width: int) -> dict[str, int]:
    """The report's load-time marks (``data-*`` integers on its body: window and scroll
    width, the narrowest claims cell) when it is laid out ``width`` CSS px wide.
    Headless Chromium's window is at least 500 px, so the page is loaded in an iframe of
    that width (a phone's viewport) and a wrapper copies the marks out."""
    wrapper = profile.parent / f"{profile.name}-wrapper.html"
    wrapper.write_text(
        "<!DOCTYPE html><html><body style='margin:0'>"
        f"<iframe id='f' src='{page.as_uri()}' style='width:{width}px;height:2000px;"
        "border:0'></iframe><script>document.getElementById('f').addEventListener('load',"
        " function () { var b = this.contentDocument.body; setTimeout(function () {"
        " Array.from(b.attributes).forEach(function (a) {"
        " if (a.name.indexOf('data-') === 0) { document.body.setAttribute(a.name, a.value); }"
        " }); }, 100); });</script></body></html>"
    )
    dom = run_chromium(
        binary, profile, "--allow-file-access-from-files", "--window-size=800,2000",
        "--dump-dom", wrapper.as_uri(),
    )  # fmt: skip
    assert dom.returncode == 0, dom.stderr[-2000:]
    import re

    marks = {m[0]: int(m[1]) for m in re.findall(r'data-([a-z-]+)="(-?\d+)"', dom.stdout)}
    assert "window-width" in marks, dom.stdout[:500]
    return marks
