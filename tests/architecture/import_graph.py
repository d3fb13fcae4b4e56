"""The package's module-level import graph, read from the source (nothing is imported).

An edge A -> B means that importing A runs B's body: B is a module A imports at module
level (``TYPE_CHECKING`` blocks excluded), or one of B's parent packages. Parents of A
itself are left out, since Python initialises them before A.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "lejepa_id"
SRC = Path(__file__).resolve().parents[2] / "src" / PACKAGE


def module_name(path: Path, src: Path = SRC) -> str:
    rel = path.relative_to(src.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(src: Path = SRC) -> dict[str, Path]:
    return {module_name(p, src): p for p in src.rglob("*.py")}


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _module_level_imports(tree: ast.Module, here: str, is_pkg: bool) -> list[str]:
    found: list[str] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                found.extend(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pkg = here if is_pkg else here.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        pkg = pkg.rpartition(".")[0]
                    base = f"{pkg}.{base}" if base else pkg
                found.append(base)
                found.extend(f"{base}.{a.name}" for a in node.names)
            elif isinstance(node, ast.If) and not _is_type_checking(node):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for h in node.handlers:
                    visit(h.body)
                visit(node.orelse)
                visit(node.finalbody)

    visit(tree.body)
    return found


def _all_imports(tree: ast.Module, here: str, is_pkg: bool) -> list[str]:
    """Every import anywhere in the module: in functions and TYPE_CHECKING blocks too."""
    wrapper = ast.Module(
        body=[n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)],
        type_ignores=[],
    )
    return _module_level_imports(wrapper, here, is_pkg)


def graph(everywhere: bool = False, src: Path = SRC) -> dict[str, set[str]]:
    """The import graph; ``everywhere`` also counts imports inside functions and
    ``TYPE_CHECKING`` blocks (a cycle there is a design cycle, even if it runs). ``src``:
    the package folder to read (a test reads a planted copy)."""
    mods = modules(src)
    collect = _all_imports if everywhere else _module_level_imports
    edges: dict[str, set[str]] = {}
    for name, path in mods.items():
        tree = ast.parse(path.read_text())
        own = set(_ancestors(name))
        out: set[str] = set()
        for target in collect(tree, name, path.name == "__init__.py"):
            if not target.startswith(PACKAGE):
                continue
            for t in [*_ancestors(target), target]:
                if t in mods and t != name and t not in own:
                    out.add(t)
        edges[name] = out
    return edges


def package_of(module: str) -> str:
    """The top-level subpackage (or module) of the package that ``module`` belongs to:
    ``lejepa_id.worlds.world`` -> ``worlds``; the package itself is ``lejepa_id``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def package_edges(edges: dict[str, set[str]]) -> dict[tuple[str, str], list[str]]:
    """Package -> package edges of a module graph, each with the module imports behind it."""
    out: dict[tuple[str, str], list[str]] = {}
    for a, targets in edges.items():
        for b in sorted(targets):
            pa, pb = package_of(a), package_of(b)
            if pa != pb:
                out.setdefault((pa, pb), []).append(f"{a} -> {b}")
    return out


def violations(
    edges: dict[str, set[str]], allowed: dict[str, set[str]]
) -> dict[tuple[str, str], list[str]]:
    """The package edges of ``edges`` that ``allowed`` (package -> packages it may import)
    does not permit, each with the imports behind it."""
    return {
        (pa, pb): why
        for (pa, pb), why in package_edges(edges).items()
        if pb not in allowed.get(pa, set())
    }


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return out


def function_level_imports() -> dict[str, int]:
    """Imports of the package inside functions, per module."""
    counts: dict[str, int] = {}
    for name, path in modules().items():
        tree = ast.parse(path.read_text())
        n = 0
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                for node in ast.walk(fn):
                    if (
                        isinstance(node, ast.ImportFrom)
                        and (node.module or "").startswith(PACKAGE)
                        or isinstance(node, ast.Import)
                        and any(a.name.startswith(PACKAGE) for a in node.names)
                    ):
                        n += 1
        if n:
            counts[name] = n
    return counts


if __name__ == "__main__":
    for everywhere in (False, True):
        for c in cycles(graph(everywhere)):
            print("cycle" + (" (any import)" if everywhere else "") + ":", " ".join(c))
    f = function_level_imports()
    print("function-level imports:", sum(f.values()), f)
