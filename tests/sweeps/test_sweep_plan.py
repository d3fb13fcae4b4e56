"""Grouping: compatible runs share a group, caps and the memory heuristic hold."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lejepa_id.config.experiments import load_experiment
from lejepa_id.sweeps.capacity import member_bytes, member_cap
from lejepa_id.sweeps.plan import plan_groups
from lejepa_id.training.stacking import stack_key

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@cache
def _expand(name: str) -> list:
    return load_experiment(CONFIGS / f"{name}.yaml").expand()


def test_paper_configs_expand_to_the_paper_sizes() -> None:
    sizes = {"2d": 24, "gennorm": 324, "scaling": 150, "grid": 189}
    for name, n in sizes.items():
        specs = _expand(name)
        assert len(specs) == n, name
    scaling = _expand("scaling")
    # 300 encoders: best of 3 for N <= 32.
    assert sum(s.config.effective_inits for s in scaling) == 300


def test_axes_narrow_a_sweep() -> None:
    exp = load_experiment(CONFIGS / "scaling.yaml", ["dims=[2,4]", "seeds=[0,1]"])
    specs = exp.expand()
    assert len(specs) == 3 * 2 * 2
    assert {s.config.dim for s in specs} == {2, 4}


def test_groups_share_stack_keys_and_respect_caps() -> None:
    specs = _expand("gennorm")
    groups = plan_groups(specs, "cuda", jobs=4, device_memory=140 * 2**30)
    assert sum(len(g.specs) for g in groups) == len(specs)
    assert len({s.run_id for g in groups for s in g.specs}) == len(specs)
    for g in groups:
        assert len({stack_key(s.config) for s in g.specs}) == 1
    # 6 compatible classes (mlp and matched x 3 objectives), each batched.
    assert len(groups) <= 12
    cpu = plan_groups(specs, "cpu", jobs=1)
    assert max(g.members for g in cpu) <= 8


def test_memory_heuristic_scales_with_dimension() -> None:
    specs = _expand("scaling")
    small = next(s.config for s in specs if s.config.dim == 2)
    big = next(s.config for s in specs if s.config.dim == 1024)
    assert member_bytes(big) > 10 * member_bytes(small)
    memory = 140 * 2**30
    # The whole N = 1024 group (5 seeds) fits in one group even with 4 concurrent jobs.
    assert member_cap(big, "cuda", 4, memory) >= 5
    groups = plan_groups([s for s in specs if s.config.dim == 1024], "cuda", 1, memory)
    assert len(groups) == 3  # one per objective
    assert groups[0].cost >= groups[-1].cost


def test_more_jobs_split_a_single_class() -> None:
    specs = _expand("grid")
    assert len(plan_groups(specs, "cuda", jobs=1, device_memory=140 * 2**30)) == 1
    assert len(plan_groups(specs, "cuda", jobs=4, device_memory=140 * 2**30)) == 4
    assert len(plan_groups(specs, "cuda", jobs=1, max_members=50)) == 4
