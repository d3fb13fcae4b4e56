"""Reading the Coq sources and Coq's printed output: comments, declarations, the theorem
list, ``Print Assumptions`` entries, and the allow-list lookup."""

from __future__ import annotations

import re
from pathlib import Path

from lejepa_id.proofs import policy as policy
from lejepa_id.proofs.findings import Declared, TheoremResult

_DECL_RE = re.compile(
    r"\b(Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Hypotheses|Variable|Variables)"
    r"\s+([^:]+?)\s*:"
)


_ADMIT_RE = re.compile(r"\b(Admitted|admit|give_up)\b")


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
                blank(i)
                blank(i + 1)
                i += 2
                continue
            in_string = text[i] != '"'
            blank(i)
            i += 1
        elif text.startswith("(*", i):
            depth += 1
            blank(i)
            blank(i + 1)
            i += 2
        elif depth > 0 and text.startswith("*)", i):
            depth -= 1
            blank(i)
            blank(i + 1)
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


def banned_pattern() -> re.Pattern[str]:
    """The banned commands of the policy, their words separated by any whitespace.

    Coq's lexer separates the words of a command by any run of blanks, newlines or
    comments; comments are blanked by :func:`strip_comments` before the scan.
    """
    alternatives = [r"\s+".join(map(re.escape, b.split())) for b in policy.BANNED_COMMANDS]
    return re.compile(r"(?<![\w.'])(" + "|".join(alternatives) + r")(?![\w'])")


def scan_sources(formal_dir: Path, files: list[str]) -> list[str]:
    """Errors for ``Admitted``-like words and banned commands outside comments."""
    errors = []
    banned = banned_pattern()
    for fname in files:
        bare = strip_comments((formal_dir / fname).read_text())
        for m in _ADMIT_RE.finditer(bare):
            line = bare.count("\n", 0, m.start()) + 1
            errors.append(f"admitted proof: {fname}:{line}: {m.group(1)}")
        for m in banned.finditer(bare):
            line = bare.count("\n", 0, m.start()) + 1
            errors.append(f"banned command: {fname}:{line}: {' '.join(m.group(1).split())}")
    return errors


def parse_theorem_list(formal_dir: Path) -> list[TheoremResult]:
    """Read ``theorems.txt`` (``group | name | pin | statement``, ``#`` comments)."""
    out = []
    for raw in (formal_dir / "theorems.txt").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|", 3)]
        if len(parts) != 4 or not re.fullmatch(r"[0-9a-f]{64}", parts[2]):
            raise ValueError(f"expected 'group | name | 64-hex pin | statement': {raw!r}")
        out.append(TheoremResult(parts[0], parts[1], parts[3], expected_pin=parts[2]))
    return out


def list_problems(theorems: list[TheoremResult]) -> list[str]:
    """Required theorems missing from the list, duplicates and unknown groups."""
    names = [t.name for t in theorems]
    errors = [f"theorems.txt lacks required theorem {n}" for n in policy.REQUIRED_THEOREMS]
    errors = [e for e, n in zip(errors, policy.REQUIRED_THEOREMS) if n not in names]
    errors += [f"theorems.txt lists {n} twice" for n in sorted(set(names)) if names.count(n) > 1]
    errors += [
        f"theorems.txt: unknown group {t.group!r}"
        for t in theorems
        if t.group not in policy.GROUP_TITLES
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
