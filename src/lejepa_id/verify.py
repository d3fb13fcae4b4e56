"""Checker for the machine-checked proofs in ``formal/`` (Coq 8.16 + Coquelicot).

``lejepa-id verify`` (this module's :func:`main`) does, in a temporary copy of the
formal folder so that the tree is never polluted and planted files can be tested:

1. compile every ``.v`` file listed in ``_CoqProject`` from scratch with ``coqc``;
2. scan the sources for ``Admitted`` / ``admit`` (``coqc`` accepts them silently);
3. parse every ``Axiom`` / ``Parameter`` declaration, with the doc comment that
   names the standard result it stands for;
4. run ``Print Assumptions`` on every main theorem of ``formal/theorems.txt`` and
   fail if one rests on anything other than the declared assumptions and the
   standard axioms of Coq's classical reals (:data:`STANDARD_AXIOMS`). An admitted
   lemma shows up there as an undeclared axiom, which is how it is caught even if
   the source scan were fooled.

The pure API is :func:`check` (returns a :class:`Report`) and
:func:`render_markdown` (the verification table of ``formal/VERIFICATION.md``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

#: The one-line install hint printed when Coq is missing.
INSTALL_HINT = "apt-get install -y coq libcoq-coquelicot"

#: Axioms that Coq's standard library legitimately adds underneath the
#: development: the classical axiomatization of the reals (``Reals``), functional
#: extensionality (used by ``Reals`` itself and by Coquelicot), and excluded middle
#: (used by Coquelicot's limits and derivatives). Anything else must be declared
#: in ``formal/*.v`` with ``Axiom`` or ``Parameter``.
STANDARD_AXIOMS: dict[str, str] = {
    "ClassicalDedekindReals.sig_forall_dec": (
        "Coq Reals: limited principle of omniscience for decidable nat predicates "
        "(constructs the classical Dedekind reals)"
    ),
    "ClassicalDedekindReals.sig_not_dec": (
        "Coq Reals: decidability of double-negated propositions (classical reals)"
    ),
    "FunctionalExtensionality.functional_extensionality_dep": (
        "Coq standard library: functions equal at every point are equal"
    ),
    "Classical_Prop.classic": "Coq standard library: excluded middle (used by Coquelicot)",
}

#: Names of the theorem groups, in the order of SPEC section 9.
GROUP_TITLES: dict[str, str] = {
    "forward": "Theorem 1, forward (Hermite route)",
    "converse": "Theorem 2, converse (Gaussian uniqueness, Sturm-Liouville route)",
    "approximate": "Theorem 3, approximate identifiability",
    "dirichlet": "Alternative forward proof (Dirichlet energy)",
    "planning": "Theorem 4, planning equivalence (finite horizon)",
}

_DECL_RE = re.compile(r"\b(Axiom|Axioms|Parameter|Parameters|Conjecture)\s+([^:]+?)\s*:")
_ADMIT_RE = re.compile(r"\b(Admitted|admit|give_up)\b")


@dataclass
class Declared:
    """An assumption declared in the sources with ``Axiom`` or ``Parameter``."""

    name: str
    module: str
    kind: str  # "Axiom" (a fact) or "Parameter" (a primitive notion)
    doc: str
    file: str
    line: int

    @property
    def qualified(self) -> str:
        """Fully qualified Coq name, e.g. ``LejepaId.Forward.mehler_alignment``."""
        return f"{self.module}.{self.name}"


@dataclass
class TheoremResult:
    """The audit of one main theorem."""

    group: str
    name: str
    statement: str
    assumptions: list[str] = field(default_factory=list)
    axioms: list[str] = field(default_factory=list)  # declared with Axiom
    parameters: list[str] = field(default_factory=list)  # declared with Parameter
    standard: list[str] = field(default_factory=list)
    undeclared: list[str] = field(default_factory=list)
    error: str = ""

    @property
    def ok(self) -> bool:
        """True when the theorem was found and rests only on allowed assumptions."""
        return not self.error and not self.undeclared

    @property
    def status(self) -> str:
        """``verified`` (only the standard reals axioms), ``axiomatized`` or ``FAILED``."""
        if not self.ok:
            return "FAILED"
        return "axiomatized" if self.axioms else "verified"

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
    theorems: list[TheoremResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when everything compiled and every main theorem passed the audit."""
        return not self.errors and bool(self.theorems) and all(t.ok for t in self.theorems)

    @property
    def axioms(self) -> list[Declared]:
        """Declared facts (``Axiom``)."""
        return [d for d in self.declared if d.kind == "Axiom"]

    @property
    def parameters(self) -> list[Declared]:
        """Declared primitive notions (``Parameter``)."""
        return [d for d in self.declared if d.kind == "Parameter"]


class CoqMissingError(RuntimeError):
    """``coqc`` is not on the PATH."""


# --------------------------------------------------------------------------- parsing


def strip_comments(text: str) -> str:
    """Blank out Coq comments (which nest) and strings, keeping offsets and newlines.

    Offsets are kept so that line numbers found in the stripped text are the
    line numbers of the source.
    """
    out = list(text)
    depth = 0
    i = 0
    in_string = False
    while i < len(text):
        two = text[i : i + 2]
        if in_string:
            if text[i] == '"':
                in_string = False
            if text[i] != "\n":
                out[i] = " "
            i += 1
        elif two == "(*":
            depth += 1
            out[i] = out[i + 1] = " "
            i += 2
        elif two == "*)" and depth > 0:
            depth -= 1
            out[i] = out[i + 1] = " "
            i += 2
        elif depth > 0:
            if text[i] != "\n":
                out[i] = " "
            i += 1
        else:
            if text[i] == '"':
                in_string = True
                out[i] = " "
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


def parse_coqproject(formal_dir: Path) -> tuple[list[str], list[str]]:
    """Return (coqc options, .v files in build order) from ``_CoqProject``."""
    tokens = (formal_dir / "_CoqProject").read_text().split()
    opts: list[str] = []
    files: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in ("-R", "-Q"):
            opts += tokens[i : i + 3]
            i += 3
        elif tok == "-arg":
            opts.append(tokens[i + 1])
            i += 2
        elif tok.endswith(".v"):
            files.append(tok)
            i += 1
        else:
            opts.append(tok)
            i += 1
    return opts, files


def library_prefix(opts: list[str]) -> str:
    """The logical name bound to ``.`` by ``-R``/``-Q`` (``LejepaId``)."""
    for i, tok in enumerate(opts):
        if tok in ("-R", "-Q") and i + 2 < len(opts) and opts[i + 1] == ".":
            return opts[i + 2]
    return ""


def parse_declared(formal_dir: Path, files: list[str], prefix: str) -> list[Declared]:
    """Find every ``Axiom``/``Parameter`` declaration and the doc comment above it."""
    found: list[Declared] = []
    for fname in files:
        text = (formal_dir / fname).read_text()
        bare = strip_comments(text)
        module = ".".join(p for p in (prefix, Path(fname).with_suffix("").as_posix()) if p)
        module = module.replace("/", ".")
        for m in _DECL_RE.finditer(bare):
            kind = "Axiom" if m.group(1).startswith(("Axiom", "Conjecture")) else "Parameter"
            doc = _doc_before(text, m.start())
            line = bare.count("\n", 0, m.start()) + 1
            for name in m.group(2).split():
                name = name.strip("()")
                if name:
                    found.append(Declared(name, module, kind, doc, fname, line))
    return found


def find_admitted(formal_dir: Path, files: list[str]) -> list[str]:
    """``file:line: word`` for each ``Admitted``/``admit`` outside comments."""
    hits = []
    for fname in files:
        bare = strip_comments((formal_dir / fname).read_text())
        for m in _ADMIT_RE.finditer(bare):
            line = bare.count("\n", 0, m.start()) + 1
            hits.append(f"{fname}:{line}: {m.group(1)}")
    return hits


def parse_theorem_list(formal_dir: Path) -> list[TheoremResult]:
    """Read ``theorems.txt`` (``group | name | statement``, ``#`` comments)."""
    out = []
    for raw in (formal_dir / "theorems.txt").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|", 2)]
        if len(parts) != 3:
            raise ValueError(f"theorems.txt: expected 'group | name | statement': {raw!r}")
        out.append(TheoremResult(group=parts[0], name=parts[1], statement=parts[2]))
    return out


def parse_assumptions(output: str) -> list[str]:
    """Names listed by ``Print Assumptions`` (empty when closed under the context).

    Each assumption starts at column 0 as ``name : type`` or ``name`` followed by
    an indented ``: type``; continuation lines of the type are indented.
    """
    names = []
    for line in output.splitlines():
        if not line or line[0].isspace():
            continue
        if line.startswith(("Axioms:", "Closed under", "Opaque constants", "Transparent")):
            continue
        names.append(line.split(" : ", 1)[0].split()[0])
    return names


def _matches(printed: str, qualified: str) -> bool:
    """Coq prints the shortest unambiguous suffix of a name; compare at dot boundaries."""
    return qualified == printed or qualified.endswith("." + printed)


# --------------------------------------------------------------------------- running


def coqc_path() -> str:
    """Path of ``coqc``, or raise :class:`CoqMissingError`."""
    path = shutil.which("coqc")
    if path is None:
        raise CoqMissingError(INSTALL_HINT)
    return path


def default_formal_dir() -> Path:
    """The repository's ``formal/``: next to the package source, else above the cwd."""
    here = Path(__file__).resolve()
    candidates = [here.parents[2] / "formal"] if len(here.parents) > 2 else []
    cwd = Path.cwd().resolve()
    candidates += [p / "formal" for p in (cwd, *cwd.parents)]
    for cand in candidates:
        if (cand / "_CoqProject").is_file():
            return cand
    return cwd / "formal"


def _ignore_build_outputs(_dir: str, names: list[str]) -> set[str]:
    # A stale .vo in the copy would let coqc skip nothing (we recompile every
    # file), but leaving build outputs out makes "from scratch" literal.
    junk = (".vo", ".vok", ".vos", ".glob", ".aux", ".cache")
    return {n for n in names if n.endswith(junk) or n.startswith("Makefile.coq")}


def check(formal_dir: str | Path | None = None, timeout: float = 900.0) -> Report:
    """Compile ``formal_dir`` from scratch in a temporary copy and audit its axioms.

    Raises :class:`CoqMissingError` if ``coqc`` is not installed; every other
    problem (compile error, admitted proof, undeclared assumption, missing
    theorem, malformed theorem list) is recorded in the returned report.
    """
    coqc = coqc_path()
    src = Path(formal_dir) if formal_dir is not None else default_formal_dir()
    report = Report(formal_dir=str(src))
    if not (src / "_CoqProject").is_file():
        report.errors.append(f"no _CoqProject in {src}")
        return report
    version = subprocess.run([coqc, "--version"], capture_output=True, text=True, check=False)
    report.coq_version = " ".join(version.stdout.split()[:6])

    with tempfile.TemporaryDirectory(prefix="lejepa-verify-") as tmp:
        work = Path(tmp) / "formal"
        shutil.copytree(src, work, ignore=_ignore_build_outputs)
        opts, files = parse_coqproject(work)
        prefix = library_prefix(opts)
        missing = [f for f in files if not (work / f).is_file()]
        if missing:
            report.errors.append(f"_CoqProject lists missing files: {', '.join(missing)}")
            return report
        try:
            report.theorems = parse_theorem_list(work)
        except (OSError, ValueError) as exc:
            report.errors.append(f"theorem list: {exc}")
            return report

        for hit in find_admitted(work, files):
            report.errors.append(f"admitted proof: {hit}")
        report.declared = parse_declared(work, files, prefix)
        for d in report.axioms:
            if not d.doc:
                report.errors.append(
                    f"Axiom {d.name} ({d.file}:{d.line}) has no comment naming its standard result"
                )

        start = time.perf_counter()
        for fname in files:
            proc = subprocess.run(
                [coqc, *opts, fname],
                cwd=work,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
            if proc.returncode != 0:
                msg = (proc.stdout + proc.stderr).strip()
                report.errors.append(f"coqc failed on {fname}:\n{msg}")
                report.compile_seconds = time.perf_counter() - start
                return report
        report.compile_seconds = time.perf_counter() - start

        start = time.perf_counter()
        _audit(coqc, opts, files, prefix, work, report, timeout)
        report.check_seconds = time.perf_counter() - start
    return report


def _print_assumptions(
    coqc: str,
    opts: list[str],
    work: Path,
    header: list[str],
    items: list[int],
    names: list[str],
    tag: str,
    timeout: float,
) -> subprocess.CompletedProcess[str]:
    """One ``coqc`` run writing ``assume_<k>.out`` for each index ``k`` in ``items``."""
    body = [f'Redirect "assume_{k}" Print Assumptions {names[k]}.' for k in items]
    path = work / f"LejepaVerifyAudit{tag}.v"
    path.write_text("\n".join(header + body) + "\n")
    return subprocess.run(
        [coqc, *opts, path.name],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _audit(
    coqc: str,
    opts: list[str],
    files: list[str],
    prefix: str,
    work: Path,
    report: Report,
    timeout: float,
) -> None:
    """Run ``Print Assumptions`` on each main theorem and classify what it rests on."""
    modules = [
        ".".join(p for p in (prefix, Path(f).with_suffix("").as_posix().replace("/", ".")) if p)
        for f in files
    ]
    # Require without Import, so that names print qualified and a planted lemma
    # cannot hide behind the short name of a declared axiom.
    header = [f"Require {m}." for m in modules]
    names = [t.name for t in report.theorems]
    # Print Assumptions walks the whole dependency graph (Coquelicot included),
    # about a second per theorem, so the theorems are audited in parallel chunks.
    workers = max(1, min(os.cpu_count() or 1, 8, len(names)))
    chunks = [list(range(len(names)))[w::workers] for w in range(workers)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(
            pool.map(
                lambda wc: _print_assumptions(
                    coqc, opts, work, header, wc[1], names, str(wc[0]), timeout
                ),
                enumerate(chunks),
            )
        )
    for k, thm in enumerate(report.theorems):
        out_file = work / f"assume_{k}.out"
        # Redirect creates its file before running the command, so an empty
        # file means the command failed (usually: no such theorem). coqc stops
        # at the first error of a chunk, so retry each missing theorem alone.
        if out_file.exists() and out_file.read_text().strip():
            continue
        one = _print_assumptions(coqc, opts, work, header, [k], names, "One", timeout)
        if one.returncode != 0:
            thm.error = "not found: " + " ".join((one.stdout + one.stderr).split())[-200:]
            report.errors.append(f"Print Assumptions failed for {thm.name}")
    declared = report.declared
    for k, thm in enumerate(report.theorems):
        if thm.error:
            continue
        out_file = work / f"assume_{k}.out"
        out = out_file.read_text() if out_file.exists() else ""
        if not out.lstrip().startswith(("Axioms:", "Closed under the global context")):
            thm.error = "no Print Assumptions output"
            report.errors.append(f"no Print Assumptions output for {thm.name}")
            continue
        thm.assumptions = parse_assumptions(out)
        for name in thm.assumptions:
            std = [s for s in STANDARD_AXIOMS if _matches(name, s)]
            own = [d for d in declared if _matches(name, d.qualified)]
            if std:
                thm.standard.append(std[0])
            elif own and own[0].kind == "Axiom":
                thm.axioms.append(own[0].name)
            elif own:
                thm.parameters.append(own[0].name)
            else:
                thm.undeclared.append(name)
        # Print Assumptions lists in no documented order: sort for a stable table.
        order = {d.name: k for k, d in enumerate(declared)}
        thm.axioms.sort(key=order.__getitem__)
        thm.parameters.sort(key=order.__getitem__)
        thm.standard.sort()
        thm.undeclared.sort()


# --------------------------------------------------------------------------- output


def render_markdown(report: Report) -> str:
    """The verification table: each theorem's status and axioms, then the axiom list."""
    n_ax = len(report.axioms)
    verified = sum(t.status == "verified" for t in report.theorems)
    out = [
        "# Machine-checked theorems: verification table",
        "",
        "Generated by `lejepa-id verify --table formal/VERIFICATION.md` from a from-scratch",
        f"compile ({report.coq_version or 'Coq'}, Coquelicot) and `Print Assumptions` on each",
        "main theorem of `formal/theorems.txt`. **verified**: rests only on the standard",
        "axioms of Coq's classical reals; **axiomatized**: also uses the named project axioms.",
        "",
        f"Overall: {'PASS' if report.ok else 'FAIL'}. {verified} of {len(report.theorems)} main",
        f"theorems fully verified; {n_ax} project axioms (the published Lean development",
        f"used 13); {len(report.parameters)} primitive notions (`Parameter`).",
        "",
        "| group | theorem | statement | status | project axioms used |",
        "|---|---|---|---|---|",
    ]
    for t in report.theorems:
        group = GROUP_TITLES.get(t.group, t.group)
        used = ", ".join(f"`{a}`" for a in t.axioms) or "none"
        if t.undeclared:
            used += "; UNDECLARED: " + ", ".join(f"`{u}`" for u in t.undeclared)
        if t.error:
            used += f"; {t.error}"
        out.append(f"| {group} | `{t.short_name}` | {t.statement} | {t.status} | {used} |")
    out += [
        "",
        "## Project axioms (facts assumed, each a standard result)",
        "",
        "| axiom | file | stands for |",
        "|---|---|---|",
    ]
    for d in report.axioms:
        out.append(f"| `{d.name}` | {d.file} | {_md_cell(d.doc)} |")
    out += [
        "",
        "## Primitive notions (declared, not defined)",
        "",
        "| parameter | file | meaning |",
        "|---|---|---|",
    ]
    for d in report.parameters:
        out.append(f"| `{d.name}` | {d.file} | {_md_cell(d.doc)} |")
    out += [
        "",
        "## Standard axioms allowed underneath (Coq's classical reals)",
        "",
        "| axiom | role |",
        "|---|---|",
    ]
    for name, role in STANDARD_AXIOMS.items():
        out.append(f"| `{name}` | {role} |")
    if report.errors:
        out += ["", "## Errors", ""] + [f"- {_md_cell(e)}" for e in report.errors]
    return "\n".join(out) + "\n"


def _md_cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def summary(report: Report) -> str:
    """A short plain-text summary for the terminal."""
    lines = [
        f"formal dir: {report.formal_dir}",
        f"{report.coq_version}; compile {report.compile_seconds:.1f} s, "
        f"audit {report.check_seconds:.1f} s",
    ]
    for t in report.theorems:
        extra = ", ".join(t.axioms) if t.axioms else ""
        if t.undeclared:
            extra += (" " if extra else "") + "UNDECLARED: " + ", ".join(t.undeclared)
        if t.error:
            extra += (" " if extra else "") + t.error
        lines.append(f"  [{t.status:>11}] {t.name}" + (f"  ({extra})" if extra else ""))
    lines.append(
        f"{len(report.axioms)} project axioms, {len(report.parameters)} primitive notions, "
        f"{sum(t.status == 'verified' for t in report.theorems)}/{len(report.theorems)} "
        "theorems fully verified"
    )
    for err in report.errors:
        lines.append(f"ERROR: {err}")
    lines.append("PASS" if report.ok else "FAIL")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``lejepa-id verify [--formal-dir DIR] [--table PATH] [--quiet]``.

    Exit status 0 when every main theorem checks, 1 on any failure, 2 when Coq is
    not installed.
    """
    parser = argparse.ArgumentParser(
        prog="lejepa-id verify",
        description="Compile the Coq proofs in formal/ from scratch and audit their axioms.",
    )
    parser.add_argument("--formal-dir", type=Path, default=None, help="default: the repo's formal/")
    parser.add_argument("--table", type=Path, default=None, help="write the Markdown table here")
    parser.add_argument("--quiet", action="store_true", help="print only PASS/FAIL and errors")
    args = parser.parse_args(argv)
    try:
        report = check(args.formal_dir)
    except CoqMissingError:
        print(f"coqc not found; install Coq and Coquelicot: {INSTALL_HINT}", file=sys.stderr)
        return 2
    if args.table is not None:
        args.table.parent.mkdir(parents=True, exist_ok=True)
        args.table.write_text(render_markdown(report))
    if args.quiet:
        for err in report.errors:
            print(f"ERROR: {err}")
        for t in report.theorems:
            if not t.ok:
                print(f"FAILED: {t.name}: {', '.join(t.undeclared) or t.error}")
        print("PASS" if report.ok else "FAIL")
    else:
        print(summary(report))
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
