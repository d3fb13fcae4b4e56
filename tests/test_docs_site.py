"""The docs site's hooks (scripts/mkdocs_hooks.py) on a small site: a link to a repository
file outside docs/ reaches a copy of it, the README is the home page, and a link to a file
that does not exist still fails the strict build."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mkdocs")

ROOT = Path(__file__).parents[1]

CONFIG = f"""site_name: probe
docs_dir: docs
theme: mkdocs
hooks:
  - {ROOT / "scripts" / "mkdocs_hooks.py"}
not_in_nav: |
  /repo/
validation:
  omitted_files: warn
  unrecognized_links: warn
  anchors: warn
nav:
  - Home: index.md
  - Page: page.md
"""


def _site(tmp_path: Path, page: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "mkdocs.yml").write_text(CONFIG)
    (tmp_path / "README.md").write_text("# Probe\n\nSee [the page](docs/page.md#usage).\n")
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "page.md").write_text(page)
    (tmp_path / "notes").mkdir(exist_ok=True)
    (tmp_path / "notes" / "NOTES.md").write_text("# Notes\n\n[table](table.md)\n")
    (tmp_path / "notes" / "table.md").write_text("# Table\n")
    (tmp_path / "notes" / "figure.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "out")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_links_to_repository_files_reach_their_copies(tmp_path: Path) -> None:
    page = "# Page\n\n## Usage\n\n[notes](../notes/NOTES.md) ![figure](../notes/figure.png)\n"
    proc = _site(tmp_path, page)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "out"
    assert (out / "repo" / "notes" / "figure.png").read_bytes() == b"\x89PNG\r\n\x1a\n"
    html = (out / "page" / "index.html").read_text()
    assert 'src="../repo/notes/figure.png"' in html
    assert 'href="../repo/notes/NOTES/"' in html
    # The copied page's own link is followed too, and the README is the home page.
    assert (out / "repo" / "notes" / "table" / "index.html").is_file()
    assert 'href="page/#usage"' in (out / "index.html").read_text()


def test_a_link_to_a_missing_file_fails_the_strict_build(tmp_path: Path) -> None:
    proc = _site(tmp_path, "# Page\n\n## Usage\n\n![gone](../notes/gone.png)\n")
    assert proc.returncode != 0
    assert "'../notes/gone.png'" in proc.stderr and "not found" in proc.stderr
