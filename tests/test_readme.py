"""The generated blocks of the README and the docs pages match their sources, and the usage
page's Python example runs."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def _sync():
    spec = importlib.util.spec_from_file_location("_sync", ROOT / "scripts" / "sync_readme.py")
    sync = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sync)
    return sync


def test_readme_tables_are_in_sync():
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "sync_readme.py"), "--check"])
    assert proc.returncode == 0, "run: python scripts/sync_readme.py"


def test_the_check_covers_every_block_where_it_now_lives():
    sync = _sync()
    where = {
        name: [
            p.relative_to(ROOT).as_posix()
            for p in sync.files()
            if f"<!-- {name}:start -->" in p.read_text()
        ]
        for name in sync.blocks()
    }
    assert where["verification-table"] == ["docs/proofs.md"]
    assert where["bad-input-count"] == ["docs/usage.md"]
    assert where["results-claims"] == ["docs/results.md"]
    assert where["reacher-control-claims"] == ["docs/results.md"]
    assert all(len(files) == 1 for files in where.values()), where


def test_readme_python_example_runs():
    text = (ROOT / "docs" / "usage.md").read_text()
    example = text.split("## Python\n\n```python\n", 1)[1].split("```", 1)[0]
    example = example.replace("steps=3000", "steps=30, eval_size=500, device='cpu'")
    scope: dict = {}
    exec(compile(example, "docs/usage.md example", "exec"), scope)
    assert 0.0 <= scope["result"].metrics["r2_hz"] <= 1.0


def test_a_stale_results_number_in_the_docs_is_caught():
    sync = _sync()
    text = (ROOT / "docs" / "results.md").read_text()
    start = "<!-- results-claims:start -->"
    assert start in text
    # A stale verdict line (as the README once said: "median 0.033 over 51 runs").
    head, tail = text.split(start, 1)
    stale = head + start + "\n- `alignment_gap`: **pass**, median 0.033 over 51 runs." + tail
    fixed, changed = sync.synced(stale)
    assert changed == ["results-claims"] and fixed == sync.synced(text)[0]


def test_a_block_whose_markers_were_lost_fails_the_check(tmp_path, monkeypatch, capsys):
    sync = _sync()
    for rel in ["README.md", *(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text((ROOT / rel).read_text())
    for rel in ["results", "tests"]:  # the blocks' sources
        (tmp_path / rel).symlink_to(ROOT / rel)
    page = tmp_path / "docs" / "results.md"
    head, rest = page.read_text().split("<!-- results-2d-table:start -->", 1)
    page.write_text(head + rest.split("<!-- results-2d-table:end -->", 1)[1])
    monkeypatch.setattr(sync, "ROOT", tmp_path)
    monkeypatch.setattr(sys, "argv", ["sync_readme.py", "--check"])
    assert sync.main() == 1
    # Nothing else is out of date in the copy: the lost block alone fails the check.
    err = capsys.readouterr().err.strip()
    assert err == "out of date: markers missing in README.md and docs/*.md: results-2d-table"
