"""The benchmark scripts' own settings are valid configurations (they are not run here:
their numbers are measurements, not tests)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from lejepa_id.config.experiments import load_experiment

ROOT = Path(__file__).parents[1]


def _module(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("dim", [2, 64, 1024])
def test_sweep_benchmark_settings_validate_at_every_scaling_dimension(dim):
    sets = _module("bench_sweeps").quiet_evaluation(300, [f"dim={dim}"])
    exp = load_experiment(ROOT / "configs" / "scaling.yaml", ["steps=300", *sets])
    cfg = exp.run_config("lejepa")
    assert cfg.dim == dim and cfg.eval_size == max(2000, 4 * dim)
    assert cfg.eval_every == 300


def test_the_operator_count_knows_the_products_of_a_2d_step():
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        launches = _module("bench_launches")
        engine = launches.build("2d", 1, "cpu", "eager").engine
        ops = launches.count_ops(engine, 0, 16)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    # The mlp 2 -> 256 -> 256 -> 256 -> 256 -> 2: five biased products forward; backward
    # five weight gradients and four input gradients (the data need none); SIGReg's
    # projection of the codes forward and its gradient: 11 plain products per step.
    assert ops["aten.baddbmm"] == 5 * 16
    assert ops["aten.bmm"] == 11 * 16
    assert ops["aten._fused_adamw_"] == 16  # one optimizer kernel per step
