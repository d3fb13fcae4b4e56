r"""Tables as Markdown and as LaTeX (booktabs) that compile as written.

Cells are plain text with a few Unicode symbols (±, R², →, α, √, –, ≤); :func:`tex` turns
them into LaTeX and escapes LaTeX's special characters, so any run or experiment name
is safe inside a table.

The LaTeX is sized for a single-column ``article`` page (345 pt of text width): ``\small``
type, 4 pt column padding, header cells broken over lines where they hold a newline, text
columns left-aligned and number columns right-aligned (decided from the cells:
:func:`numeric`). It needs ``booktabs`` only. ``tests/analysis/test_latex_tables.py``
compiles every table in a plain article and fails on any overfull box.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pandas as pd

# Unicode -> LaTeX. Applied after escaping, so the backslashes here survive.
SYMBOLS = {
    "±": r"$\pm$",
    "R²": r"$R^2$",
    "²": r"$^2$",
    "→": r"$\to$",
    "α": r"$\alpha$",
    "ρ": r"$\rho$",
    "λ": r"$\lambda$",
    "≤": r"$\le$",
    "≥": r"$\ge$",
    "−": "-",
    "–": "--",
    "×": r"$\times$",
    "∉": r"$\notin$",
    "√N": r"$\sqrt{N}$",
    "√": r"$\surd$",
    "ᵀ": r"$^\top$",
}
SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


MINUS = re.compile(r"(?<![\w.${])-(?=\.?\d)")
# A power of ten as the tables print it (7.4×10⁻⁶, (7.4 ± 0.5)×10⁻⁶: analysis.stats).
POWER = re.compile(r"×10([⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_DIGITS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
# A number in the compact exponent form (6e-7, 1.5e+03) standing alone: not part of a
# name (run lam1e-3), with the minus sign MINUS put before it, if any.
EXPONENT = re.compile(r"(\$-\$)?(?<![\w.])(\d+(?:\.\d+)?)e([-+]?)0*(\d+)(?![\w.])")


def _power(match: re.Match) -> str:
    sign = "-" if match.group(1) else ""
    power = ("-" if match.group(3) == "-" else "") + match.group(4)
    # {\times}: no binary-operator spacing, so a column is hardly wider than with "e-7".
    return rf"${sign}{match.group(2)}{{\times}}10^{{{power}}}$"


def tex(value: object) -> str:
    """One cell of text as LaTeX: special characters escaped, symbols as math, and a
    power of ten as a paper prints it (7.4×10⁻⁶ and 6e-7 as $6{\times}10^{-7}$): plain
    LaTeX, no siunitx."""
    text = "".join(SPECIAL.get(ch, ch) for ch in str(value))
    # Before the symbols: the superscript two of 10⁻² is an exponent's digit here.
    text = POWER.sub(lambda m: rf"${{\times}}10^{{{m.group(1).translate(_DIGITS)}}}$", text)
    for symbol, latex in SYMBOLS.items():
        text = text.replace(symbol, latex)
    # A minus sign, not a hyphen, before a number (not inside a name or an exponent).
    text = MINUS.sub(r"$-$", text)
    return EXPONENT.sub(_power, text)


def to_markdown(table: pd.DataFrame) -> str:
    # A newline in a column name breaks a LaTeX header cell; Markdown has one line.
    head = "| " + " | ".join(str(c).replace("\n", " ") for c in table.columns) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    body = ["| " + " | ".join(str(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join([head, rule, *body]) + "\n"


# A cell that is a number as the tables write them: 0.98, -3, 6e-7, <0.001, 0.98 ± 0.01,
# 0.26 [0.07, 0.48], with an optional note in parentheses or words after it ("G higher").
_NUMBER = r"[<>≤≥]?[-−]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?"
_POWER = r"×10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+"
# ... or with a power of ten: 3.00×10⁻⁷, (7.4 ± 0.5)×10⁻⁶; 0.9999982(6) is a number and
# a note in parentheses to the pattern, and right-aligned as one.
_VALUE = rf"({_NUMBER}(\s*±\s*{_NUMBER})?|{_NUMBER}{_POWER}|\({_NUMBER}\s*±\s*{_NUMBER}\){_POWER})"
NUMERIC = re.compile(rf"^{_VALUE}(\s*\[{_NUMBER},\s*{_NUMBER}\])?(\s*\(.*\)|\s+[A-Za-z ]+)?$")
BLANKS = {"", "–", "-", "n/a", "nan"}


def numeric(values: Sequence[object]) -> bool:
    """Whether a column holds numbers (blanks allowed, at least one number)."""
    cells = [str(v).strip() for v in values]
    filled = [c for c in cells if c not in BLANKS]
    return bool(filled) and all(NUMERIC.match(c) for c in filled)


def header_cell(text: str, align: str) -> str:
    """A header cell; a newline in ``text`` breaks it over lines (a nested tabular, so no
    package beyond booktabs is needed)."""
    lines = [tex(part) for part in str(text).split("\n")]
    if len(lines) == 1:
        return lines[0]
    return rf"\begin{{tabular}}[b]{{@{{}}{align}@{{}}}}" + r" \\ ".join(lines) + r"\end{tabular}"


def tabular(
    table: pd.DataFrame, header: Sequence[str] | None = None, align: str | None = None
) -> list[str]:
    """A booktabs ``tabular`` of ``table``: text columns ``l``, number columns ``r``.
    ``header`` replaces the column names with LaTeX written as is; ``align`` the
    alignment string."""
    cols = align or "".join("r" if numeric(table[c].tolist()) else "l" for c in table.columns)
    heads = (
        list(header)
        if header is not None
        else [header_cell(c, a) for c, a in zip(table.columns, cols)]
    )
    lines = [
        rf"\begin{{tabular}}{{{cols}}}",
        r"\toprule",
        " & ".join(heads) + r" \\",
        r"\midrule",
    ]
    lines += [" & ".join(tex(v) for v in row) + r" \\" for row in table.itertuples(index=False)]
    lines += [r"\bottomrule", r"\end{tabular}"]
    return lines


def float_lines(body: list[str], caption: str, label: str) -> str:
    """A ``table`` float around tabulars, with the sizing every table shares."""
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
        # Local to the float: 4 pt of padding a side (LaTeX's 6 pt) fits one more column.
        r"\setlength{\tabcolsep}{4pt}",
        *body,
        rf"\caption{{{caption}}}",
        rf"\label{{{label}}}",
        r"\end{table}",
    ]
    return "\n".join(lines) + "\n"


def to_latex(table: pd.DataFrame, caption: str, label: str) -> str:
    """A booktabs ``table`` float: text columns left-aligned, number columns
    right-aligned; a newline in a column name breaks its header cell."""
    return float_lines(tabular(table), tex(caption), label)


def blank_repeats(table: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """``table`` with a value of ``columns`` left blank where it repeats the row above
    (the leading columns of a long table read as groups)."""
    out = table.copy()
    for i in range(len(out) - 1, 0, -1):
        for k, col in enumerate(columns):
            same = all(table.iloc[i][c] == table.iloc[i - 1][c] for c in columns[: k + 1])
            if same:
                out.iloc[i, out.columns.get_loc(col)] = ""
    return out
