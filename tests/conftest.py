"""Shared test helpers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

FIXTURES = Path(__file__).parent / "fixtures"


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
