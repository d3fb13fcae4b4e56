"""docs/proofs.md names only what exists in formal/.

The words of "What each group proves" are written by hand (the tables below them
are generated); a theorem renamed or dropped would leave them describing a
statement that is no longer there. Every Coq name they quote must be a theorem of
``theorems.txt``, a definition of ``statements.txt`` or a name declared in a
``formal/*.v`` file, and every quoted ``.v`` file must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

from lejepa_id.proofs import statements
from lejepa_id.proofs.sources import parse_theorem_list

ROOT = Path(__file__).resolve().parents[2]
FORMAL = ROOT / "formal"
_NAME = re.compile(r"^(?:[A-Z]\w*\.)?([A-Za-z][\w']*)$")
_DECL = re.compile(
    r"^\s*(?:Theorem|Lemma|Definition|Fixpoint|Record|Inductive|Corollary)\s+([\w']+)", re.M
)


def _section() -> str:
    text = (ROOT / "docs" / "proofs.md").read_text()
    start = text.index("## What each group proves")
    return text[start : text.index("\n## ", start + 1)]


def _known() -> set[str]:
    names = {t.short_name for t in parse_theorem_list(FORMAL)}
    _, defs = statements.parse((FORMAL / statements.FILENAME).read_text())
    names |= {d.split(".")[-1] for d in defs}
    for path in FORMAL.glob("*.v"):
        names |= set(_DECL.findall(path.read_text()))
    return names


def quoted(section: str) -> tuple[list[str], list[str]]:
    """(Coq names, ``.v`` files) quoted in backticks: a name has an underscore or a
    module prefix (``PolarFactor.polar_factor``); words and formulas are skipped."""
    names, files = [], []
    for q in re.findall(r"`([^`\n]+)`", section):
        if q.endswith(".v"):
            files.append(q)
        elif (m := _NAME.match(q)) and ("_" in q.strip("_") or "." in q):
            names.append(m.group(1))
    return names, files


def test_quoted_names_exist():
    names, files = quoted(_section())
    assert "forward_identifiability_model_ou" in names and "Spectrum.v" in files  # parsed
    known = _known()
    assert [n for n in names if n not in known] == []
    assert [f for f in files if not (FORMAL / f).is_file()] == []


def test_a_stale_name_is_found():
    names, _ = quoted("the model (`forward_identifiability_model_gone`, `Mehler.ou_hermite`)")
    assert names == ["forward_identifiability_model_gone", "ou_hermite"]
    assert "forward_identifiability_model_gone" not in _known()
    assert "ou_hermite" in _known()
