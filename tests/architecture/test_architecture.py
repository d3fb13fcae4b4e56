"""The package's architecture: no import cycles, registries complete by construction, and a
layout (docs/layout.md) that names exactly the modules that exist."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from import_graph import SRC, cycles, graph, modules

LAYOUT = Path(__file__).resolve().parents[2] / "docs" / "layout.md"


def test_no_import_cycles_even_through_function_level_imports():
    assert cycles(graph(everywhere=False)) == []
    assert cycles(graph(everywhere=True)) == []


def test_a_planted_cycle_is_found():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]


def test_the_metric_registry_is_complete_whatever_is_imported_first():
    code = (
        "from lejepa_id.metrics.registry import metric_infos; "
        "names = set(metric_infos()); "
        "assert {'r2_hz', 'orth_err', 'mcc', 'predictor_err'} <= names, names"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def _layout_block() -> str:
    # The page's first code block is the package's tree.
    return LAYOUT.read_text().split("```", 2)[1]


def test_the_layout_page_names_every_module_and_no_other():
    block = _layout_block()
    named: set[str] = set()
    package = None
    lines = block.strip("\n").splitlines()
    assert lines[0] == "src/lejepa_id/", lines[0]
    for line in lines[1:]:
        if not line.startswith(" "):
            break  # the package's tree ends where docs/, configs/, ... begin
        # A package's header, "  analysis/", or a subpackage's, "  analysis/claims/".
        header = re.match(r"^  ([\w/]+)/\s", line + " ")
        if header:
            package = header.group(1).replace("/", ".")
            named.add(package)
        elif re.match(r"^  \w+\.py", line):
            package = None
        for mod in re.findall(r"\b(\w+)\.py\b", line):
            named.add(f"{package}.{mod}" if package else mod)
    actual = set()
    for name in modules():
        parts = name.split(".")[1:]
        if not parts or parts[-1] == "__main__":
            continue
        actual.add(".".join(parts))
    assert named == actual, (
        f"docs/layout.md is out of date; missing: {sorted(actual - named)}, "
        f"stale: {sorted(named - actual)}"
    )
    assert SRC.is_dir()


def test_the_objectives_are_known_to_the_config_whatever_is_imported_first():
    # The config never imports an objective; the package's facade loads them, so a run
    # config validates with only lejepa_id.config.run imported.
    code = (
        "from lejepa_id.config.run import RunConfig; "
        "c = RunConfig(mode='whiten', lam=0.25).validate(); "
        "assert c.objective_params['lam'] == 0.25, c.objective_params"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
