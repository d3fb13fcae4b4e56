"""What each pinned theorem proves: its kind, derived from its printed statement.

A row of the verification table that says "verified" says only that Coq accepts the
proof; it does not say whether the statement is about Gaussian integrals or about
algebra on coefficients that are *defined* to stand for them. This module derives a
kind for every main theorem from the text its pin hashes (the statement as Coq prints
it and the printed definitions of every project constant it depends on, transitively:
``formal/statements.txt``), so the label cannot claim more than the statement says:

- ``axiom-relative``: the audit found a project assumption under it; ``law-relative``:
  a law record (:data:`policy.LAW_RECORDS`) is a premise, directly or through a
  definition (the audit's status, and the printed statement itself);
- ``mixed``: it names a Coquelicot integral and a notion of the Hermite model defined
  from the expansion coefficients (:data:`COEFFICIENT_NOTIONS`): it proves a
  coefficient formula equal to an integral, or keeps a coefficient-defined term (the
  committed rationale says which);
- ``integral``: the statement or a definition it uses mentions a Coquelicot integral
  (``RInt_gen``, ``is_RInt_gen``, ``ex_RInt_gen``, ``RInt``, ...), and no
  coefficient-defined notion;
- ``coefficient``: no integral, but it is about the Hermite model's notions, which are
  defined from the expansion coefficients;
- ``expectation``: about every abstract expectation functional (normalized, linear,
  monotone), with no integral named;
- ``analysis``: derivatives, series or limits of real functions, no integral;
- ``algebra``: real numbers, vectors, matrices and finite sums only.

``formal/kinds.txt`` commits each theorem's kind with a rationale in words
(``name | kind | rationale``); :func:`problems` requires the committed kind to equal
the derived one, so a re-pin that changes what a statement is about changes its row.
``docs/proof-kinds.md`` is generated from ``theorems.txt``, ``statements.txt`` and
``kinds.txt``: ``python -m lejepa_id.proofs.kinds`` rewrites it, ``--check`` exits 1
when it (or ``kinds.txt``) is out of date.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from lejepa_id.proofs import policy as policy
from lejepa_id.proofs import statements as statements_file
from lejepa_id.proofs.coq import law_premises
from lejepa_id.proofs.policy import GROUP_TITLES

#: Each kind with its label in the tables, in order of precedence (first match wins).
KINDS: dict[str, str] = {
    "axiom-relative": "axiom-relative",
    "law-relative": "law-relative",
    "mixed": "integral and coefficient",
    "integral": "integral statement",
    "coefficient": "coefficient identity",
    "expectation": "abstract expectation",
    "analysis": "pointwise analysis",
    "algebra": "finite algebra",
}

#: Coquelicot's integrals, as Coq prints them under the audit's options.
_INTEGRAL_RE = re.compile(
    r"\b(?:RInt_gen|RInt)\.(?:is_RInt_gen|ex_RInt_gen|RInt_gen|is_RInt|ex_RInt|RInt)\b"
)
#: Derivatives, series and limits (Coquelicot and the standard library).
_ANALYSIS_RE = re.compile(
    r"\b(?:Derive\.(?:is_derive|ex_derive|Derive)|Series\.(?:is_series|ex_series|Series)"
    r"|Lim_seq\.\w+|Continuity\.\w+|Ranalysis\w*\.\w+|Rderiv\.\w+|Hierarchy\.filterlim)\b"
)
#: The model's notions defined from the expansion coefficients (its encoder
#: function ``heval`` and the record ``HEncoder`` are not among them).
COEFFICIENT_NOTIONS = tuple(
    f"LejepaId.{name}"
    for name in (
        "HermiteModel.hmean",
        "HermiteModel.hcov",
        "HermiteModel.henergy",
        "HermiteModel.halignment",
        "HermiteModel.hwhitened",
        "HermiteModel.hermite_notions",
        "HermitePolar.hlin",
        "HermitePolar.hsqerr",
        "HermitePolar.hermite_polar",
    )
)
_EXPECTATION = "LejepaId.Dirichlet.is_expectation"

KINDS_FILE = "kinds.txt"
DOC_PATH = Path("docs") / "proof-kinds.md"


def derive(text: str, uses: list[str], definitions: dict[str, str], status: str = "") -> str:
    """The kind of a statement printed as ``text`` that depends on ``uses``."""
    closure = " ".join([text] + [definitions.get(d, "") for d in uses])
    names = set(uses)
    if status == "axiom-relative":
        return "axiom-relative"
    # A law record at the head of the statement is its conclusion (a model proving
    # the laws); anywhere else it is a premise. Through a definition, only Coq can
    # tell (the audit's status says so).
    if status == "law-relative" or law_premises(text):
        return "law-relative"
    coefficient = any(u in names for u in COEFFICIENT_NOTIONS)
    if _INTEGRAL_RE.search(closure):
        return "mixed" if coefficient else "integral"
    if coefficient:
        return "coefficient"
    if _EXPECTATION in names:
        return "expectation"
    if _ANALYSIS_RE.search(closure):
        return "analysis"
    return "algebra"


@dataclass(frozen=True)
class Row:
    """One theorem of the list, with its derived and committed kinds."""

    group: str
    name: str
    words: str
    derived: str
    committed: str
    rationale: str


def parse_kinds(text: str) -> dict[str, tuple[str, str]]:
    """``{name: (kind, rationale)}`` of a kinds file (``name | kind | rationale``)."""
    out: dict[str, tuple[str, str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|", 2)]
        if len(parts) != 3 or not parts[2]:
            raise ValueError(f"expected 'name | kind | rationale': {raw!r}")
        if parts[1] not in KINDS:
            raise ValueError(f"{parts[0]}: kind {parts[1]!r} is not one of {', '.join(KINDS)}")
        if parts[0] in out:
            raise ValueError(f"{parts[0]} classified twice")
        out[parts[0]] = (parts[1], parts[2])
    return out


def _statuses(formal_dir: Path) -> dict[str, str]:
    """Each theorem's status in the committed VERIFICATION.md (short name -> status)."""
    path = formal_dir / "VERIFICATION.md"
    out: dict[str, str] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            # | group | `name` | statement | proves | status | used |  (\| is a literal bar)
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)]
            if len(cells) >= 7 and cells[2].startswith("`"):
                out[cells[2].strip("`")] = cells[-3]
    return out


def rows(formal_dir: Path) -> list[Row]:
    """Every theorem of ``theorems.txt`` with its derived and committed kinds."""
    from lejepa_id.proofs.sources import parse_theorem_list

    blocks, defs = statements_file.parse((formal_dir / statements_file.FILENAME).read_text())
    committed = parse_kinds((formal_dir / KINDS_FILE).read_text())
    statuses = _statuses(formal_dir)
    out = []
    for t in parse_theorem_list(formal_dir):
        block = blocks.get(("theorem", t.name))
        status = statuses.get(t.short_name, "")
        derived = derive(block.text, block.uses, defs, status) if block else ""
        kind, why = committed.get(t.name, ("", ""))
        out.append(Row(t.group, t.name, t.statement, derived, kind, why))
    return out


def problems(formal_dir: Path) -> list[str]:
    """Theorems whose committed kind is missing or differs from the derived one."""
    out = []
    listed = rows(formal_dir)
    for r in listed:
        if not r.derived:
            out.append(f"{r.name}: no printed statement in {statements_file.FILENAME}")
        elif not r.committed:
            out.append(f"{r.name}: not classified in {KINDS_FILE} (derived kind: {r.derived})")
        elif r.committed != r.derived:
            out.append(
                f"{r.name}: {KINDS_FILE} says {r.committed}, its printed statement is {r.derived}"
            )
    names = {r.name for r in listed}
    extra = set(parse_kinds((formal_dir / KINDS_FILE).read_text())) - names
    out += [f"{n}: classified in {KINDS_FILE} but not in theorems.txt" for n in sorted(extra)]
    return out


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def render(formal_dir: Path) -> str:
    """``docs/proof-kinds.md``: every main theorem with its kind and the reason for it."""
    listed = rows(formal_dir)
    counts = {k: sum(r.derived == k for r in listed) for k in KINDS}
    out = [
        "# What each machine-checked theorem proves",
        "",
        "Generated by `python -m lejepa_id.proofs.kinds` from `formal/theorems.txt`,",
        "`formal/statements.txt` (the printed statements the pins hash) and",
        "`formal/kinds.txt` (a rationale per row); `--check` fails when this file is out",
        "of date, and the kind of each row is derived from its printed statement and the",
        "definitions it depends on, never only from the committed word (`lejepa_id.proofs.kinds`).",
        "",
        "Kinds, first match wins:",
        "",
        "- **axiom-relative**: the audit found a project assumption under it;",
        "- **law-relative**: a record of laws (`L2Laws`, `PolarLaws`) is a premise, "
        "directly or through a definition;",
        "- **integral and coefficient**: it names a Coquelicot integral and a notion "
        "of the Hermite model defined from the expansion coefficients (`hmean`, `hcov`, "
        "`henergy`, `halignment`, `hwhitened`, `hlin`, `hsqerr`): it either proves the "
        "coefficient formula equal to the Gaussian integral of the encoder, or keeps a "
        "coefficient-defined term (the reason column says which);",
        "- **integral statement**: the statement or a definition it uses names a "
        "Coquelicot integral (`RInt_gen`, `is_RInt_gen`, `ex_RInt_gen`, `RInt`) and no "
        "coefficient-defined notion: it is about Gaussian integrals or expectations;",
        "- **coefficient identity**: no integral; about the finite-Hermite-expansion "
        "model, whose mean, covariance, energies, alignment and square error are defined "
        "from the coefficients;",
        "- **abstract expectation**: holds for every normalized, linear, monotone "
        "expectation functional (the Gaussian integral is one), no integral named;",
        "- **pointwise analysis**: derivatives, series or limits of real functions;",
        "- **finite algebra**: reals, vectors, matrices and finite sums only.",
        "",
        "Counts: " + ", ".join(f"{KINDS[k]} {c}" for k, c in counts.items() if c) + ".",
        "",
        "| group | theorem | kind | statement | why this kind |",
        "|---|---|---|---|---|",
    ]
    for r in listed:
        kind = KINDS.get(r.derived, r.derived or "?")
        out.append(
            f"| {GROUP_TITLES.get(r.group, r.group)} | `{r.name.split('.')[-1]}` | {kind} "
            f"| {_cell(r.words)} | {_cell(r.rationale)} |"
        )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Rewrite ``docs/proof-kinds.md`` (``--check``: exit 1 if it or kinds.txt is stale)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m lejepa_id.proofs.kinds")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 if docs/proof-kinds.md is stale"
    )
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the checkout's root")
    args = parser.parse_args(argv)
    formal_dir = args.root / "formal"
    try:
        found = problems(formal_dir)
        text = render(formal_dir)
    except (OSError, ValueError) as exc:
        print(f"lejepa_id.proofs.kinds: {exc}", file=sys.stderr)
        return 1
    if found:
        print("\n".join(f"kinds: {p}" for p in found), file=sys.stderr)
        return 1
    doc = args.root / DOC_PATH
    if args.check:
        if not doc.exists() or doc.read_text() != text:
            print(f"{DOC_PATH} out of date: python -m lejepa_id.proofs.kinds", file=sys.stderr)
            return 1
        return 0
    from lejepa_id.records.io import atomic_write_bytes

    atomic_write_bytes(doc, text.encode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
