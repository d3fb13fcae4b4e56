"""The package graph of docs/layout.md: every package imports only the packages its line
names, the lines themselves close no cycle, and a planted upward import is caught."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from import_graph import SRC, cycles, graph, modules, package_of, violations

LAYOUT = Path(__file__).resolve().parents[2] / "docs" / "layout.md"


def allowed_edges(text: str | None = None) -> dict[str, set[str]]:
    """Package -> the packages it may import, from the page's "Package graph" block."""
    text = LAYOUT.read_text() if text is None else text
    section = text.split("## Package graph", 1)[1]
    block = section.split("```", 2)[1]
    out: dict[str, set[str]] = {}
    for line in block.strip("\n").splitlines():
        name, arrow, targets = line.partition("->")
        assert arrow, f"a package graph line without '->': {line!r}"
        out[name.strip()] = set(targets.split())
    return out


def test_every_package_imports_only_what_its_line_allows():
    found = violations(graph(everywhere=True), allowed_edges())
    assert found == {}, "\n".join(
        f"{a} -> {b} is not in docs/layout.md's package graph: {why[:3]}"
        for (a, b), why in sorted(found.items())
    )


def test_the_package_graph_names_every_package_and_no_other():
    packages = {package_of(m) for m in modules()}
    assert set(allowed_edges()) == packages


def test_the_allowed_edges_flow_one_way():
    allowed = allowed_edges()
    assert cycles(allowed) == []
    for targets in allowed.values():
        assert targets <= set(allowed), targets - set(allowed)


def test_the_runtime_floor_imports_nothing_above_it():
    # Seeds, devices and versions: the floor every other package stands on.
    assert allowed_edges()["runtime"] == {"errors"}
    assert "objectives" not in allowed_edges()["config"]


def _planted_copy(tmp_path: Path, module: str, line: str) -> Path:
    src = tmp_path / "lejepa_id"
    shutil.copytree(SRC, src, ignore=shutil.ignore_patterns("__pycache__", "*.npz", "data"))
    target = src / module
    target.write_text(target.read_text() + line)
    return src


@pytest.mark.parametrize(
    ("module", "line", "edge"),
    [
        # A function-level import upward (worlds reaching into the trainer) ...
        (
            "worlds/world.py",
            "\n\ndef _planted():\n    from lejepa_id.training import engine\n\n    return engine\n",
            ("worlds", "training"),
        ),
        # ... and a module-level one (the config importing an objective again).
        (
            "config/run.py",
            "\nfrom lejepa_id.objectives.lejepa import LeJEPA  # noqa: E402\n",
            ("config", "objectives"),
        ),
    ],
)
def test_a_planted_upward_import_fails_the_check(tmp_path, module, line, edge):
    planted = graph(everywhere=True, src=_planted_copy(tmp_path, module, line))
    found = violations(planted, allowed_edges())
    assert set(found) == {edge}


def test_a_synthetic_upward_edge_is_named_with_its_import():
    edges = {"lejepa_id.runtime.seeds": {"lejepa_id.training.engine"}}
    found = violations(edges, {"runtime": {"errors"}})
    why = ["lejepa_id.runtime.seeds -> lejepa_id.training.engine"]
    assert found == {("runtime", "training"): why}


def test_a_line_that_closes_a_cycle_is_refused():
    text = "## Package graph\n\n```\na -> b\nb -> a\n```\n"
    assert cycles(allowed_edges(text)) == [["a", "b"]]
