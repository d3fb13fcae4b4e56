"""Spectral predictions: closed forms, and Monte-Carlo checks whose tolerance is a
multiple of the estimate's standard error (5 SE: a false failure has odds < 1e-6)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from lejepa_id.objectives import alignment
from lejepa_id.theory.spectral import (
    hermite_features,
    linear_identifiability_predicted,
    predicted_feature_r2,
    predicted_features,
    predicted_min_alignment,
    predicted_r2,
)

SE_MULT = 5.0


def _ou_views(z: torch.Tensor, rhos: list[float], views: int, gen: torch.Generator):
    """V independent channel draws z' = rho z + sqrt(1 - rho^2) eta. (B, N) -> (V, B, N)."""
    rho = torch.tensor(rhos, dtype=torch.float64)
    eta = torch.randn((views, *z.shape), generator=gen, dtype=torch.float64)
    return rho * z + (1 - rho**2).sqrt() * eta


def _mean_and_se(samples: torch.Tensor) -> tuple[float, float]:
    return samples.mean().item(), (samples.std() / math.sqrt(samples.numel())).item()


@pytest.mark.parametrize("n", [1, 2, 8])
def test_isotropic_top_n_features_are_the_coordinates(n):
    f = predicted_features([0.9] * n, n)
    assert f.indices == tuple(tuple(int(i == j) for j in range(n)) for i in range(n))
    assert f.eigenvalues == (0.9,) * n
    assert f.unique


def test_slow_coordinate_squared_beats_the_fast_one():
    f = predicted_features([0.99, 0.5], 2)
    assert f.indices == ((1, 0), (2, 0))
    assert f.eigenvalues == pytest.approx((0.99, 0.9801), rel=1e-15)
    assert f.unique
    assert not linear_identifiability_predicted([0.99, 0.5])


def test_order_beyond_the_top_features():
    # eigenvalues 0.8, 0.64, 0.6, 0.512, 0.48 (z1 z2), 0.4096, 0.384, 0.36 ...
    f = predicted_features([0.8, 0.6], 8)
    assert f.indices == ((1, 0), (2, 0), (0, 1), (3, 0), (1, 1), (4, 0), (2, 1), (0, 2))


def test_tie_at_the_m_th_place_is_reported():
    f = predicted_features([0.9, 0.9], 1)
    assert f.indices == ((1, 0),) and f.ties_at_m == ((0, 1),) and not f.unique
    # m = 3 on n = 2 isotropic: z1, z2, then three tied degree-two features
    f = predicted_features([0.9, 0.9], 3)
    assert f.indices == ((1, 0), (0, 1), (2, 0))
    assert f.ties_at_m == ((1, 1), (0, 2))


def test_max_degree_restricts_the_search():
    f = predicted_features([0.99, 0.5], 2, max_degree=1)
    assert f.indices == ((1, 0), (0, 1))
    with pytest.raises(ValueError, match="m=3 exceeds"):
        predicted_features([0.99, 0.5], 3, max_degree=1)


@pytest.mark.parametrize(
    "rhos,expected",
    [([0.9, 0.85], True), ([0.99, 0.5], False), ([0.95, 0.9025], False), ([0.9, 0.9], True)],
)
def test_linear_identifiability_boundary(rhos, expected):
    # (0.95, 0.9025) is the equality min rho = max rho^2: a tie, so not identifiable
    assert linear_identifiability_predicted(rhos) is expected


def test_boundary_agrees_with_the_formula_off_the_boundary():
    grid = [0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.99]
    for r1 in grid:
        for r2 in grid:
            assert linear_identifiability_predicted([r1, r2]) == (min(r1, r2) > max(r1, r2) ** 2)


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: predicted_features([0.9, 1.0], 2), r"rhos\[1\]=1.0"),
        (lambda: predicted_features([0.0], 1), r"rhos\[0\]=0.0"),
        (lambda: predicted_features([0.9], 0), "m=0"),
        (lambda: predicted_features([0.9], 1, max_degree=0), "max_degree=0"),
        (lambda: predicted_min_alignment([0.9], 1, n_views=1), "n_views=1"),
        (lambda: linear_identifiability_predicted([]), "rhos=()"),
        (lambda: hermite_features(torch.zeros(3, 2), [(1,)]), "index"),
    ],
)
def test_bad_input_is_one_line(call, match):
    with pytest.raises(ValueError, match=match) as err:
        call()
    assert "\n" not in str(err.value)


def test_hermite_features_closed_forms():
    z = torch.tensor([[0.5, -2.0], [1.5, 3.0]], dtype=torch.float64)
    phi = hermite_features(z, [(1, 0), (2, 0), (0, 3), (1, 1), (2, 2)])
    x, y = z[:, 0], z[:, 1]
    expected = torch.stack(
        [
            x,
            (x**2 - 1) / math.sqrt(2),
            (y**3 - 3 * y) / math.sqrt(6),
            x * y,
            (x**2 - 1) * (y**2 - 1) / 2,
        ],
        dim=-1,
    )
    torch.testing.assert_close(phi, expected, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("degree", [1, 2, 3, 4])
def test_mehler_correlation_is_rho_to_the_degree(degree):
    rho, n = 0.6, 4_000_000  # SE at degree 4 ~ 0.0035, a tenth of rho^4 - rho^5
    gen = torch.Generator().manual_seed(degree)
    z = torch.randn(n, 1, generator=gen, dtype=torch.float64)
    zp = _ou_views(z, [rho], 1, gen)[0]
    a = (degree,)
    prod = (hermite_features(z, [a]) * hermite_features(zp, [a])).squeeze(-1)
    mean, se = _mean_and_se(prod)
    assert abs(mean - rho**degree) < SE_MULT * se
    # the test has power: the neighbouring degree's value lies another 5 SE beyond reach
    assert abs(mean - rho ** (degree + 1)) > 2 * SE_MULT * se


@pytest.mark.parametrize(
    "rhos,m,views", [([0.9, 0.6], 3, 2), ([0.99, 0.5], 2, 2), ([0.8, 0.8, 0.7], 4, 3)]
)
def test_min_alignment_matches_monte_carlo_of_the_predicted_code(rhos, m, views):
    gen = torch.Generator().manual_seed(7)
    z = torch.randn(200_000, len(rhos), generator=gen, dtype=torch.float64)
    H = hermite_features(_ou_views(z, rhos, views, gen), predicted_features(rhos, m).indices)
    per_latent = (H - H.mean(dim=0, keepdim=True)).pow(2).mean(dim=(0, 2))  # (B,)
    mean, se = _mean_and_se(per_latent)
    assert mean == pytest.approx(alignment(H).item(), rel=1e-12)
    predicted = predicted_min_alignment(rhos, m, n_views=views)
    assert abs(mean - predicted) < SE_MULT * se
    # power: the one-view-is-z normalization (1 - lambda instead of 1 - lambda^2) is rejected
    lams = predicted_features(rhos, m).eigenvalues
    wrong = (views - 1) / views * (1 - sum(lams) / m)
    assert abs(mean - wrong) > 4 * SE_MULT * se


def test_min_alignment_isotropic_closed_form():
    assert predicted_min_alignment([0.9] * 4, 4) == pytest.approx((1 - 0.81) / 2, rel=1e-14)


def test_predicted_feature_r2_of_a_rotated_optimal_code_is_one():
    gen = torch.Generator().manual_seed(3)
    z = torch.randn(5_000, 2, generator=gen, dtype=torch.float64)
    indices = predicted_features([0.99, 0.5], 2).indices
    Q, _ = torch.linalg.qr(torch.randn(2, 2, generator=gen, dtype=torch.float64))
    h = hermite_features(z, indices) @ Q.T + 0.3
    assert predicted_feature_r2(z, h, indices).item() == pytest.approx(1.0, abs=1e-12)
    # a linear code is half unexplained: z_2 is no function of z_1 and He_2(z_1)
    assert predicted_feature_r2(z, z, indices).item() == pytest.approx(0.5, abs=0.02)


def test_predicted_feature_r2_supports_run_dims():
    gen = torch.Generator().manual_seed(4)
    z = torch.randn(3, 1_000, 2, generator=gen, dtype=torch.float64)
    indices = [(1, 0), (0, 1)]
    assert predicted_feature_r2(z, z.flip(-1), indices).shape == (3,)


@pytest.mark.parametrize(
    "rhos,m,expected",
    [([0.9, 0.9], 2, (1.0, 1.0)), ([0.9, 0.9], 4, (1.0, 0.5)), ([0.9] * 4, 2, (0.5, 1.0))],
)
def test_predicted_r2_for_wider_and_narrower_codes(rhos, m, expected):
    assert predicted_r2(rhos, m) == pytest.approx(expected, rel=1e-15)


def test_numpy_integers_are_accepted():
    assert predicted_features([0.9, 0.85], np.int64(2)).indices == ((1, 0), (0, 1))
