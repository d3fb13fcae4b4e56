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
