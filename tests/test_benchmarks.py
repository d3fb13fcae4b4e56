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


def test_the_parity_benchmark_maps_a_torch_mlp_onto_the_stacked_encoder_exactly():
    """compare_published.py copies a published nn.Sequential encoder (Linear, GELU, ...,
    Linear: (out, in) weights) into this code's stacked one; the two must then compute the
    same function, or every side-by-side number it prints compares different encoders."""
    import torch

    from lejepa_id.config.run import RunConfig

    compare = _module("compare_published")
    torch.manual_seed(0)
    layers = [torch.nn.Linear(2, 256), torch.nn.GELU()]
    for _ in range(3):
        layers += [torch.nn.Linear(256, 256), torch.nn.GELU()]
    layers.append(torch.nn.Linear(256, 2))
    reference = torch.nn.Sequential(*layers)
    config = RunConfig(mixing="spiral", encoder="mlp").validate()
    ours = compare.our_encoder(config, compare.to_our_weights(reference.state_dict(), "mlp"))
    x = torch.randn(1000, 2)
    with torch.no_grad():
        assert torch.allclose(ours(x.unsqueeze(0))[0], reference(x), rtol=0, atol=1e-6)


def test_the_parity_benchmark_maps_coupling_matrices_in_layer_order():
    import torch

    from lejepa_id.config.run import RunConfig

    compare = _module("compare_published")
    mats = [torch.randn(1, 1) for _ in range(12)]
    # A ParameterList's keys sort as strings ("Ws.10" before "Ws.2"); layer order is numeric.
    state = {f"Ws.{i}": m for i, m in enumerate(mats)}
    weights = compare.to_our_weights(state, "matched")
    config = RunConfig(mixing="coupling", encoder="matched", layers=12).validate()
    enc = compare.our_encoder(config, weights)
    assert torch.equal(enc.weight[0], torch.stack(mats))
