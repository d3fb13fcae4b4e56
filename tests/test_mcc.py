"""MCC: known answers for copies, permutations, rotations and independent noise."""

from __future__ import annotations

import math

import pytest
import torch

from lejepa_id.metrics.mcc import abs_correlation, mcc


def _latents(n: int, dim: int, seed: int) -> torch.Tensor:
    return torch.randn(n, dim, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


def test_identity_scores_one():
    z = _latents(1_000, 3, 0)
    assert mcc(z, z).item() == pytest.approx(1.0, abs=1e-12)


def test_permutation_sign_flip_scale_and_shift_score_one():
    z = _latents(1_000, 4, 1)
    h = z[:, [2, 0, 3, 1]] * torch.tensor([-1.0, 2.0, -0.5, 3.0], dtype=torch.float64) + 7.0
    assert mcc(z, h).item() == pytest.approx(1.0, abs=1e-12)


def test_45_degree_rotation_scores_one_over_sqrt2():
    z = _latents(200_000, 2, 2)
    c = math.sqrt(0.5)
    h = z @ torch.tensor([[c, -c], [c, c]], dtype=torch.float64)
    # sample correlations of independent coords deviate by ~ 1/sqrt(n) ~ 0.002
    assert mcc(z, h).item() == pytest.approx(c, abs=0.01)


def test_independent_noise_scores_near_zero():
    z, h = _latents(20_000, 2, 3), _latents(20_000, 2, 4)
    # each |corr| is ~ |N(0, 1/n)|, mean 0.0056; the best of two matchings stays far below 0.03
    assert mcc(z, h).item() < 0.03


def test_wider_code_matches_min_pairs():
    z = _latents(2_000, 2, 5)
    h = torch.cat([z.flip(-1), z[:, :1] ** 2 - 1, _latents(2_000, 1, 6)], dim=-1)
    assert mcc(z, h).item() == pytest.approx(1.0, abs=1e-12)
    assert mcc(h, z).item() == pytest.approx(1.0, abs=1e-12)


def test_narrower_code_partial_copy():
    z = _latents(2_000, 3, 7)
    assert mcc(z, z[:, [1]]).item() == pytest.approx(1.0, abs=1e-12)


def test_run_dims_and_constant_column():
    z = _latents(500, 2, 8).expand(3, 500, 2)
    h = z.clone()
    h[1, :, 0] = 4.0  # a collapsed coordinate correlates with nothing
    out = mcc(z, h)
    assert out.shape == (3,) and out.dtype == torch.float64
    assert out[0].item() == pytest.approx(1.0, abs=1e-12)
    assert out[1].item() == pytest.approx(0.5, abs=1e-12)
    assert abs_correlation(z, h)[1, :, 0].eq(0).all()


def test_mismatched_sample_shapes_are_rejected():
    with pytest.raises(ValueError, match="must agree"):
        mcc(torch.zeros(10, 2), torch.zeros(9, 2))
