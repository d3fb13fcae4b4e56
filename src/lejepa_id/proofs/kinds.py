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
- ``integral``: the statement names a Coquelicot integral (``RInt_gen``,
  ``is_RInt_gen``, ``ex_RInt_gen``, ``RInt``, ...) or reaches one through reviewed
  integral notions only (:data:`policy.INTEGRAL_NOTIONS`; :func:`integral_problems`
  fails the audit on any other definition on the way), and no coefficient-defined
  notion;
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
from lejepa_id.proofs.findings import pin
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

#: Coquelicot's integrals, by full path (as Coq's walk of the terms names them).
INTEGRALS = frozenset(
    f"Coquelicot.{m}.{c}"
    for m, cs in (("RInt", ("RInt", "is_RInt", "ex_RInt")),
                  ("RInt_gen", ("RInt_gen", "is_RInt_gen", "ex_RInt_gen")))
    for c in cs
)  # fmt: skip
#: Derivatives, series, limits and continuity (Coquelicot and the standard library),
#: by the full path's prefix.
ANALYSIS_PREFIXES = (
    "Coquelicot.Derive.",
    "Coquelicot.Series.",
    "Coquelicot.Lim_seq.",
    "Coquelicot.Continuity.",
    "Coquelicot.Hierarchy.filterlim",
    "Coq.Reals.Ranalysis",
    "Coq.Reals.Rderiv.",
    "Coq.Reals.Continuity",
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


def derive(
    text: str,
    uses: list[str],
    definitions: dict[str, str],
    status: str = "",
    refs: list[str] | None = None,
    definition_refs: dict[str, list[str]] | None = None,
) -> str:
    """The kind of a statement printed as ``text`` that depends on ``uses``.

    Derived from Coq's dependency graph, not from the text: ``refs`` are the
    references outside the project that the statement makes directly, ``uses`` the
    project definitions it reaches, ``definition_refs`` theirs. An integral counts
    when the statement names one itself, or reaches it through a reviewed integral
    notion (:data:`policy.INTEGRAL_NOTIONS`, each pinned to its printed definition):
    a new definition that mentions an integral (``weight rho := kappa rho + 0 * RInt
    ...``) does not make a statement an integral statement (and
    :func:`integral_problems` reports it until it is reviewed).
    """
    refs = refs or []
    definition_refs = definition_refs or {}
    names = set(uses)
    if status == "axiom-relative":
        return "axiom-relative"
    # A law record at the head of the statement is its conclusion (a model proving
    # the laws); anywhere else it is a premise (the audit's status, from Coq's walk).
    if status == "law-relative" or law_premises(text):
        return "law-relative"
    coefficient = any(u in names for u in COEFFICIENT_NOTIONS)
    reached = set(refs).union(*(definition_refs.get(u, []) for u in uses))
    if INTEGRALS & set(refs) or names & set(policy.INTEGRAL_NOTIONS):
        return "mixed" if coefficient else "integral"
    if coefficient:
        return "coefficient"
    if _EXPECTATION in names:
        return "expectation"
    if any(r.startswith(ANALYSIS_PREFIXES) for r in reached):
        return "analysis"
    return "algebra"


def integral_problems(
    uses: set[str],
    definitions: dict[str, str],
    definition_refs: dict[str, list[str]],
    definition_edges: dict[str, list[str]] | None = None,
) -> list[str]:
    """Definitions among ``uses`` that reach an integral without being a reviewed
    integral notion, and reviewed notions whose printed definition changed.

    A definition reaches an integral when it names one itself (``definition_refs``)
    or reaches, through the project references of Coq's walk (``definition_edges``,
    when given), a definition that does. Every definition on such a path must be
    reviewed: otherwise ``weight rho := kappa rho + 0 * gexp f`` (zero times a
    reviewed Gaussian expectation) would relabel a coefficient identity as an
    integral statement just as ``0 * RInt ...`` would.
    """
    reaching = _reaching_integrals(
        set(definition_refs) | set(uses), definition_refs, definition_edges or {}
    )
    out = []
    for d in sorted(uses):
        entry = policy.INTEGRAL_NOTIONS.get(d)
        if entry is None and INTEGRALS & set(definition_refs.get(d, [])):
            out.append(
                f"{d} names an integral but is not a reviewed integral notion "
                "(policy.INTEGRAL_NOTIONS): it does not make a statement an integral one"
            )
        elif entry is None and d in reaching:
            out.append(
                f"{d} reaches the integral notion {reaching[d]} but is not a reviewed "
                "integral notion itself (policy.INTEGRAL_NOTIONS): every definition between "
                "a statement and an integral is reviewed"
            )
        elif entry is not None and pin(definitions.get(d, "")) != entry.type_pin:
            out.append(
                f"integral notion {d}: its printed definition differs from its pin in "
                "policy.INTEGRAL_NOTIONS"
            )
    return out


def _reaching_integrals(
    nodes: set[str], definition_refs: dict[str, list[str]], edges: dict[str, list[str]]
) -> dict[str, str]:
    """``{definition: a definition naming an integral that it reaches}`` for every
    node that reaches one through ``edges`` (project references), itself excluded."""
    names = {d for d in nodes | set(edges) if INTEGRALS & set(definition_refs.get(d, []))}
    found: dict[str, str] = {}
    for start in sorted(nodes | set(edges)):
        seen, todo = {start}, list(edges.get(start, []))
        while todo:
            d = todo.pop()
            if d in seen:
                continue
            seen.add(d)
            if d in names:
                found[start] = d
                break
            todo += edges.get(d, [])
    return found


@dataclass(frozen=True)
class Row:
    """One theorem of the list, with its derived and committed kinds."""

    group: str
    name: str
    words: str
    derived: str
    committed: str
    rationale: str
    premises: str = ""


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

    text = (formal_dir / statements_file.FILENAME).read_text()
    blocks, defs = statements_file.parse(text)
    def_refs = statements_file.parse_refs(text)
    committed = parse_kinds((formal_dir / KINDS_FILE).read_text())
    statuses = _statuses(formal_dir)
    out = []
    for t in parse_theorem_list(formal_dir):
        block = blocks.get(("theorem", t.name))
        status = statuses.get(t.short_name, "")
        derived = (
            derive(block.text, block.uses, defs, status, block.refs, def_refs) if block else ""
        )
        kind, why = committed.get(t.name, ("", ""))
        assumed = premise_summary(block.text, block.uses) if block else ""
        out.append(Row(t.group, t.name, t.statement, derived, kind, why, assumed))
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
    text = (formal_dir / statements_file.FILENAME).read_text()
    blocks, defs = statements_file.parse(text)
    used = {u for b in blocks.values() for u in b.uses}
    out += integral_problems(
        used, defs, statements_file.parse_refs(text), statements_file.parse_refs(text, "calls")
    )
    extra = set(parse_kinds((formal_dir / KINDS_FILE).read_text())) - names
    out += [f"{n}: classified in {KINDS_FILE} but not in theorems.txt" for n in sorted(extra)]
    return out


def _matching(text: str, i: int) -> int:
    """Index of the parenthesis closing the one at ``text[i]``."""
    depth = 0
    for j in range(i, len(text)):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        if depth == 0:
            return j
    raise ValueError(f"unbalanced parentheses in {text[:80]!r}")


def _top_comma(text: str) -> int:
    depth = 0
    for j, c in enumerate(text):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "," and depth == 0:
            return j
    raise ValueError(f"no comma after the binders in {text[:80]!r}")


def premises(text: str) -> list[str]:
    """The hypotheses of a printed statement: the anonymous binders ``(_ : P)`` of
    its leading ``forall`` telescopes (Coq prints ``A -> B`` as ``forall _ : A, B``
    under ``Printing All``), in order."""
    out: list[str] = []
    rest = " ".join(text.split())
    while rest.startswith("forall "):
        rest = rest[len("forall ") :]
        binders = []
        if rest.startswith("("):
            while rest.startswith("("):
                j = _matching(rest, 0)
                binders.append(rest[1:j])
                rest = rest[j + 1 :].lstrip()
            rest = rest.removeprefix(",").lstrip()
        else:
            j = _top_comma(rest)
            binders.append(rest[:j])
            rest = rest[j + 1 :].lstrip()
        for b in binders:
            names, _, typ = b.partition(" : ")
            if names.strip() == "_":
                out.append(typ.strip())
    return out


def premise_summary(text: str, uses: list[str]) -> str:
    """The premises of a statement for the table: how many, and the project notions
    they mention (the definitions are those Coq's walk found the statement uses)."""
    found = premises(text)
    if not found:
        return "none"
    short = {u.removeprefix(policy.LIBRARY + "."): u for u in uses}
    named: list[str] = []
    bare = 0
    for p in found:
        hits = [s for s in short if re.search(rf"(?<![\w.'])@?{re.escape(s)}(?![\w'])", p)]
        if not hits:
            bare += 1
        named += [h.split(".")[-1] for h in hits if h.split(".")[-1] not in named]
    parts = [f"{len(found)} hypothes{'is' if len(found) == 1 else 'es'}"]
    if named:
        parts.append("on " + ", ".join(f"`{n}`" for n in named))
    if bare:
        parts.append(f"{bare} on numbers/functions only")
    return "; ".join(parts)


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
        "`formal/statements.txt` (the printed statements the pins hash, with the",
        "references Coq's own walk of each term found) and `formal/kinds.txt` (a",
        "rationale per row); `--check` fails when this file is out of date. The kind of",
        "each row is derived from Coq's dependency graph of its statement (the project",
        "definitions it reaches and the library constants they name), never from the",
        "committed word or the printed text (`lejepa_id.proofs.kinds`). An integral",
        "counts only when the statement names one itself or reaches it through a",
        "reviewed integral notion (`policy.INTEGRAL_NOTIONS`, each pinned to its printed",
        "definition: "
        + ", ".join(f"`{n.split('.')[-1]}`" for n in policy.INTEGRAL_NOTIONS)
        + "); any other definition that names an integral, or reaches one through",
        "other definitions, fails the audit (so `0 * gexp f` in a new definition cannot",
        "relabel a row either). The premises column lists the hypotheses of the",
        "printed statement (its anonymous binders) and the project notions they name;",
        "every row also rests on the standard axioms of formal/VERIFICATION.md and, for",
        "the law-relative rows, on the laws of the records named.",
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
        "- **integral statement**: the statement names a Coquelicot integral "
        "(`RInt_gen`, `is_RInt_gen`, `ex_RInt_gen`, `RInt`) or reaches one through a "
        "reviewed integral notion, and no coefficient-defined notion: it is about "
        "Gaussian integrals or expectations;",
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
        "| group | theorem | kind | statement | premises (from the printed statement) "
        "| why this kind |",
        "|---|---|---|---|---|---|",
    ]
    for r in listed:
        kind = KINDS.get(r.derived, r.derived or "?")
        out.append(
            f"| {GROUP_TITLES.get(r.group, r.group)} | `{r.name.split('.')[-1]}` | {kind} "
            f"| {_cell(r.words)} | {_cell(r.premises)} | {_cell(r.rationale)} |"
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
