"""Every LaTeX table the analysis writes compiles with a real pdflatex, in a plain
single-column ``article`` with booktabs only, without an overfull box.

Without pdflatex the tests skip, except on CI (CI=true), where they fail: the setup
script (``scripts/setup.sh --all``) installs Debian's texlive packages.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from lejepa_id.analysis.figures import make_figures
from lejepa_id.analysis.latex import numeric, tex, to_latex

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


@pytest.fixture(scope="module")
def tables(results: Path, tmp_path_factory) -> Path:
    """The figures folder of the shared fabricated results (drawn once for this module)."""
    out = tmp_path_factory.mktemp("figures")
    made = make_figures(results, out, formats=("png",))
    assert made.tables
    return out


def overfull(workdir: Path, stem: str) -> list[str]:
    """The overfull-box warnings in a compiled wrapper's log."""
    log = (workdir / f"wrap_{stem}.log").read_text(errors="replace")
    return re.findall(r"Overfull \\[hv]box \([0-9.]+pt too \w+\)", log)


def test_every_table_compiles_and_fits_the_page(tables: Path, tmp_path: Path) -> None:
    _pdflatex()
    index = json.loads((tables / "figures_index.json").read_text())
    files = sorted(tables / t["tex"] for t in index["tables"])
    assert {p.name for p in files} >= {"tab_ablation.tex", "tab_scaling_lejepa.tex"}
    for table in files:
        res = _compile(table, tmp_path)
        assert res.returncode == 0, f"{table.name}:\n{res.stdout[-3000:]}"
        assert (tmp_path / f"wrap_{table.stem}.pdf").stat().st_size > 0
        assert overfull(tmp_path, table.stem) == [], table.read_text()


def test_text_columns_are_left_aligned_and_numbers_right(tables: Path) -> None:
    ablation = (tables / "tab_ablation.tex").read_text()
    # mixing, objective, law: text; seeds, mean ± std, p: numbers.
    assert r"\begin{tabular}{lllrrr}" in ablation
    assert r"\begin{tabular}{rrrrrr}" in (tables / "tab_scaling_lejepa.tex").read_text()
    assert numeric(["0.98 ± 0.01", "–", "<0.001 (G higher)", "6e-7", "0.26 [-0.1, 0.5]"])
    assert not numeric(["spiral", "0.5"]) and not numeric(["–", ""])


def test_numbers_are_rounded_by_their_uncertainty(tables: Path) -> None:
    """Every mean ± std: the std at one significant digit, the mean to its place; a tiny
    std in parentheses, a small mean with a power of ten; never an e-7."""
    plain = r"(?<![(\d.])([0-9.]+) \$\\pm\$ ([0-9.]+)(?!\))"
    paren = r"([0-9.]+)\((\d)\)"
    power = r"\(([0-9.]+) \$\\pm\$ ([0-9.]+)\)\$\{\\times\}10\^\{-\d+\}\$"
    seen = 0
    for name in ("tab_ablation.tex", "tab_scaling_lejepa.tex"):
        text = (tables / name).read_text()
        assert not re.search(r"\de-\d", text), name
        for mean, sd in re.findall(plain, text) + re.findall(power, text):
            seen += 1
            if sd != "0":
                assert len(sd.replace(".", "").lstrip("0")) == 1, (name, sd)
                places = len(sd.split(".")[1]) if "." in sd else 0
                assert len(mean.split(".")[1] if "." in mean else "") == places, (name, mean)
        for mean, _ in re.findall(paren, text):
            seen += 1
            assert len(mean.split(".")[1]) > 4, (name, mean)  # only a tiny std goes there
    assert seen


def test_special_characters_compile_and_are_escaped(tmp_path: Path) -> None:
    table = pd.DataFrame(
        {"run": ["my_run&50%#1", "a~b^c\\d{e}$f"], "R²(h→z)": ["0.99 ± 0.01", "α ∉ {1,2}, √N"]}
    )
    assert tex("a_b & c") == r"a\_b \& c"
    path = tmp_path / "odd.tex"
    path.write_text(to_latex(table, "caption with_underscore & ρ ≤ 1", "tab:odd"))
    res = _compile(path, tmp_path)
    assert res.returncode == 0, res.stdout[-3000:]
    assert overfull(tmp_path, "odd") == []
    assert tex("0.3 [-1.6, 2.1]") == r"0.3 [$-$1.6, 2.1]"
    # A small number as a paper prints it, never inside a name: plain LaTeX, no siunitx.
    assert tex("run-1, 1e-7") == r"run-1, $1{\times}10^{-7}$"
    assert tex("(7.4 ± 0.5)×10⁻⁶") == r"(7.4 $\pm$ 0.5)${\times}10^{-6}$"
    assert tex("0.9999982 ± 6e-7") == r"0.9999982 $\pm$ $6{\times}10^{-7}$"
    assert tex("-3e-07") == r"$-3{\times}10^{-7}$" and tex("lam1e-3_seed0") == r"lam1e-3\_seed0"
    small = pd.DataFrame({"N": ["2", "4"], "R²(h→z)": ["0.9999982(6)", "(-7.4 ± 0.5)×10⁻⁶"]})
    path.write_text(to_latex(small, "small numbers", "tab:small"))
    res = _compile(path, tmp_path)
    assert res.returncode == 0, res.stdout[-3000:]
