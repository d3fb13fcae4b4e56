"""The README's generated tables match their sources, and its Python example runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_readme_tables_are_in_sync():
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "sync_readme.py"), "--check"])
    assert proc.returncode == 0, "run: python scripts/sync_readme.py"


def test_readme_python_example_runs():
    text = (ROOT / "README.md").read_text()
    example = text.split("### Python\n\n```python\n", 1)[1].split("```", 1)[0]
    example = example.replace("steps=3000", "steps=30, eval_size=500, device='cpu'")
    scope: dict = {}
    exec(compile(example, "README example", "exec"), scope)
    assert 0.0 <= scope["result"].metrics["r2_hz"] <= 1.0


def test_a_stale_results_number_in_the_readme_is_caught():
    import importlib.util

    spec = importlib.util.spec_from_file_location("_sync", ROOT / "scripts" / "sync_readme.py")
    sync = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sync)
    text = (ROOT / "README.md").read_text()
    start = "<!-- results-claims:start -->"
    assert start in text
    # A stale verdict line (as the README once said: "median 0.033 over 51 runs").
    head, tail = text.split(start, 1)
    stale = head + start + "\n- `alignment_gap`: **pass**, median 0.033 over 51 runs." + tail
    fixed, changed = sync.synced(stale)
    assert changed == ["results-claims"] and fixed == sync.synced(text)[0]
