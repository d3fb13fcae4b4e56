"""The printed statements behind the pins: ``formal/statements.txt``.

A pin is a hash; a reviewer of a re-pin cannot read a hash. So the text each pin
hashes is committed beside it: for every main theorem (and every allow-listed
project assumption) its type as Coq prints it under the audit's reset printing
options, the project definitions it depends on (transitively), and, once each,
those definitions as Coq prints them. The audit requires every block to hash to
the pin in ``theorems.txt`` (or in the allow-list), so a re-pin must change this
file, and ``git diff`` shows what a changed statement now says. When a statement
differs from its pin, the audit names the definitions that changed.

Regenerate with ``lejepa-id verify --statements formal/statements.txt``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from lejepa_id.proofs import policy as policy
from lejepa_id.proofs.findings import Report, meaning_text, pin

FILENAME = "statements.txt"

HEADER = (
    "# Printed statements behind the pins of theorems.txt and of the allow-list",
    "# (lejepa_id/proofs/policy.py): each block is what its pin hashes (whitespace runs",
    "# collapsed): the type as Coq prints it (Set Printing All, every printing option",
    "# reset), then `uses` lines naming the project definitions it depends on, whose",
    "# printed text is in the `definition` blocks. `refs` lines name the references",
    "# outside the project that a statement or definition makes directly, as Coq's own",
    "# walk of its term found them (the kinds of docs/proof-kinds.md are derived from",
    "# them). `calls` lines name the project definitions a definition references",
    "# directly (the edges of that walk; an integral is followed through them). The",
    "# audit checks that every block hashes to its pin and that the `refs` and `calls`",
    "# are Coq's. Generated: lejepa-id verify --statements formal/statements.txt",
)

_BLOCK_RE = re.compile(r"^== (theorem|assumption|definition) (\S+)(?: \| ([0-9a-f]{64}))?$")


@dataclass
class Block:
    """One ``== kind name | pin`` block."""

    kind: str
    name: str
    pin: str
    text: str = ""
    uses: list[str] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)


def render(report: Report) -> str:
    """The file for ``report``: its theorems, allow-listed assumptions and definitions."""
    lines = list(HEADER)
    used: set[str] = set()
    for t in report.theorems:
        if t.printed_type:
            lines += ["", f"== theorem {t.name} | {t.actual_pin}", t.printed_type]
            lines += [f"uses {d}" for d in t.uses]
            lines += [f"refs {r}" for r in t.refs]
            used.update(t.uses)
    for a in sorted(report.assumptions.values(), key=lambda a: a.qualified or a.printed):
        if a.qualified in policy.PROJECT_ASSUMPTIONS:
            lines += ["", f"== assumption {a.qualified} | {a.pin}", a.type_text]
            lines += [f"uses {d}" for d in a.uses]
            used.update(a.uses)
    for d in sorted(used):
        lines += ["", f"== definition {d}", report.definitions.get(d, "")]
        lines += [f"refs {r}" for r in report.definition_refs.get(d, [])]
        lines += [f"calls {c}" for c in report.definition_edges.get(d, [])]
    return "\n".join(lines) + "\n"


def parse_refs(text: str, tag: str = "refs") -> dict[str, list[str]]:
    """``{name: refs}`` of every theorem and definition block of a statements file
    (``tag="calls"``: the project definitions each definition references)."""
    out: dict[str, list[str]] = {}
    current = ""
    for raw in text.splitlines():
        line = raw.strip()
        m = _BLOCK_RE.match(line)
        if m:
            current = m.group(2)
            out.setdefault(current, [])
        elif current and line.startswith(tag + " "):
            out[current].append(line.removeprefix(tag + " ").strip())
    return out


def parse(text: str) -> tuple[dict[tuple[str, str], Block], dict[str, str]]:
    """``({(kind, name): block}, {definition: printed})`` of a statements file."""
    blocks: dict[tuple[str, str], Block] = {}
    defs: dict[str, str] = {}
    current: Block | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _BLOCK_RE.match(line)
        if m:
            current = Block(m.group(1), m.group(2), m.group(3) or "")
            if current.kind == "definition":
                defs[current.name] = ""
            else:
                blocks[(current.kind, current.name)] = current
        elif current is None:
            raise ValueError(f"text before the first block: {raw[:80]!r}")
        elif line.startswith("refs "):
            current.refs.append(line.removeprefix("refs ").strip())
        elif current.kind == "definition" and line.startswith("calls "):
            continue  # parse_refs(text, "calls") reads them
        elif current.kind == "definition":
            defs[current.name] = (defs[current.name] + " " + line).strip()
        elif line.startswith("uses "):
            current.uses.append(line.removeprefix("uses ").strip())
        else:
            current.text = (current.text + " " + line).strip()
    return blocks, defs


def block_pin(block: Block, defs: dict[str, str]) -> str:
    """The hash of a committed block, or ``""`` if it uses a definition not in the file."""
    if any(d not in defs for d in block.uses):
        return ""
    return pin(meaning_text(block.text, block.uses, defs))


def _changes(block: Block, defs: dict[str, str], typ: str, uses, report: Report) -> str:
    changed = [] if " ".join(block.text.split()) == " ".join(typ.split()) else ["the statement"]
    for d in sorted(set(block.uses) | set(uses)):
        if defs.get(d) != report.definitions.get(d):
            changed.append(d)
    return "; changed since statements.txt: " + ", ".join(changed) if changed else ""


def check(report: Report, path: Path) -> None:
    """Record in ``report`` every pin that its committed printed text does not back."""
    hint = "regenerate: lejepa-id verify --statements formal/statements.txt"
    try:
        blocks, defs = parse(path.read_text())
    except (OSError, ValueError) as exc:
        report.errors.append(f"{FILENAME}: {exc} ({hint})")
        return
    for t in report.theorems:
        if not t.printed_type:
            continue
        block = blocks.get(("theorem", t.name))
        if block is None:
            problem = f"no printed statement in {FILENAME} ({hint})"
        elif block_pin(block, defs) != t.expected_pin:
            problem = f"its printed statement in {FILENAME} does not hash to its pin ({hint})"
        elif block.refs != t.refs:
            problem = f"its `refs` in {FILENAME} are not the ones Coq finds ({hint})"
        else:
            problem = ""
        if block is not None and t.actual_pin != t.expected_pin:
            t.error += _changes(block, defs, t.printed_type, t.uses, report)
        if problem:
            t.error = f"{t.error}; {problem}" if t.error else problem
    committed = parse_refs(path.read_text())
    calls = parse_refs(path.read_text(), "calls")
    stale = sorted(
        d
        for d in report.definitions
        if d in committed
        and (
            committed[d] != report.definition_refs.get(d, [])
            or calls.get(d, []) != report.definition_edges.get(d, [])
        )
    )
    if stale:
        report.errors.append(
            f"{FILENAME}: the `refs` or `calls` of {', '.join(stale[:5])} are not the ones "
            f"Coq finds ({hint})"
        )
    for a in report.assumptions.values():
        entry = policy.PROJECT_ASSUMPTIONS.get(a.qualified)
        if entry is None:
            continue
        block = blocks.get(("assumption", a.qualified))
        if block is None or block_pin(block, defs) != entry.type_pin:
            report.errors.append(
                f"assumption {a.printed}: its allow-list pin is not backed by a printed "
                f"statement in {FILENAME} ({hint})"
            )
        elif a.pin != entry.type_pin:
            msg = _changes(block, defs, a.type_text, a.uses, report)
            report.errors.append(f"assumption {a.printed}: meaning differs from its pin{msg}")
