"""The Coq runs behind ``lejepa-id verify`` (:mod:`lejepa_id.proofs.checker`).

Two audit passes run after the from-scratch compile, each a generated ``.v`` file
compiled with ``coqc`` under ``Set Printing All``:

- pass A, per main theorem (in parallel chunks): its printed type and
  ``Print Assumptions``;
- the dependency walk (:mod:`lejepa_id.proofs.deps`): an Ltac2 program takes each
  statement's kernel term apart and follows every project reference through
  definitions, lemma types and inductive types, printing each with its full path;
  each project constant found is then printed (the printed definitions enter the
  statement's pin). No name is read out of printed text;
- pass B, per assumption met in pass A or declared in the sources: its type, its
  sort, and whether ``False`` or the assumption itself follows by ``easy``,
  ``tauto``, ``intuition`` or ``firstorder``; then the same walk over its type,
  through inductive types of every library, reports whether it can carry a proof.

Every run loads the whole tree (and with it the Reals and Coquelicot) before its first
command, so the steps share runs where their inputs allow: the statements' walk rides
on pass A's first chunk, and pass B, the proof-carrier walk, the assumptions' walk and
the ``Print`` of the definitions found so far make one run (:func:`_together`; a
second only when the assumptions reach project definitions not printed yet). When a
shared run fails or prints anything unexpected, the steps run again one at a time,
each failure reported as that step reports it.

Before the audit, :func:`kernel_recheck` runs ``coqchk`` over the compiled modules.
Every ``coqc``/``coqchk`` runs in :func:`clean_env` (no ``COQPATH``).

Every run starts by resetting all printing options (:data:`PRINTING`): a project
file may change them with ``Global Set`` (which survives ``Require``), and
``Printing Depth 1`` alone would print every statement as ``...``.

Output files carry a random token, and every ``.out`` file is deleted before the
audit, so that a source file cannot pre-write the audit's answers with ``Redirect``.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import subprocess
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lejepa_id.proofs import deps
from lejepa_id.proofs import policy as policy
from lejepa_id.proofs.findings import Assumption, Report, TheoremResult, meaning_text, pin
from lejepa_id.proofs.sources import _matches, allowed, module_of, parse_entries, resolve

#: Every option that changes what ``Check`` and ``Print`` show, reset to Coq's default
#: (width and depth to the largest), then ``Printing All``. Run after the project's
#: files are loaded, since a ``Global Set`` in one of them outlives ``Require``.
PRINTING = [
    "Set Printing Width 1000000.",
    "Set Printing Depth 1000000.",
    *(
        f"Set Printing {o}."
        for o in (
            "Allow Match Default Clause", "Factorizable Match Patterns", "Float",
            "Implicit Defensive", "Matching", "Notations", "Records", "Synth",
            "Use Implicit Types", "Wildcard",
        )
    ),
    *(
        f"Unset Printing {o}."
        for o in (
            "Coercions", "Compact Contexts", "Dependent Evars Line", "Existential Instances",
            "Goal Names", "Goal Tags", "Implicit", "Parentheses",
            "Primitive Projection Parameters", "Projections", "Raw Literals", "Unfocused",
            "Universes",
        )
    ),
    "Unset Short Module Printing.",
    "Unset Fast Name Printing.",
    "Unset Mangle Names.",
    "Set Printing All.",
]  # fmt: skip
#: Tactics that must not be able to refute (or prove) an assumption.
_SOLVERS = (
    "easy | tauto | intuition | firstorder | exact (H False) | destruct H | congruence"
    " | (destruct H as [? H]; solve [easy | tauto | intuition | firstorder | congruence])"
)
_TYPE_RE = re.compile(r"^\S+\s+:\s(.*)\Z", re.S)


def coq_version(coqc: str) -> str:
    """``The Coq Proof Assistant, version 8.16.1``."""
    proc = subprocess.run([coqc, "--version"], capture_output=True, text=True, check=False)
    return " ".join(proc.stdout.split()[:6])


# coqc processes now running (the audit runs several from a thread pool), so an
# interrupted verify can kill them instead of waiting for each to finish or time out.
_RUNNING: set[subprocess.Popen] = set()
_RUNNING_LOCK = threading.Lock()


def kill_running() -> None:
    """Kill every running coqc with its process group (a signal handler calls this
    before unwinding, so the pool's threads see their coqc end and return)."""
    with _RUNNING_LOCK:
        procs = list(_RUNNING)
    for proc in procs:
        _kill_group(proc)


def _kill_group(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # already ended
        os.killpg(proc.pid, signal.SIGKILL)


def _coqc(coqc: str, args: list[str], work: Path, timeout: float):
    """``coqc`` with a time limit; a timeout is a failed run, not a crash.

    Each coqc leads its own process group, killed whole on a timeout or when verify is
    interrupted (:func:`kill_running`), so no coqc outlives the command.
    """
    cmd = [coqc, *args]
    proc = subprocess.Popen(
        cmd,
        cwd=work,
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group (pgid = pid), also on 3.10
    )
    with _RUNNING_LOCK:
        _RUNNING.add(proc)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        proc.communicate()
        return subprocess.CompletedProcess(cmd, 124, "", f"coqc timed out after {timeout:.0f} s")
    except BaseException:
        _kill_group(proc)
        proc.wait()
        raise
    finally:
        with _RUNNING_LOCK:
            _RUNNING.discard(proc)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


#: Environment variables that add load paths or move the standard library: a
#: ``COQPATH`` entry could put a forged ``Coquelicot`` (or ``Coq``) ahead of the
#: installed one, so every coqc and coqchk runs without them.
_LOAD_PATH_VARS = ("COQPATH", "COQLIB", "COQCORELIB", "ROCQPATH", "ROCQLIB")


def clean_env() -> dict[str, str]:
    """The process environment without the load-path variables."""
    return {k: v for k, v in os.environ.items() if k not in _LOAD_PATH_VARS}


#: Names coqchk lists as assumed in the context of a clean build besides the
#: standard axioms: fields of the standard library's sealed modules (the reals'
#: primitive operations, ssreflect's ``under`` relation), not proof gaps.
KERNEL_CONTEXT_PREFIXES = (
    "Coq.Reals.Rdefinitions.RbaseSymbolsImpl.",
    "Coq.Reals.Rdefinitions.RinvImpl.",
    "Coq.ssr.ssrunder.Under_rel.",
)


def kernel_recheck(coqchk: str, opts: list[str], files: list[str], work: Path, timeout: float):
    """Errors from re-checking every compiled project module with ``coqchk``.

    ``coqchk`` is Coq's stand-alone kernel checker: it re-type-checks the ``.vo``
    files the audit loads (``-norec`` for each project module: the standard library
    and Coquelicot are trusted as installed), so a ``.vo`` that is not what its
    source compiles to, or a proof the kernel would reject, fails. Its context
    summary must list no assumption beyond the allowed ones, and nothing relying on
    type-in-type, unsafe fixpoints or assumed positivity.
    """
    paths = []
    for i, tok in enumerate(opts):
        if tok in ("-R", "-Q"):
            paths += ["-R", *opts[i + 1 : i + 3]]
    mods = [x for f in files for x in ("-norec", module_of(f))]
    proc = _coqc(coqchk, ["-silent", "-o", *paths, *mods], work, timeout)
    out = proc.stdout + proc.stderr
    if proc.returncode != 0:
        return [f"coqchk rejected the compiled tree: {' '.join(out.split())[-300:]}"]
    errors = []
    for section in ("type-in-type", "unsafe (co)fixpoints", "positivity is assumed"):
        line = next((ln for ln in out.splitlines() if section in ln), "")
        if not line.rstrip().endswith("<none>"):
            errors.append(f"coqchk: {line.strip() or section + ': no summary line'}")
    allowed_names = set(policy.STANDARD_AXIOMS) | set(policy.PROJECT_ASSUMPTIONS)
    for name in kernel_axioms(out):
        if name not in allowed_names and not name.startswith(KERNEL_CONTEXT_PREFIXES):
            errors.append(f"coqchk lists {name} as assumed: not on the allow-list")
    return errors


def kernel_axioms(output: str) -> list[str]:
    """The names under ``* Axioms:`` of a ``coqchk -o`` context summary."""
    names, inside = [], False
    for line in output.splitlines():
        if line.startswith("* "):
            inside = line.startswith("* Axioms:")
            continue
        if inside and line.strip():
            names.append(line.strip())
    return names


def _run(coqc: str, opts: list[str], work: Path, name: str, lines: list[str], timeout: float):
    path = work / f"{name}.v"
    path.write_text("\n".join(lines) + "\n")
    return _coqc(coqc, [*opts, *policy.CHECKER_COQC_FLAGS, path.name], work, timeout)


def compile_all(
    coqc: str,
    opts: list[str],
    files: list[str],
    work: Path,
    timeout: float,
    progress: Callable[[str], None] | None = None,
) -> str:
    """Compile every file in order; the first failure's message, or ``""``.
    ``progress`` hears ``coqc 3/12 File.v`` before each file is compiled."""
    for k, fname in enumerate(files, 1):
        if progress is not None:
            progress(f"coqc {k}/{len(files)} {fname}")
        proc = _coqc(coqc, [*opts, *policy.CHECKER_COQC_FLAGS, fname], work, timeout)
        if proc.returncode != 0:
            return f"coqc failed on {fname}:\n{(proc.stdout + proc.stderr).strip()}"
    for stale in work.glob("*.out"):
        stale.unlink()
    return ""


def _read(work: Path, tag: str) -> str:
    path = work / f"{tag}.out"
    return path.read_text() if path.exists() else ""


def _type_of(check_output: str) -> str:
    m = _TYPE_RE.match(check_output.strip())
    return " ".join(m.group(1).split()) if m else ""


#: The fewest theorems pass A gives one coqc of its own (a run loads the tree first).
MIN_CHUNK = 8


def _pass_a(coqc, opts, work, header, theorems, token, timeout, extra=()) -> str | None:
    """Type, statement dependencies and assumptions of every theorem. ``extra`` lines
    run after the first chunk's; that chunk's standard output, ``None`` if it failed."""

    def lines_for(k: int, name: str) -> list[str]:
        return [
            f'Redirect "{token}_type_{k}" Check @{name}.',
            f'Redirect "{token}_assume_{k}" Print Assumptions {name}.',
        ]

    # Each chunk is a coqc that loads the whole tree first: a chunk of a few theorems
    # would cost more in loading than it saves in parallel.
    workers = max(1, min(os.cpu_count() or 1, 8, -(-len(theorems) // MIN_CHUNK)))
    chunks = [list(range(len(theorems)))[w::workers] for w in range(workers)]

    def run_chunk(wc: tuple[int, list[int]]) -> str | None:
        body = [ln for k in wc[1] for ln in lines_for(k, theorems[k].name)]
        body += list(extra) if wc[0] == 0 else []
        proc = _run(coqc, opts, work, f"LejepaVerifyA{token}{wc[0]}", header + body, timeout)
        return proc.stdout if proc.returncode == 0 else None

    with ThreadPoolExecutor(max_workers=workers) as pool:
        first = list(pool.map(run_chunk, enumerate(chunks)))[0]
    # coqc stops at the first error of a chunk: retry each incomplete theorem alone.
    for k, thm in enumerate(theorems):
        if _read(work, f"{token}_assume_{k}").strip():
            continue
        one = _run(
            coqc, opts, work, f"LejepaVerifyA{token}x", header + lines_for(k, thm.name), timeout
        )
        if one.returncode != 0:
            thm.error = (
                "not found or not inspectable: "
                + " ".join((one.stdout + one.stderr).split())[-200:]
            )
    return first


class Definitions:
    """The project definitions that statements depend on, as Coq itself finds them.

    :mod:`lejepa_id.proofs.deps` walks each statement's kernel term in Ltac2 and
    follows every project reference (constant bodies, inductive types and their
    constructors) whatever its spelling; each project node found is then printed
    (``Print`` under the audit's options) by its full path, for the pins.
    """

    def __init__(self, coqc, opts, work, header, token, timeout) -> None:
        self._run = lambda name, body: _run(coqc, opts, work, name, header + body, timeout)
        self._work, self._token = work, token
        self._round = 0
        self.graph = deps.Graph()
        self.printed: dict[str, str] = {}  # project full name -> printed definition
        self.errors: list[str] = []

    def walk(self, names: dict[str, str]) -> deps.Graph:
        """Walk the types of the named constants; print the project nodes found."""
        tag = f"LejepaVerifyW{self._token}{self._round}"
        proc = self._run(tag, deps.statements_script(names))
        found = deps.parse(proc.stdout)
        if proc.returncode != 0 or found.odd:
            detail = " ".join((proc.stdout + proc.stderr).split())[-300:]
            self.errors.append(f"dependency walk failed: {detail}")
        self.absorb(found)
        self.print_new()
        return found

    def absorb(self, found: deps.Graph) -> None:
        """Add a walk's graph (a primitive projection in it is an error)."""
        if found.projections:
            self.errors.append(
                "a statement or definition uses a primitive projection, which the "
                "dependency walk cannot follow (no Set Primitive Projections)"
            )
        self.graph.merge(found)

    def print_new(self) -> None:
        """Print every project node of the graph not printed yet (one coqc)."""
        lines, read = self.print_lines()
        self._run(f"LejepaVerifyD{self._token}{self._round - 1}", lines)
        read()

    def print_lines(self) -> tuple[list[str], Callable[[], None]]:
        """The ``Print`` commands for every project node not printed yet, and what
        reads their output once a coqc ran them (:meth:`print_new` runs them alone)."""
        new = sorted(d for d in self.graph.edges if _project(d) and d not in self.printed)
        tag = f"{self._token}_def{self._round}"
        self._round += 1

        def read() -> None:
            for j, d in enumerate(new):
                self.printed[d] = " ".join(_read(self._work, f"{tag}_{j}").split())
                if not self.printed[d]:
                    self.errors.append(f"could not print the definition of {d}")

        return [f'Redirect "{tag}_{j}" Print {d}.' for j, d in enumerate(new)], read

    def closure(self, refs: list[str]) -> list[str]:
        """The project constants ``refs`` reach, transitively (themselves included)."""
        return self.graph.closure(refs, policy.LIBRARY)

    def external(self, node: str) -> list[str]:
        """The references of a project node outside the project (for the kinds)."""
        return self.graph.external(node, policy.LIBRARY)

    def internal(self, node: str) -> list[str]:
        """The project references of a project node (itself excluded)."""
        return self.graph.internal(node, policy.LIBRARY)


def _project(path: str) -> bool:
    return deps.is_project(path, policy.LIBRARY)


def law_premises_deep(outside_head: list[str], defs: Definitions) -> list[str]:
    """Short names of the law records (:data:`~lejepa_id.proofs.policy.LAW_RECORDS`)
    that a statement reaches other than through the head of its conclusion.

    A statement whose conclusion is a law record applied to a model (the model
    proving the laws) has the record at its head; anywhere else, directly or
    through a definition (wrapping ``L2Laws G`` in one changes nothing), the record
    is a premise. ``outside_head`` are the references Coq's walk found outside the
    head (:mod:`lejepa_id.proofs.deps`).
    """
    reach = set(defs.closure(outside_head))
    return sorted(q.split(".")[-1] for q in policy.LAW_RECORDS if q in reach)


def _pass_b(coqc, opts, work, header, names, token, timeout) -> str:
    """Types, sorts and solver tests of the assumptions."""
    body = _pass_b_lines(names, token)
    proc = _run(coqc, opts, work, f"LejepaVerifyB{token}", header + body, timeout)
    if proc.returncode != 0:
        return (
            "assumption inspection failed: " + " ".join((proc.stdout + proc.stderr).split())[-300:]
        )
    return proc.stdout


def _pass_b_lines(names: list[str], token: str) -> list[str]:
    body = []
    for j, name in enumerate(names):
        stmt = f"ltac:(let T := type of @{name} in exact T)"
        body += [
            f'Redirect "{token}_atype_{j}" Check @{name}.',
            f'Redirect "{token}_sort_{j}" Check ltac:(let T := type of @{name} in '
            "let s := type of T in exact s).",
            f"Goal False. pose proof @{name} as H. tryif timeout 5 (solve [{_SOLVERS}]) "
            f'then idtac "LEJEPA-REFUTED {j}" else idtac "LEJEPA-KEPT {j}". Abort.',
            f"Goal {stmt}. tryif timeout 5 (solve [easy | tauto | intuition]) "
            f'then idtac "LEJEPA-TRIVIAL {j}" else idtac "LEJEPA-KEPT {j}". Abort.',
        ]
    return body


def audit(coqc: str, opts: list[str], files: list[str], work: Path, report: Report, timeout: float):
    """Fill ``report`` with the statement pins, assumptions and their tests."""
    from lejepa_id.proofs import statements

    modules = [module_of(f) for f in files]
    header = [f"Require {m}." for m in modules] + PRINTING
    token = secrets.token_hex(4)
    thms = report.theorems
    # The statements' walk rides on pass A's first chunk (after a marker line): it is
    # the walk the audit needs when every theorem is found, as it normally is.
    every = {str(k): t.name for k, t in enumerate(thms)}
    mark = f"LEJEPA-PART-{token}"
    walk = ['Goal True. idtac "' + mark + '". Abort.', *deps.statements_script(every)]
    first = _pass_a(coqc, opts, work, header, thms, token, timeout, walk)
    types: dict[int, str] = {}
    printed: dict[int, list[str]] = {}
    for k, thm in enumerate(thms):
        if thm.error:
            continue
        sections, odd = parse_entries(_read(work, f"{token}_assume_{k}"))
        if odd:
            thm.error = "unexpected Print Assumptions output: " + "; ".join(odd)[:200]
        printed[k] = [n for n, _ in sections.get("Axioms", [])]
        types[k] = _type_of(_read(work, f"{token}_type_{k}"))
    stated = {str(k): thms[k].name for k in types}
    names = sorted({n for ns in printed.values() for n in ns})
    names += [
        d.qualified for d in report.declared if not any(_matches(n, d.qualified) for n in names)
    ]
    keys = {f"a{j}": name for j, name in enumerate(names)}
    walked_by_a = None
    if first is not None and stated == every and first.count(mark) == 1:
        walked_by_a = first.split(mark, 1)[1]
    together = _together(coqc, opts, work, header, stated, names, keys, token, timeout, walked_by_a)
    if together is not None:
        defs, walked, out, carried, a_walk = together
    else:  # one step at a time, each failure reported as that step's
        defs = Definitions(coqc, opts, work, header, token, timeout)
        walked = defs.walk(stated)
        out = _pass_b(coqc, opts, work, header, names, token, timeout)
        if out.startswith("assumption inspection failed"):
            report.errors.append(out)
            return
        carried = _carriers(coqc, opts, work, header, keys, token, timeout, report)
        a_walk = defs.walk(keys)
    if defs.errors:  # without Coq's dependencies nothing can be pinned
        report.errors += defs.errors
        return
    for j, name in enumerate(names):
        report.assumptions[name] = Assumption(
            printed=name,
            type_text=_type_of(_read(work, f"{token}_atype_{j}")),
            sort=_read(work, f"{token}_sort_{j}").split(":")[0].strip(),
            refuted=f"LEJEPA-REFUTED {j}\n" in out + "\n",
            trivial=f"LEJEPA-TRIVIAL {j}\n" in out + "\n",
            qualified=resolve(name),
            carriers=sorted(set(carried.carriers.get(f"a{j}", []))),
            prop_sort=f"a{j}" in carried.prop_sort,
            empties=sorted(set(carried.empties.get(f"a{j}", []))),
        )
        # An assumption is pinned like a statement: its type and the project
        # definitions it depends on, transitively.
        report.assumptions[name].uses = defs.closure(a_walk.statement.get(f"a{j}", []))
    report.definitions = dict(defs.printed)
    report.definition_refs = {d: defs.external(d) for d in defs.printed}
    report.definition_edges = {d: defs.internal(d) for d in defs.printed}
    for a in report.assumptions.values():
        a.meaning = meaning_text(a.type_text, a.uses, report.definitions)
    for k, thm in enumerate(thms):
        if not thm.error:
            refs = walked.statement.get(str(k), [])
            _classify(thm, types[k], defs.closure(refs), report, printed[k])
            thm.refs = sorted({r for r in refs if not _project(r)})
            thm.laws = law_premises_deep(walked.outside_head.get(str(k), []), defs)
    report.errors += assumption_errors(report)
    statements.check(report, work / statements.FILENAME)


def _together(coqc, opts, work, header, stated, names, keys, token, timeout, walked_by_a):
    """The steps after pass A that need only its results, in one or two coqc runs
    instead of six: pass B, the statements' walk (unless ``walked_by_a``, its output
    from pass A's first chunk), the proof-carrier walk and the assumptions' walk in one
    file (each part's output after a marker line of its own), with the ``Print`` of
    every project node the statements' walk found; then, only if the assumptions' walk
    found more, their ``Print``. None of these commands changes Coq's environment
    (``Check``, ``Print``, ``Goal ... Abort``, ``Ltac2 Eval``), so each part prints what
    it prints alone. ``(defs, walked, pass_b_output, carried, a_walk)``, or ``None``
    when anything went wrong (a failed run, odd output, a primitive projection, a
    definition not printed): the caller then runs the steps one at a time, so that
    every failure is reported exactly as that step reports it.
    """
    mark = f"LEJEPA-PART-{token}"
    defs = Definitions(coqc, opts, work, header, token, timeout)
    first: list[str] = []
    if walked_by_a is not None:
        walked = deps.parse(walked_by_a)
        if walked.odd:
            return None
        defs.absorb(walked)
        printing, read = defs.print_lines()
        first = [*printing, f'Goal True. idtac "{mark}". Abort.']
    statements = deps.statements_script(stated)
    assert statements[0] == deps.PRELUDE  # loaded once, after pass B's Ltac1 proofs
    scripts = [deps.assumptions_script(keys), deps.statements_script(keys)]
    if walked_by_a is None:
        scripts.insert(0, statements)
    lines = [*first, *_pass_b_lines(names, token)]
    for n, script in enumerate(scripts):
        if n == 0:
            lines += [f'Goal True. idtac "{mark}". Abort.', *script]
        else:
            lines += [f'Ltac2 Eval Message.print (Message.of_string "{mark}").', *script[1:]]
    proc = _run(coqc, opts, work, f"LejepaVerifyT{token}", header + lines, timeout)
    parts: list[list[str]] = [[]]
    for line in proc.stdout.splitlines(keepends=True):
        if line.strip() == mark:
            parts.append([])
        else:
            parts[-1].append(line)
    texts = ["".join(p) for p in parts[len(first) and 1 :]]
    if proc.returncode != 0 or len(texts) != len(scripts) + 1:
        return None
    out, *walks = texts
    if walked_by_a is None:
        walked = deps.parse(walks.pop(0))
        if walked.odd:
            return None
        defs.absorb(walked)
    else:
        read()
    carried, a_walk = (deps.parse(w) for w in walks)
    if a_walk.odd:
        return None
    defs.absorb(a_walk)
    if any(_project(d) and d not in defs.printed for d in defs.graph.edges):
        defs.print_new()
    if defs.errors:
        return None
    return defs, walked, out, carried, a_walk


def _carriers(coqc, opts, work, header, keys, token, timeout, report) -> deps.Graph:
    """Coq's verdict on which assumption types can carry a proof."""
    lines = header + deps.assumptions_script(keys)
    proc = _run(coqc, opts, work, f"LejepaVerifyC{token}", lines, timeout)
    found = deps.parse(proc.stdout)
    if proc.returncode != 0:
        detail = " ".join((proc.stdout + proc.stderr).split())[-300:]
        report.errors.append(f"proof-carrier walk failed: {detail}")
    return found


def _classify(thm: TheoremResult, typ: str, deps: list[str], report: Report, printed) -> None:
    thm.printed_type, thm.uses = typ, deps
    thm.actual_pin = pin(meaning_text(typ, deps, report.definitions))
    if thm.actual_pin != thm.expected_pin:
        thm.error = (
            f"statement differs from its pin ({thm.expected_pin} pinned, {thm.actual_pin} found)"
        )
    thm.assumptions = printed
    thm.laws = law_premises(typ)
    for name in printed:
        a = report.assumptions[name]
        entry = allowed(a.qualified) if a.qualified else None
        if entry is None:
            thm.undeclared.append(name)
        elif entry.type_pin != a.pin:
            thm.undeclared.append(f"{name} (type differs from the allow-list)")
        elif a.qualified in policy.STANDARD_AXIOMS:
            thm.standard.append(a.qualified)
        elif entry.kind == "axiom":
            thm.axioms.append(name.split(".")[-1])
        else:
            thm.parameters.append(name.split(".")[-1])
    for lst in (thm.axioms, thm.parameters, thm.standard, thm.undeclared):
        lst.sort()


def law_premises(typ: str) -> list[str]:
    """Short names of the law records (:data:`~lejepa_id.proofs.policy.LAW_RECORDS`)
    that a printed statement mentions anywhere but at its head.

    A statement whose conclusion is a law record (a model proving the laws) starts
    with its name; anywhere else the record is a premise, or sits inside one.
    """
    found = []
    for qualified in policy.LAW_RECORDS:
        short = qualified.split(".")[-1]
        suffix = re.escape(".".join(qualified.split(".")[-2:]))
        pattern = rf"(?<![\w'.])@?(?:{re.escape(policy.LIBRARY)}\.)?{suffix}(?![\w'])"
        if any(m.start() > 0 for m in re.finditer(pattern, typ.strip())):
            found.append(short)
    return sorted(found)


def carries_proof(a: Assumption) -> str:
    """Why the type of a (non-Prop) assumption can carry a proof, or ``""``.

    Decided by Coq (:mod:`lejepa_id.proofs.deps`): an inductive type reachable from
    the type (through project definitions, type-level definitions of any library
    such as ``DReal``, and the constructors of any inductive, of any library) with a
    constructor argument of sort ``Prop`` (a subset type ``{x | P x}``, a
    ``sumbool``, a record with a proof field), or with no constructor at all
    (``Empty_set``), or the sort ``Prop`` in the type or a project definition it
    reaches (a family into ``Prop``). A parameter of such a type smuggles a fact
    (possibly ``False``) past the rule that facts are named axioms. Conservative: a
    function that merely takes such a value is refused too.
    """
    if a.carriers:
        return "its type reaches " + ", ".join(a.carriers) + ", with a field of sort Prop"
    if a.empties:
        return (
            "its type reaches " + ", ".join(a.empties) + ", an inductive type with no "
            "constructor (a value of it proves anything)"
        )
    if a.prop_sort:
        return "its type mentions the sort Prop"
    return ""


def assumption_errors(report: Report) -> list[str]:
    """Errors about the assumptions themselves, independent of the theorems."""
    errors = []
    for a in report.assumptions.values():
        if a.qualified in policy.STANDARD_AXIOMS:
            continue
        entry = policy.PROJECT_ASSUMPTIONS.get(a.qualified)
        kinds = {d.kind for d in report.declared if _matches(a.printed, d.qualified)}
        kinds.add(entry.kind if entry else "")
        if not a.sort:
            errors.append(f"assumption {a.printed}: could not read its type")
        if a.sort == "Prop" and "parameter" in kinds:
            errors.append(f"Parameter {a.printed} has sort Prop: a fact must be a named Axiom")
        elif "parameter" in kinds and (why := carries_proof(a)):
            errors.append(
                f"Parameter {a.printed} can carry a proof ({why}): treated like Prop, "
                "a fact must be a named Axiom"
            )
        if a.refuted:
            errors.append(
                f"assumption {a.printed} is refutable: False follows from it by {_SOLVERS}"
            )
        if a.trivial and a.sort == "Prop":
            errors.append(f"assumption {a.printed} is provable by easy/tauto: not an axiom")
        if entry is None:
            errors.append(f"assumption {a.printed} is not on the allow-list (verify_policy.py)")
        elif entry.type_pin != a.pin:
            errors.append(f"assumption {a.printed}: type pin {a.pin} differs from the allow-list")
    return errors
