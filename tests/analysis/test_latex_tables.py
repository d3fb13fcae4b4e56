"""Every LaTeX table the analysis writes compiles with a real pdflatex.

Without pdflatex the tests skip, except on CI (CI=true), where they fail: the setup
script (``scripts/setup.sh --all``) installs Debian's texlive packages.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from lejepa_id.analysis.figures import make_figures
from lejepa_id.analysis.latex import tex, to_latex

WRAPPER = r"""\documentclass{article}
\usepackage{booktabs}
\begin{document}
\input{%s}
\end{document}
"""


def _pdflatex() -> str:
    path = shutil.which("pdflatex")
    if path is None:
        if os.environ.get("CI", "").lower() in ("1", "true"):
            pytest.fail("pdflatex is not installed (bash scripts/setup.sh --all)")
        pytest.skip("pdflatex is not installed")
    return path


def _compile(table: Path, workdir: Path) -> subprocess.CompletedProcess:
    doc = workdir / f"wrap_{table.stem}.tex"
    doc.write_text(WRAPPER % table.resolve().with_suffix("").as_posix())
    return subprocess.run(
        [_pdflatex(), "-interaction=nonstopmode", "-halt-on-error", doc.name],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_every_table_compiles(results: Path, tmp_path: Path) -> None:
    _pdflatex()
    out = tmp_path / "figures"
    made = make_figures(results, out, formats=("png",))
    tables = sorted(out / t["tex"] for t in made.tables)
    assert {p.name for p in tables} >= {"tab_ablation.tex", "tab_scaling_lejepa.tex"}
    for table in tables:
        res = _compile(table, tmp_path)
        assert res.returncode == 0, f"{table.name}:\n{res.stdout[-3000:]}"
        assert (tmp_path / f"wrap_{table.stem}.pdf").stat().st_size > 0


def test_special_characters_compile_and_are_escaped(tmp_path: Path) -> None:
    table = pd.DataFrame(
        {"run": ["my_run&50%#1", "a~b^c\\d{e}$f"], "R²(h→z)": ["0.99 ± 0.01", "α ∉ {1,2}, √N"]}
    )
    assert tex("a_b & c") == r"a\_b \& c"
    path = tmp_path / "odd.tex"
    path.write_text(to_latex(table, "caption with_underscore & ρ ≤ 1", "tab:odd"))
    res = _compile(path, tmp_path)
    assert res.returncode == 0, res.stdout[-3000:]
