"""Tables as Markdown and as LaTeX (booktabs) that compile as written.

Cells are plain text with a few Unicode symbols (±, R², →, α, √, –, ≤); :func:`tex` turns
them into LaTeX and escapes LaTeX's special characters, so any run or experiment name
is safe inside a table.
"""

from __future__ import annotations

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


def tex(value: object) -> str:
    """One cell of text as LaTeX: special characters escaped, symbols as math."""
    text = "".join(SPECIAL.get(ch, ch) for ch in str(value))
    for symbol, latex in SYMBOLS.items():
        text = text.replace(symbol, latex)
    return text


def to_markdown(table: pd.DataFrame) -> str:
    head = "| " + " | ".join(str(c) for c in table.columns) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    body = ["| " + " | ".join(str(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join([head, rule, *body]) + "\n"


def to_latex(table: pd.DataFrame, caption: str, label: str) -> str:
    """A booktabs ``table`` float: first column left-aligned, the others right-aligned."""
    cols = "l" + "r" * (len(table.columns) - 1)
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
        rf"\begin{{tabular}}{{{cols}}}",
        r"\toprule",
        " & ".join(tex(c) for c in table.columns) + r" \\",
        r"\midrule",
    ]
    lines += [" & ".join(tex(v) for v in row) + r" \\" for row in table.itertuples(index=False)]
    lines += [
        r"\bottomrule",
        r"\end{tabular}",
        rf"\caption{{{tex(caption)}}}",
        rf"\label{{{label}}}",
        r"\end{table}",
    ]
    return "\n".join(lines) + "\n"
