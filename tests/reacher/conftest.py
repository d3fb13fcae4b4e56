"""Shared fixtures of the Reacher tests: rendering availability and tiny datasets.

Rendering needs mujoco, dm_control and an OpenGL backend. Without them the rendering
tests are skipped, except under CI (the CI environment variable set), which installs them
and must fail loudly instead of skipping.
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def needs_rendering(rendering_problem) -> None:
    problem = rendering_problem
    if problem is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must be able to render the Reacher: {problem}")
    pytest.skip(f"Reacher rendering unavailable: {problem}")


@pytest.fixture(scope="session")
def tiny_data(needs_rendering, tmp_path_factory):
    """Tiny eval / ou / traj / trajmatch datasets (32 x 32, fast look), rendered once."""
    from lejepa_id.reacher.datasets import RenderSpec, render_dataset

    root = tmp_path_factory.mktemp("reacher_data")
    specs = {
        "eval": RenderSpec("eval", 240, size=32, look="fast", shard_size=100),
        "ou": RenderSpec("ou", 160, size=32, look="fast", shard_size=80),
        "traj": RenderSpec("traj", 160, size=32, look="fast", shard_size=80, episode_steps=200),
        "trajmatch": RenderSpec(
            "trajmatch", 160, size=32, look="fast", shard_size=80, episode_steps=200
        ),
    }
    for kind, spec in specs.items():
        render_dataset(spec, root / kind, workers=1)
    return root
