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
   derive ``False`` or that they prove outright (a pretend axiom), and a
   ``Parameter`` whose type can carry a proof (Coq decides: an inductive with a
   field of sort ``Prop`` reachable from its type; :mod:`lejepa_id.proofs.deps`);
6. re-checks the compiled ``.vo`` files with ``coqchk``, Coq's stand-alone kernel
   checker (:func:`~lejepa_id.proofs.coq.kernel_recheck`).

Every ``coqc``/``coqchk`` runs with ``COQPATH`` (and the other load-path variables)
removed from its environment, so no library outside the installed ones is loaded.
Pins are full SHA-256 hashes. The project definitions a statement depends on are
found by Coq's own walk of the terms (:mod:`lejepa_id.proofs.deps`), not by reading
names out of printed text.

:func:`check` returns a :class:`Report`; :func:`render_markdown` renders the table of
``formal/VERIFICATION.md``. The Coq runs live in :mod:`lejepa_id.proofs.coq`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lejepa_id.proofs import coq, kinds
from lejepa_id.proofs.findings import Report
from lejepa_id.proofs.report import pins_text, render_markdown, summary
from lejepa_id.proofs.sources import (
    list_problems,
    parse_coqproject,
    parse_declared,
    parse_theorem_list,
    scan_sources,
)
from lejepa_id.resources import shipped_dir

#: The one-line install hint printed when Coq is missing.
INSTALL_HINT = "apt-get install -y coq libcoq-coquelicot"


class CoqMissingError(RuntimeError):
    """``coqc`` is not on the PATH."""


def coqc_path() -> str:
    """Path of ``coqc``, or raise :class:`CoqMissingError`."""
    path = shutil.which("coqc")
    if path is None:
        raise CoqMissingError(INSTALL_HINT)
    return path


def default_formal_dir() -> Path:
    """The repository's ``formal/`` (or an installed wheel's copy), else above the cwd."""
    # The checkout's formal/ (a source tree), else the copy an installed wheel bundles.
    candidates = [shipped_dir("formal")]
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


def check(
    formal_dir: str | Path | None = None,
    timeout: float = 3600.0,
    progress: Callable[[str], None] | None = None,
) -> Report:
    """Compile ``formal_dir`` from scratch in a temporary copy and audit it.

    Raises :class:`CoqMissingError` if ``coqc`` is not installed; every other
    problem is recorded in the returned report. ``progress`` hears one line as each
    stage starts (``coqc 3/12 File.v``, the kernel re-check, the audit): a whole check
    takes minutes, and ``lejepa-id verify`` prints them as they come.
    """
    say = progress or (lambda _line: None)
    coqc = coqc_path()
    src = Path(formal_dir) if formal_dir is not None else default_formal_dir()
    report = Report(formal_dir=str(src))
    if not (src / "_CoqProject").is_file():
        report.errors.append(f"no _CoqProject in {src}")
        return report
    report.coq_version = coq.coq_version(coqc)
    with tempfile.TemporaryDirectory(prefix="lejepa-verify-") as tmp:
        work = Path(tmp) / "formal"
        say(f"copying {src} to a temporary folder (built files left out)")
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
        err = coq.compile_all(coqc, opts, files, work, timeout, progress=say)
        report.compile_seconds = time.perf_counter() - start
        if err:
            report.errors.append(err)
            return report
        coqchk = shutil.which("coqchk")
        if coqchk is None:
            report.errors.append("coqchk not found: the compiled tree cannot be re-checked")
            return report
        say(f"coqchk: re-checking the {len(files)} compiled files in Coq's kernel checker")
        report.errors += coq.kernel_recheck(coqchk, opts, files, work, timeout)
        say(
            f"auditing {len(report.theorems)} theorems: statements against their pins, "
            "Print Assumptions, each assumption tested"
        )
        start = time.perf_counter()
        coq.audit(coqc, opts, files, work, report, timeout)
        # A definition that names an integral, or reaches one through other
        # definitions, must be a reviewed integral notion (kinds are derived
        # through those only).
        used = {u for t in report.theorems for u in t.uses}
        used |= {u for a in report.assumptions.values() for u in a.uses}
        report.errors += kinds.integral_problems(
            used, report.definitions, report.definition_refs, report.definition_edges
        )
        report.check_seconds = time.perf_counter() - start
    return report


# The slowest file compiles in well under a minute on a laptop; 15 minutes per coqc call
# leaves room for a slow machine and still ends a hung proof search the same session.
DEFAULT_TIMEOUT_S = 900.0


def _seconds(value: str) -> float:
    """``--timeout``: a positive number of seconds (argparse reports the error in one line)."""
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{value!r} must be a positive number of seconds")
    return seconds


def _say(line: str) -> None:
    """A progress line on stderr, at once (the summary goes to stdout at the end)."""
    print(f"verify: {line}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``lejepa-id verify [--formal-dir DIR] [--table PATH] [--statements PATH]
    [--quiet] [--pins]``.

    Exit status 0 when every main theorem checks, 1 on any failure, 2 when Coq is
    not installed.
    """
    from lejepa_id.errors import OneLineParser  # bad input: one line, not the usage

    parser = OneLineParser(
        prog="lejepa-id verify",
        description="Compile the Coq proofs in formal/ from scratch and audit them.",
    )
    parser.add_argument("--formal-dir", type=Path, default=None, help="default: the repo's formal/")
    parser.add_argument("--table", type=Path, default=None, help="write the Markdown table here")
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="print only PASS/FAIL and errors (no progress lines on stderr)",
    )
    parser.add_argument("--pins", action="store_true", help="print the current statement pins")
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"limit per coqc call, killed past it (default {DEFAULT_TIMEOUT_S:.0f})",
    )
    parser.add_argument(
        "--statements",
        type=Path,
        default=None,
        help="write the printed statements behind the current pins here "
        "(formal/statements.txt; commit it with the new pins)",
    )
    args = parser.parse_args(argv)
    if args.formal_dir is not None and not args.formal_dir.is_dir():
        what = "a file" if args.formal_dir.exists() else "missing"
        parser.error(f"--formal-dir {str(args.formal_dir)!r} is {what}, not a folder of proofs")
    try:
        report = check(args.formal_dir, timeout=args.timeout, progress=None if args.quiet else _say)
    except CoqMissingError:
        print(f"coqc not found; install Coq and Coquelicot: {INSTALL_HINT}", file=sys.stderr)
        return 2
    if args.table is not None:
        args.table.parent.mkdir(parents=True, exist_ok=True)
        tmp = args.table.with_suffix(".tmp")
        tmp.write_text(render_markdown(report))
        tmp.replace(args.table)
    if args.statements is not None:
        from lejepa_id.proofs import statements

        tmp = args.statements.with_suffix(".tmp")
        tmp.write_text(statements.render(report))
        tmp.replace(args.statements)
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
