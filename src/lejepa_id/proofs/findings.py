"""What the proof checker found: declarations, assumptions, theorem audits, the report."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field


@dataclass
class Declared:
    """An assumption declared at top level with ``Axiom`` or ``Parameter``."""

    name: str
    module: str
    kind: str  # "axiom" or "parameter", from the keyword
    doc: str
    file: str
    line: int

    @property
    def qualified(self) -> str:
        """Fully qualified Coq name, e.g. ``LejepaId.Converse.hermite_spectrum``."""
        return f"{self.module}.{self.name}"


@dataclass
class Assumption:
    """One assumption as Coq sees it, with the results of the checker's tests."""

    printed: str  # the name as Coq prints it
    type_text: str = ""
    sort: str = ""  # "Prop", "Type" or "Set"
    refuted: bool = False  # False derivable from it by easy/tauto/...
    trivial: bool = False  # provable outright by easy/tauto/...
    qualified: str = ""  # its allow-list entry, "" when unlisted
    uses: list[str] = field(default_factory=list)  # project definitions its type depends on
    meaning: str = ""  # the printed type and those definitions: what the pin hashes
    carriers: list[str] = field(default_factory=list)  # inductives with a Prop field it reaches
    prop_sort: bool = False  # the sort Prop occurs in its type or a definition it reaches
    empties: list[str] = field(default_factory=list)  # inductives with no constructor it reaches

    @property
    def pin(self) -> str:
        """The hash of the printed type together with the project definitions it uses."""
        return pin(self.meaning or self.type_text)


@dataclass
class TheoremResult:
    """The audit of one main theorem."""

    group: str
    name: str
    statement: str
    expected_pin: str = ""
    actual_pin: str = ""
    assumptions: list[str] = field(default_factory=list)  # printed names
    axioms: list[str] = field(default_factory=list)  # project axioms (short names)
    parameters: list[str] = field(default_factory=list)  # project parameters
    laws: list[str] = field(default_factory=list)  # law records among the premises
    standard: list[str] = field(default_factory=list)
    undeclared: list[str] = field(default_factory=list)
    error: str = ""
    printed_type: str = ""  # the statement as Coq prints it under the audit's options
    uses: list[str] = field(default_factory=list)  # project definitions it depends on
    refs: list[str] = field(default_factory=list)  # references of its type outside the project

    @property
    def ok(self) -> bool:
        """Found, statement as pinned, and resting only on allowed assumptions."""
        return not self.error and not self.undeclared

    @property
    def status(self) -> str:
        """``verified`` (no project assumption), ``axiom-relative``, ``law-relative``
        (premises are law records, no project axiom) or ``FAILED``."""
        if not self.ok:
            return "FAILED"
        if self.axioms or self.parameters:
            return "axiom-relative"
        return "law-relative" if self.laws else "verified"

    @property
    def short_name(self) -> str:
        """The theorem's name without the library prefix."""
        return self.name.split(".")[-1]


@dataclass
class Report:
    """Everything :func:`check` found."""

    formal_dir: str
    coq_version: str = ""
    compile_seconds: float = 0.0
    check_seconds: float = 0.0
    declared: list[Declared] = field(default_factory=list)
    assumptions: dict[str, Assumption] = field(default_factory=dict)
    theorems: list[TheoremResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: Printed definition of every project constant a statement or an assumption
    #: depends on, by fully qualified name.
    definitions: dict[str, str] = field(default_factory=dict)
    #: For each of those definitions, the references outside the project its body,
    #: type or constructors make directly (as Coq's walk found them).
    definition_refs: dict[str, list[str]] = field(default_factory=dict)
    #: For each of those definitions, the project references it makes directly (the
    #: edges of Coq's walk), so that a rule can follow definitions through others.
    definition_edges: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when everything compiled and every main theorem passed the audit."""
        return not self.errors and bool(self.theorems) and all(t.ok for t in self.theorems)

    @property
    def axioms(self) -> list[Declared]:
        """Declared facts (``Axiom``)."""
        return [d for d in self.declared if d.kind == "axiom"]

    @property
    def parameters(self) -> list[Declared]:
        """Declared primitive notions (``Parameter``)."""
        return [d for d in self.declared if d.kind == "parameter"]


def meaning_text(printed_type: str, uses: list[str], definitions: dict[str, str]) -> str:
    """What a pin hashes: the printed type, then each project definition it depends on."""
    return "\n".join([printed_type] + [f"{d} := {definitions[d]}" for d in uses])


def pin(text: str) -> str:
    """The SHA-256 of ``text`` with whitespace runs collapsed: all 64 hex digits (a
    truncated hash would let a changed statement be searched for a colliding pin)."""
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()
