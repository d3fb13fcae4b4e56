"""Latent, observation and code sizes kept apart: n (dim), D (obs_dim), m (code_dim)."""

from __future__ import annotations

import math

import pytest
import torch

from lejepa_id import RunConfig, World, train
from lejepa_id.cli.main import main
from lejepa_id.errors import UsageError
from lejepa_id.linalg import r2
from lejepa_id.metrics.evaluation import Scorer
from lejepa_id.metrics.reference import identifiability_metrics, orthogonality_error, procrustes_mse

TINY = dict(
    steps=40, batch=64, hidden=16, depth=2, eval_size=400, eval_every=20, eval_every_early=20
)


def _partial_isometry(m: int, n: int, seed: int) -> torch.Tensor:
    """m x n with orthonormal columns (m >= n) or orthonormal rows (m < n)."""
    g = torch.randn(max(m, n), min(m, n), generator=torch.Generator().manual_seed(seed))
    q, _ = torch.linalg.qr(g.double())
    return q if m >= n else q.T


@pytest.mark.parametrize("m, n", [(3, 2), (8, 3), (1, 2), (2, 5)])
def test_partial_isometry_codes_have_zero_error(m, n):
    z = torch.randn(5000, n, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    Q = _partial_isometry(m, n, 1)
    h = z @ Q.T + 0.3
    assert float(orthogonality_error(z, h)) == pytest.approx(0, abs=1e-10)
    assert float(procrustes_mse(h, z, center=True)) == pytest.approx(0, abs=1e-10)
    # The code carries all of z when m >= n; h is fully explained by z either way.
    assert float(r2(z, h)) == pytest.approx(1, abs=1e-12)
    if m >= n:
        assert float(r2(h, z)) == pytest.approx(1, abs=1e-12)
    else:
        assert float(r2(h, z)) == pytest.approx(m / n, abs=0.03)


@pytest.mark.parametrize("m, n", [(3, 2), (1, 2), (4, 4)])
def test_fast_scorer_equals_reference_for_any_code_size(m, n):
    gen = torch.Generator().manual_seed(3)
    z = torch.randn(800, n, generator=gen, dtype=torch.float64)
    zp = 0.9 * z + math.sqrt(1 - 0.81) * torch.randn(800, n, generator=gen, dtype=torch.float64)
    W = torch.randn(n, m, generator=gen, dtype=torch.float64)
    h, hp = torch.tanh(z @ W), torch.tanh(zp @ W)
    ref = identifiability_metrics(z, z, h, hp, 0.9)
    fast = Scorer(z.unsqueeze(0), torch.tensor([0.9], dtype=torch.float64)).score(
        h.unsqueeze(0), hp.unsqueeze(0)
    )
    for key, value in ref.items():
        if key not in ("r2_xz", "r2_zx"):
            assert float(fast[key][0]) == pytest.approx(float(value), rel=1e-9, abs=1e-11), key


@pytest.mark.parametrize("code_dim", [1, 3])
def test_training_with_a_code_size_other_than_the_latent_size(code_dim):
    res = train(RunConfig(**TINY, code_dim=code_dim), progress=False)
    assert res.status == "finished"
    assert res.weights["layers.2.weight"].shape[-1] == code_dim
    # Theorem 3 is stated for m = n: its bound is not reported (null in result.json).
    assert math.isnan(res.metrics["approx_bound"])
    # R^2(z -> h) of m codes, by the reference formula on the run's evaluation set.
    from lejepa_id.linalg import r2
    from lejepa_id.metrics.evaluation import EvalSet
    from lejepa_id.runtime import generator
    from lejepa_id.training.saving import load_encoder
    from lejepa_id.worlds.build import world_for

    c = res.config
    ev = EvalSet.draw(world_for(c), c.eval_size, generator(torch.device("cpu"), c.eval_seed, 3))
    with torch.no_grad():
        h = load_encoder(c, res.weights)(ev.x.unsqueeze(0))[0]
    assert h.shape == (c.eval_size, code_dim)
    assert res.metrics["r2_zh"] == pytest.approx(float(r2(ev.z.double(), h.double())), abs=1e-6)


def test_linear_mixing_embeds_in_a_larger_space_and_its_transpose_inverts_it():
    world = World.make("linear", dim=2, obs_dim=5, mixing_seed=4)
    z = world.sample_latents(100, torch.Generator().manual_seed(0))
    x = world.render(z)
    assert x.shape == (100, 5) and world.obs_dim == 5
    assert torch.allclose(x @ world.mixing.matrix, z, atol=1e-5)
    res = train(RunConfig(**TINY, mixing="linear", obs_dim=5), progress=False)
    assert res.metrics["r2_xz"] == pytest.approx(1.0, abs=1e-9)


def test_user_callable_mixing_at_odd_n_and_larger_D_is_recorded_as_custom():
    def fold(z: torch.Tensor) -> torch.Tensor:
        return torch.cat([z, z[..., :1] * z[..., 1:2]], dim=-1)

    cfg = RunConfig(**TINY, dim=3)
    res = train(cfg, World.make(fold, dim=3), progress=False)
    record = res.to_dict()["config"]
    assert record["mixing"] == "custom:fold" and record["obs_dim"] == 4 and record["dim"] == 3
    assert res.status == "finished"
    with pytest.raises(UsageError, match="dim=3: mixing spiral"):
        train(cfg, progress=False)


def test_set_on_one_run_ignores_the_other_runs_of_the_file(tmp_path):
    args = ["run", "configs/2d.yaml", "--run", "nvp_lejepa", "--seed", "1"]
    args += ["--out", str(tmp_path), "--no-progress", "--set", "dim=4"]
    args += ["--set", "steps=20", "--set", "eval_size=400"]
    assert main(args) == 0
    assert (tmp_path / "2d" / "nvp_lejepa-seed1" / "result.json").exists()
