"""Shared test helpers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_configure(config):
    """Under pytest-xdist (scripts/test.sh: a worker per core) every core already runs a
    worker: a second thread per worker would only make the workers' threads wait for each
    other. Runs then take one thread unless a test or the user chose (the 2d mlp's weights
    do not depend on the count; tests/test_threads.py sets the count it checks)."""
    import os

    if os.environ.get("PYTEST_XDIST_WORKER") and not (
        {"LEJEPA_ID_THREADS", "OMP_NUM_THREADS"} & set(os.environ)
    ):
        os.environ["LEJEPA_ID_THREADS"] = "1"
        torch.set_num_threads(1)


@pytest.fixture(scope="session", autouse=True)
def _wandb_offline(tmp_path_factory):
    """W&B offline in every test, its files in a temporary folder: no test needs an
    account or a network, and none writes to the home folder. A test that wants another
    mode sets it itself."""
    import os

    home = tmp_path_factory.mktemp("wandb")
    wanted = {"WANDB_MODE": "offline", "WANDB_SILENT": "true"}
    wanted |= {f"WANDB_{k}_DIR": str(home / k.lower()) for k in ("CONFIG", "CACHE", "DATA")}
    wanted["WANDB_DIR"] = str(home / "runs")
    before = {k: os.environ.get(k) for k in wanted}
    for key, value in wanted.items():
        os.environ.setdefault(key, value)
    yield
    for key, value in before.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(autouse=True)
def _pace_store(tmp_path_factory, monkeypatch):
    """Each test's dry runs store their measured paces in a file of its own: none reads a
    pace another test (or the user's ~/.cache) stored (lejepa_id.sweeps.pace.STORE_VAR;
    named here so that no test starts with the sweeps imported)."""
    monkeypatch.setenv("LEJEPA_ID_PACE_STORE", str(tmp_path_factory.mktemp("paces") / "p.json"))


@pytest.fixture(scope="session")
def reference():
    """Arrays and the values the published code computes on them (see fixtures/)."""
    arrays = dict(np.load(FIXTURES / "metrics_fixture.npz", allow_pickle=False))
    values = json.loads((FIXTURES / "metrics_fixture.json").read_text())
    return arrays, values


@pytest.fixture
def gen():
    return torch.Generator().manual_seed(1234)


@pytest.fixture(scope="session")
def rendering_problem() -> str | None:
    """Why the Reacher cannot be rendered here (None: it can). Rendering needs mujoco,
    dm_control and an OpenGL backend."""
    from lejepa_id.errors import UsageError

    try:
        from lejepa_id.reacher.render import ReacherRenderer

        ReacherRenderer(16, "fast").close()
    except (ImportError, UsageError) as exc:
        return str(exc)
    return None
