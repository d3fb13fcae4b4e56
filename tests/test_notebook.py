"""notebooks/quickstart.ipynb runs top to bottom in a fresh kernel (nbclient), on a tiny
training budget."""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "quickstart.ipynb"


@pytest.mark.slow
def test_quickstart_notebook_executes(tmp_path, monkeypatch):
    # The kernel inherits the environment: a budget of a few steps, results in tmp_path.
    monkeypatch.setenv("LEJEPA_QUICKSTART_STEPS", "40")
    monkeypatch.setenv("LEJEPA_QUICKSTART_SWEEP_STEPS", "40")
    monkeypatch.setenv("LEJEPA_QUICKSTART_OUT", str(tmp_path))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    errors = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "error"
    ]
    assert errors == []
    assert (tmp_path / "runs" / "runs.parquet").is_file()
    assert (tmp_path / "figures" / "2d_panels.png").is_file()
    # The figures are shown inline: the plots and the paper figure are PNG outputs.
    images = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if "image/png" in out.get("data", {})
    ]
    assert len(images) >= 3
    texts = "".join(
        out.get("text", "") for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
    )
    assert "40 steps" in texts and "sweep 2d: 2 runs" in texts
    # tqdm.auto warns at import in a kernel without ipywidgets (the dev extra has it).
    assert "IProgress not found" not in texts


def test_dev_extra_runs_notebooks_and_pins_what_the_lock_pins():
    # `jupyter nbconvert --execute` (docs/notebook.md) and tqdm's notebook bar need
    # nbconvert and ipywidgets; every exact pin of an extra is the lock file's version.
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    root = NOTEBOOK.parents[1]
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    lock = {}
    for line in (root / "requirements-lock.txt").read_text().splitlines():
        name, _, version = line.partition("==")
        lock[re.sub(r"[-_.]+", "-", name).lower()] = version
    pins = {}
    for requirement in (r for group in extras.values() for r in group):
        name, sep, version = requirement.partition("==")
        if sep:
            pins[re.sub(r"[-_.]+", "-", name.split("[")[0]).lower()] = version
    assert {"nbconvert", "ipywidgets"} <= {
        re.sub(r"[-_.]+", "-", r.split("==")[0]).lower() for r in extras["dev"]
    }
    # pip freeze (what the lock is made from) never lists setuptools: its pin stands alone.
    pins.pop("setuptools", None)
    assert {name: lock.get(name) for name in pins} == pins


def test_notebook_is_stored_without_outputs():
    # Outputs belong to whoever runs it; a stored output would go stale with the code.
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
    assert os.path.getsize(NOTEBOOK) < 20_000
