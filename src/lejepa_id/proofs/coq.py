"""The Coq runs behind ``lejepa-id verify`` (:mod:`lejepa_id.proofs.checker`).

Two audit passes run after the from-scratch compile, each a generated ``.v`` file
compiled with ``coqc`` under ``Set Printing All``:

- pass A, per main theorem (in parallel chunks): its printed type and
  ``Print Assumptions``;
- definition rounds: ``Print`` of every project constant a statement mentions,
  then of every project constant those definitions mention, until closed (the
  printed definitions enter the statement's pin);
- pass B, per assumption met in pass A or declared in the sources: its type, its
  sort, and whether ``False`` or the assumption itself follows by ``easy``,
  ``tauto``, ``intuition`` or ``firstorder``.

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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from lejepa_id.proofs import policy as policy
from lejepa_id.proofs.findings import Assumption, Report, TheoremResult, pin
from lejepa_id.proofs.sources import _matches, allowed, module_of, parse_entries, resolve

PRINTING = ["Set Printing All.", "Set Printing Width 1000000."]
#: Tactics that must not be able to refute (or prove) an assumption.
_SOLVERS = "easy | tauto | intuition | firstorder | exact (H False) | destruct H | congruence"
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


def _run(coqc: str, opts: list[str], work: Path, name: str, lines: list[str], timeout: float):
    path = work / f"{name}.v"
    path.write_text("\n".join(lines) + "\n")
    return _coqc(coqc, [*opts, *policy.CHECKER_COQC_FLAGS, path.name], work, timeout)


def compile_all(coqc: str, opts: list[str], files: list[str], work: Path, timeout: float) -> str:
    """Compile every file in order; the first failure's message, or ``""``."""
    for fname in files:
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


def _pass_a(coqc, opts, work, header, theorems, token, timeout) -> None:
    """Type, statement dependencies and assumptions of every theorem."""

    def lines_for(k: int, name: str) -> list[str]:
        return [
            f'Redirect "{token}_type_{k}" Check @{name}.',
            f'Redirect "{token}_assume_{k}" Print Assumptions {name}.',
        ]

    workers = max(1, min(os.cpu_count() or 1, 8, len(theorems)))
    chunks = [list(range(len(theorems)))[w::workers] for w in range(workers)]

    def run_chunk(wc: tuple[int, list[int]]) -> None:
        body = [ln for k in wc[1] for ln in lines_for(k, theorems[k].name)]
        _run(coqc, opts, work, f"LejepaVerifyA{token}{wc[0]}", header + body, timeout)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(run_chunk, enumerate(chunks)))
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


def project_names(text: str, modules: set[str]) -> set[str]:
    """Project constants named in printed Coq text (``Forward.whitened``, ...).

    Without ``Import``, Coq prints every project name with its module.
    """
    found = set()
    for tok in re.findall(r"(?<![\w'.@])@?([A-Za-z_][\w']*(?:\.[A-Za-z_][\w']*)+)", text):
        parts = tok.split(".")
        if parts[0] == policy.LIBRARY:
            parts = parts[1:]
        if len(parts) >= 2 and parts[0] in modules:
            found.add(tok)
    return found


def _definitions(coqc, opts, work, header, roots, modules, token, timeout) -> dict[str, str]:
    """Printed definitions of ``roots`` and of every project constant they mention."""
    defs: dict[str, str] = {}
    todo = sorted(roots)
    rnd = 0
    while todo:
        body = [f'Redirect "{token}_def{rnd}_{j}" Print {d}.' for j, d in enumerate(todo)]
        _run(coqc, opts, work, f"LejepaVerifyD{token}{rnd}", header + body, timeout)
        new: set[str] = set()
        for j, d in enumerate(todo):
            defs[d] = " ".join(_read(work, f"{token}_def{rnd}_{j}").split())
            new |= project_names(defs[d], modules)
        todo = sorted(new - set(defs))
        rnd += 1
    return defs


def _pass_b(coqc, opts, work, header, names, token, timeout) -> str:
    """Types, sorts and solver tests of the assumptions."""
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
    proc = _run(coqc, opts, work, f"LejepaVerifyB{token}", header + body, timeout)
    if proc.returncode != 0:
        return (
            "assumption inspection failed: " + " ".join((proc.stdout + proc.stderr).split())[-300:]
        )
    return proc.stdout


def audit(coqc: str, opts: list[str], files: list[str], work: Path, report: Report, timeout: float):
    """Fill ``report`` with the statement pins, assumptions and their tests."""
    modules = [module_of(f) for f in files]
    short = {m.split(".")[-1] for m in modules}
    header = [f"Require {m}." for m in modules] + PRINTING
    token = secrets.token_hex(4)
    thms = report.theorems
    _pass_a(coqc, opts, work, header, thms, token, timeout)
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
    roots = {n for t in types.values() for n in project_names(t, short)}
    defs = _definitions(coqc, opts, work, header, roots, short, token, timeout)
    names = sorted({n for ns in printed.values() for n in ns})
    names += [
        d.qualified for d in report.declared if not any(_matches(n, d.qualified) for n in names)
    ]
    out = _pass_b(coqc, opts, work, header, names, token, timeout)
    if out.startswith("assumption inspection failed"):
        report.errors.append(out)
        return
    for j, name in enumerate(names):
        report.assumptions[name] = Assumption(
            printed=name,
            type_text=_type_of(_read(work, f"{token}_atype_{j}")),
            sort=_read(work, f"{token}_sort_{j}").split(":")[0].strip(),
            refuted=f"LEJEPA-REFUTED {j}\n" in out + "\n",
            trivial=f"LEJEPA-TRIVIAL {j}\n" in out + "\n",
            qualified=resolve(name),
        )
    for k, thm in enumerate(thms):
        if not thm.error:
            deps = _closure(project_names(types[k], short), defs, short)
            _classify(thm, types[k], deps, defs, printed[k], report)
    report.errors += assumption_errors(report)


def _closure(roots: set[str], defs: dict[str, str], modules: set[str]) -> list[str]:
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        d = todo.pop()
        if d not in seen:
            seen.add(d)
            todo += project_names(defs.get(d, ""), modules)
    return sorted(seen)


def _classify(thm: TheoremResult, typ: str, deps, defs, printed, report: Report) -> None:
    thm.actual_pin = pin(typ + "\n" + "\n".join(f"{d} := {defs[d]}" for d in deps))
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
