"""Checker for the machine-checked proofs in ``formal/`` (Coq 8.16 + Coquelicot).

``lejepa-id verify`` (:func:`main`) works on a temporary copy of ``formal/`` (the
tree is never touched, and tests can plant cheats in copies):

1. refuses a ``_CoqProject`` carrying anything but ``-R . LejepaId`` and warning
   settings, and sources using commands that load code or switch off kernel checks;
2. compiles every file from scratch with ``coqc``, with the warning
   ``comment-terminator-in-string`` turned into an error (a comment/string trick
   can no longer make the source scan and Coq disagree);
3. requires ``theorems.txt`` to list every theorem of the fixed list
   (:data:`~lejepa_id.proofs.policy.REQUIRED_THEOREMS`) and checks each listed
   statement against its pin: a hash of the type printed under ``Set Printing All``
   together with the printed definitions of every project constant the statement
   mentions, so that restating a theorem (as ``True``, with a section hypothesis
   discharged into it, or with a definition weakened) changes the pin;
4. runs ``Print Assumptions`` on each listed theorem: every assumption must be on
   the allow-list (:mod:`lejepa_id.proofs.policy`) with the very type pinned there;
   an admitted lemma or a top-level ``Hypothesis`` shows up as unlisted;
5. tests every assumption in Coq: a ``Parameter`` of sort ``Prop`` is rejected, and
   so is any assumption from which ``easy``/``tauto``/``intuition``/``firstorder``
   derive ``False`` or that they prove outright (a pretend axiom).

:func:`check` returns a :class:`Report`; :func:`render_markdown` renders the table of
``formal/VERIFICATION.md``. The Coq runs live in :mod:`lejepa_id.proofs.coq`.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from lejepa_id.proofs import policy as policy
from lejepa_id.proofs.policy import GROUP_TITLES
from lejepa_id.proofs.report import pins_text, render_markdown, summary

#: The one-line install hint printed when Coq is missing.
INSTALL_HINT = "apt-get install -y coq libcoq-coquelicot"


_DECL_RE = re.compile(
    r"\b(Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Hypotheses|Variable|Variables)"
    r"\s+([^:]+?)\s*:"
)
_ADMIT_RE = re.compile(r"\b(Admitted|admit|give_up)\b")


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

    @property
    def pin(self) -> str:
        """The hash of the printed type."""
        return pin(self.type_text)


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


class CoqMissingError(RuntimeError):
    """``coqc`` is not on the PATH."""


# --------------------------------------------------------------------------- lexing


def pin(text: str) -> str:
    """16 hex digits of the SHA-256 of ``text`` with whitespace runs collapsed."""
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()[:16]


def strip_comments(text: str) -> str:
    """Blank out Coq comments (which nest) and strings, keeping offsets and newlines.

    Mirrors Coq's lexer: inside a comment a ``"`` opens a string in which ``*)``
    does not close the comment, and ``""`` is an escaped quote.
    """
    out = list(text)
    depth, i, in_string = 0, 0, False

    def blank(k: int) -> None:
        if text[k] != "\n":
            out[k] = " "

    while i < len(text):
        if in_string:
            if text.startswith('""', i):
                blank(i), blank(i + 1)
                i += 2
                continue
            in_string = text[i] != '"'
            blank(i)
            i += 1
        elif text.startswith("(*", i):
            depth += 1
            blank(i), blank(i + 1)
            i += 2
        elif depth > 0 and text.startswith("*)", i):
            depth -= 1
            blank(i), blank(i + 1)
            i += 2
        else:
            if text[i] == '"':
                in_string = True
            if depth > 0 or in_string:
                blank(i)
            i += 1
    return "".join(out)


def _doc_before(text: str, pos: int) -> str:
    """The comment that ends right before ``pos`` (only blanks between), cleaned."""
    head = text[:pos].rstrip()
    if not head.endswith("*)"):
        return ""
    depth = 0
    i = len(head) - 2
    while i >= 0:
        if head.startswith("*)", i):
            depth += 1
            i -= 1
        elif head.startswith("(*", i):
            depth -= 1
            if depth == 0:
                body = head[i + 2 : -2].lstrip("*").strip()
                return " ".join(body.split())
        i -= 1
    return ""


def parse_coqproject(formal_dir: Path) -> tuple[list[str], list[str], list[str]]:
    """Return (coqc options, .v files in build order, problems) from ``_CoqProject``.

    Only ``-R . LejepaId`` and ``-arg -w -arg <warnings>`` are accepted.
    """
    tokens = (formal_dir / "_CoqProject").read_text().split()
    opts: list[str] = []
    files: list[str] = []
    bad: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in ("-R", "-Q") and tokens[i + 1 : i + 3] == [".", policy.LIBRARY]:
            opts += tokens[i : i + 3]
            i += 3
        elif tok == "-arg" and tokens[i + 1 : i + 3] == ["-w", "-arg"] and i + 3 < len(tokens):
            opts += ["-w", tokens[i + 3]]
            i += 4
        elif tok.endswith(".v") and "/" not in tok and not tok.startswith("-"):
            files.append(tok)
            i += 1
        else:
            bad.append(tok)
            i += 1
    if opts[:3] != ["-R", ".", policy.LIBRARY] and opts[:3] != ["-Q", ".", policy.LIBRARY]:
        bad.append(f"(missing -R . {policy.LIBRARY})")
    return opts, files, bad


def module_of(fname: str) -> str:
    """``Forward.v`` -> ``LejepaId.Forward``."""
    return f"{policy.LIBRARY}.{Path(fname).with_suffix('').name}"


def parse_declared(formal_dir: Path, files: list[str]) -> list[Declared]:
    """Every ``Axiom``/``Parameter`` (and top-level-looking ``Hypothesis``) with its doc."""
    found: list[Declared] = []
    for fname in files:
        text = (formal_dir / fname).read_text()
        bare = strip_comments(text)
        for m in _DECL_RE.finditer(bare):
            kw = m.group(1)
            if kw.startswith(("Hypothes", "Variable")):
                continue  # section variables: discharged into statements (pins see them)
            kind = "axiom" if kw.startswith(("Axiom", "Conjecture")) else "parameter"
            doc = _doc_before(text, m.start())
            line = bare.count("\n", 0, m.start()) + 1
            for name in m.group(2).split():
                name = name.strip("()")
                if name:
                    found.append(Declared(name, module_of(fname), kind, doc, fname, line))
    return found


def scan_sources(formal_dir: Path, files: list[str]) -> list[str]:
    """Errors for ``Admitted``-like words and banned commands outside comments."""
    errors = []
    banned = re.compile(
        r"(?<![\w.])(" + "|".join(re.escape(b) for b in policy.BANNED_COMMANDS) + r")\b"
    )
    for fname in files:
        bare = strip_comments((formal_dir / fname).read_text())
        for m in _ADMIT_RE.finditer(bare):
            line = bare.count("\n", 0, m.start()) + 1
            errors.append(f"admitted proof: {fname}:{line}: {m.group(1)}")
        for m in banned.finditer(bare):
            line = bare.count("\n", 0, m.start()) + 1
            errors.append(f"banned command: {fname}:{line}: {m.group(1)}")
    return errors


def parse_theorem_list(formal_dir: Path) -> list[TheoremResult]:
    """Read ``theorems.txt`` (``group | name | pin | statement``, ``#`` comments)."""
    out = []
    for raw in (formal_dir / "theorems.txt").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|", 3)]
        if len(parts) != 4 or not re.fullmatch(r"[0-9a-f]{16}", parts[2]):
            raise ValueError(f"expected 'group | name | 16-hex pin | statement': {raw!r}")
        out.append(TheoremResult(parts[0], parts[1], parts[3], expected_pin=parts[2]))
    return out


def list_problems(theorems: list[TheoremResult]) -> list[str]:
    """Required theorems missing from the list, duplicates and unknown groups."""
    names = [t.name for t in theorems]
    errors = [f"theorems.txt lacks required theorem {n}" for n in policy.REQUIRED_THEOREMS]
    errors = [e for e, n in zip(errors, policy.REQUIRED_THEOREMS) if n not in names]
    errors += [f"theorems.txt lists {n} twice" for n in sorted(set(names)) if names.count(n) > 1]
    errors += [
        f"theorems.txt: unknown group {t.group!r}" for t in theorems if t.group not in GROUP_TITLES
    ]
    return errors


_ENTRY_RE = re.compile(r"^([A-Za-z_][\w'.]*)(?: : (.*))?$")


def parse_entries(output: str) -> tuple[dict[str, list[tuple[str, str]]], list[str]]:
    """Sections of a ``Print Assumptions``/``Dependencies`` output: ``{section: [(name, type)]}``.

    Entries start at column 0 as ``name : type`` (or ``name`` then an indented
    ``: type``); indented lines continue the type. Any other line at column 0
    (``Type hierarchy is collapsed``, ``... relies on an unsafe fixpoint``) is
    returned as unexpected.
    """
    sections: dict[str, list[tuple[str, str]]] = {}
    unexpected: list[str] = []
    current: list[tuple[str, str]] | None = None
    for line in output.splitlines():
        if not line.strip():
            continue
        if line[0].isspace():
            if current:
                name, typ = current[-1]
                current[-1] = (name, (typ + " " + line.strip().removeprefix(": ")).strip())
            continue
        if line.startswith("Closed under the global context"):
            continue
        if line in ("Axioms:", "Transparent constants:", "Opaque constants:"):
            current = sections.setdefault(line.rstrip(":"), [])
            continue
        m = _ENTRY_RE.match(line)
        if m is None or current is None:
            unexpected.append(line)
            continue
        current.append((m.group(1), m.group(2) or ""))
    return sections, unexpected


def parse_assumptions(output: str) -> list[str]:
    """Names listed by ``Print Assumptions`` (empty when closed under the context)."""
    sections, _ = parse_entries(output)
    return [name for name, _ in sections.get("Axioms", [])]


def _matches(printed: str, qualified: str) -> bool:
    """Coq prints the shortest unambiguous suffix of a name; compare at dot boundaries."""
    return qualified == printed or qualified.endswith("." + printed)


def resolve(printed: str) -> str:
    """The allow-list entry (standard or project) a printed name denotes, or ``""``."""
    for qualified in (*policy.STANDARD_AXIOMS, *policy.PROJECT_ASSUMPTIONS):
        if _matches(printed, qualified):
            return qualified
    return ""


def allowed(qualified: str) -> policy.Allowed | None:
    """The allow-list entry of a qualified name."""
    return policy.STANDARD_AXIOMS.get(qualified) or policy.PROJECT_ASSUMPTIONS.get(qualified)


# --------------------------------------------------------------------------- checking


def coqc_path() -> str:
    """Path of ``coqc``, or raise :class:`CoqMissingError`."""
    path = shutil.which("coqc")
    if path is None:
        raise CoqMissingError(INSTALL_HINT)
    return path


def default_formal_dir() -> Path:
    """The repository's ``formal/``: next to the package source, else above the cwd."""
    here = Path(__file__).resolve()
    candidates = [here.parents[3] / "formal"] if len(here.parents) > 3 else []
    cwd = Path.cwd().resolve()
    candidates += [p / "formal" for p in (cwd, *cwd.parents)]
    for cand in candidates:
        if (cand / "_CoqProject").is_file():
            return cand
    return cwd / "formal"


def _ignore_build_outputs(_dir: str, names: list[str]) -> set[str]:
    # Build outputs stay behind so that "from scratch" is literal.
    junk = (".vo", ".vok", ".vos", ".glob", ".aux", ".cache", ".out")
    return {n for n in names if n.endswith(junk) or n.startswith("Makefile.coq")}


def check(formal_dir: str | Path | None = None, timeout: float = 3600.0) -> Report:
    """Compile ``formal_dir`` from scratch in a temporary copy and audit it.

    Raises :class:`CoqMissingError` if ``coqc`` is not installed; every other
    problem is recorded in the returned report.
    """
    from lejepa_id.proofs import coq as verify_coq

    coqc = coqc_path()
    src = Path(formal_dir) if formal_dir is not None else default_formal_dir()
    report = Report(formal_dir=str(src))
    if not (src / "_CoqProject").is_file():
        report.errors.append(f"no _CoqProject in {src}")
        return report
    report.coq_version = verify_coq.coq_version(coqc)
    with tempfile.TemporaryDirectory(prefix="lejepa-verify-") as tmp:
        work = Path(tmp) / "formal"
        shutil.copytree(src, work, ignore=_ignore_build_outputs)
        opts, files, bad = parse_coqproject(work)
        report.errors += [f"_CoqProject: not allowed: {b}" for b in bad]
        missing = [f for f in files if not (work / f).is_file()]
        if missing or bad:
            report.errors += [f"_CoqProject lists missing file {f}" for f in missing]
            return report
        try:
            report.theorems = parse_theorem_list(work)
        except (OSError, ValueError) as exc:
            report.errors.append(f"theorems.txt: {exc}")
            return report
        report.errors += list_problems(report.theorems)
        report.errors += scan_sources(work, files)
        report.declared = parse_declared(work, files)
        report.errors += [
            f"Axiom {d.name} ({d.file}:{d.line}) has no comment naming its standard result"
            for d in report.axioms
            if not d.doc
        ]
        start = time.perf_counter()
        err = verify_coq.compile_all(coqc, opts, files, work, timeout)
        report.compile_seconds = time.perf_counter() - start
        if err:
            report.errors.append(err)
            return report
        start = time.perf_counter()
        verify_coq.audit(coqc, opts, files, work, report, timeout)
        report.check_seconds = time.perf_counter() - start
    return report


# The slowest file compiles in well under a minute on a laptop; 15 minutes per coqc call
# leaves room for a slow machine and still ends a hung proof search the same session.
DEFAULT_TIMEOUT_S = 900.0


def _seconds(value: str) -> float:
    """``--timeout``: a positive number of seconds (argparse turns the error into usage)."""
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{value!r} must be a positive number of seconds")
    return seconds


def main(argv: list[str] | None = None) -> int:
    """Command line: ``lejepa-id verify [--formal-dir DIR] [--table PATH] [--quiet] [--pins]``.

    Exit status 0 when every main theorem checks, 1 on any failure, 2 when Coq is
    not installed.
    """
    parser = argparse.ArgumentParser(
        prog="lejepa-id verify",
        description="Compile the Coq proofs in formal/ from scratch and audit them.",
    )
    parser.add_argument("--formal-dir", type=Path, default=None, help="default: the repo's formal/")
    parser.add_argument("--table", type=Path, default=None, help="write the Markdown table here")
    parser.add_argument("--quiet", action="store_true", help="print only PASS/FAIL and errors")
    parser.add_argument("--pins", action="store_true", help="print the current statement pins")
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"limit per coqc call, killed past it (default {DEFAULT_TIMEOUT_S:.0f})",
    )
    args = parser.parse_args(argv)
    try:
        report = check(args.formal_dir, timeout=args.timeout)
    except CoqMissingError:
        print(f"coqc not found; install Coq and Coquelicot: {INSTALL_HINT}", file=sys.stderr)
        return 2
    if args.table is not None:
        args.table.parent.mkdir(parents=True, exist_ok=True)
        tmp = args.table.with_suffix(".tmp")
        tmp.write_text(render_markdown(report))
        tmp.replace(args.table)
    if args.pins:
        print(pins_text(report))
    if args.quiet:
        print(
            "\n".join(f"ERROR: {e}" for e in report.errors) or "", end="\n" if report.errors else ""
        )
        for t in report.theorems:
            if not t.ok:
                print(f"FAILED: {t.name}: {', '.join(t.undeclared) or t.error}")
        print("PASS" if report.ok else "FAIL")
    else:
        print(summary(report))
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
