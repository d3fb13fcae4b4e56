"""Known-answer tests of the evaluation, planning and LQR code (no rendering needed)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from lejepa_id.errors import UsageError
from lejepa_id.reacher.evaluation import encoder_scores, heldout_r2, whitener
from lejepa_id.reacher.planning import (
    PlanConfig,
    interpolate,
    knn_decode,
    lqr_value_errors,
    optimal_weights,
    path_cost,
    plan_paths,
    select_pairs,
    straight_line,
)


def _rotation(angle: float) -> torch.Tensor:
    c, s = math.cos(angle), math.sin(angle)
    return torch.tensor([[c, -s], [s, c]], dtype=torch.float64)


@pytest.fixture(scope="module")
def gallery() -> torch.Tensor:
    return torch.randn(4000, 2, generator=torch.Generator().manual_seed(0), dtype=torch.float64)


def test_scores_of_an_orthogonal_code_are_perfect(gallery):
    Q = _rotation(0.7)
    z_fit, z_eval = gallery[:2000], gallery[2000:]
    s = encoder_scores(z_fit @ Q.T + 3.0, z_fit, z_eval @ Q.T + 3.0, z_eval)
    assert s["r2_hz"] == pytest.approx(1.0, abs=1e-12)
    assert s["r2_zh"] == pytest.approx(1.0, abs=1e-12)
    assert s["r2_hz_joint"] == pytest.approx([1.0, 1.0], abs=1e-12)
    assert s["orth_err_whitened"] < 0.05  # whitening with estimated moments, not exact
    assert s["procrustes_mse_whitened"] < 1e-3


def test_scores_of_a_scaled_code_are_orthogonal_after_whitening(gallery):
    # A diagonal rescaling is not orthogonal, but whitening both sides removes it.
    z_fit, z_eval = gallery[:2000], gallery[2000:]
    D = torch.diag(torch.tensor([3.0, 0.2], dtype=torch.float64))
    s = encoder_scores(z_fit @ D, z_fit, z_eval @ D, z_eval)
    assert s["r2_hz"] == pytest.approx(1.0, abs=1e-12)
    assert s["orth_err_whitened"] < 0.05


def test_scores_of_a_bent_code_are_worse(gallery):
    z_fit, z_eval = gallery[:2000], gallery[2000:]

    def bend(z):
        return torch.stack([torch.tanh(2 * z[:, 0]), z[:, 1] + z[:, 0] ** 2], 1)

    s = encoder_scores(bend(z_fit), z_fit, bend(z_eval), z_eval)
    assert s["r2_hz"] < 0.95
    assert s["procrustes_mse_whitened"] > 0.05


def test_heldout_r2_of_independent_noise_is_near_zero():
    g = torch.Generator().manual_seed(1)
    a, b = torch.randn(4000, 2, generator=g), torch.randn(4000, 2, generator=g)
    total, per = heldout_r2(a[:2000], b[:2000], a[2000:], b[2000:])
    assert abs(total) < 0.01 and all(abs(p) < 0.01 for p in per)


def test_whitener_whitens(gallery):
    x = gallery @ torch.tensor([[2.0, 0.5], [0.0, 0.3]], dtype=torch.float64) + 1.0
    mean, W = whitener(x)
    cov = torch.cov(((x - mean) @ W).T)
    assert torch.allclose(cov, torch.eye(2, dtype=torch.float64), atol=1e-10)


def test_path_cost_closed_form():
    theta = torch.tensor([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]], dtype=torch.float64)
    goal = torch.tensor([1.0, 1.0], dtype=torch.float64)
    # to goal: 2 + 1 + 0; steps: 1 + 1
    assert float(path_cost(theta, goal)) == pytest.approx(5.0)
    # a straight line of T points from 0 to d: sum_t ((T-1-t)/(T-1))^2 |d|^2 + |d|^2/(T-1)
    line = straight_line(torch.zeros(2, dtype=torch.float64), goal, 8)
    expected = sum(((7 - t) / 7) ** 2 for t in range(8)) * 2 + 2 / 7
    assert float(path_cost(line, goal)) == pytest.approx(expected)


def test_knn_decode_returns_neighbour_means():
    codes = torch.tensor([[0.0], [1.0], [10.0]], dtype=torch.float64)
    z = torch.tensor([[0.0, 0.0], [2.0, 2.0], [5.0, 5.0]], dtype=torch.float64)
    out = knn_decode(torch.tensor([[0.2]], dtype=torch.float64), codes, z, k=2)
    assert out.tolist() == [[1.0, 1.0]]


def test_planning_with_a_rotated_code_matches_the_reference(gallery):
    z = gallery.clone()
    cfg = PlanConfig(k_pairs=50)
    pairs = select_pairs(z.numpy(), cfg)
    assert np.all(np.abs(z.numpy()[pairs.ravel()]) < math.pi - cfg.margin)
    ref = plan_paths(z, z, pairs, cfg)
    rot = plan_paths(z @ _rotation(1.1).T * 2.0 + 5.0, z, pairs, cfg)
    # k-NN neighbourhoods are invariant to rotation, scale and offset: identical plans.
    assert torch.allclose(rot["ratio"], ref["ratio"])
    assert float(ref["ratio"].median()) < 1.1
    assert torch.equal(rot["theta"][:, 0], z[pairs[:, 0]])  # the end points are pinned
    assert torch.equal(rot["theta"][:, -1], z[pairs[:, 1]])


def test_planning_with_a_bent_code_costs_more(gallery):
    z = gallery.clone()
    cfg = PlanConfig(k_pairs=50)
    pairs = select_pairs(z.numpy(), cfg)
    ref = plan_paths(z, z, pairs, cfg)
    r = torch.sqrt((z**2).sum(1, keepdim=True))
    spiral = torch.cat(
        [
            torch.cos(math.pi * r) * z[:, :1] - torch.sin(math.pi * r) * z[:, 1:],
            torch.sin(math.pi * r) * z[:, :1] + torch.cos(math.pi * r) * z[:, 1:],
        ],
        1,
    )
    bent = plan_paths(spiral, z, pairs, cfg)
    assert float(torch.log(bent["ratio"]).mean()) > float(torch.log(ref["ratio"]).mean()) + 0.1


def test_select_pairs_rejects_a_too_small_gallery():
    with pytest.raises(UsageError, match="usable frames"):
        select_pairs(np.zeros((10, 2)), PlanConfig(k_pairs=100))


def test_lqr_values_coincide_for_an_orthogonal_code(gallery):
    z = gallery
    h = z @ _rotation(0.4).T + torch.tensor([1.0, -2.0], dtype=torch.float64)
    v = lqr_value_errors(z[:2000], h[:2000], z[2000:], h[2000:])
    assert np.max(v["rel_err"]) < 1e-8  # Theorem 4: the values are equal pointwise


def test_lqr_values_differ_for_a_sheared_code(gallery):
    z = gallery
    h = z @ torch.tensor([[1.0, 0.8], [0.0, 1.0]], dtype=torch.float64)
    v = lqr_value_errors(z[:2000], h[:2000], z[2000:], h[2000:])
    assert np.median(v["rel_err"]) > 0.05


def test_optimal_weights_known_answer_three_points():
    # One interior point x1: J = x0^2 + 2 x1^2 + (x1 - x0)^2, minimal at x1 = x0 / 3 with
    # J* = 5/3 x0^2; the straight line (x1 = x0 / 2) costs 7/4 x0^2.
    w = optimal_weights(3)
    assert w == pytest.approx([1.0, 1.0 / 3.0, 0.0], abs=1e-15)
    a, b = torch.tensor([[2.0, -1.0]], dtype=torch.float64), torch.zeros(1, 2, dtype=torch.float64)
    J = path_cost(interpolate(a, b, w), b)
    assert float(J) == pytest.approx(5.0 / 3.0 * 5.0, rel=1e-14)
    assert float(path_cost(straight_line(a, b, 3), b)) == pytest.approx(7.0 / 4.0 * 5.0)


def test_optimal_path_minimizes_j_and_costs_about_half_the_line():
    w = optimal_weights(8)
    a = torch.tensor([1.3, -0.4], dtype=torch.float64)
    b = torch.tensor([-0.2, 0.9], dtype=torch.float64)
    best = interpolate(a, b, w)
    J_best = float(path_cost(best, b))
    J_line = float(path_cost(straight_line(a, b, 8), b))
    assert J_best / J_line == pytest.approx(0.5393, abs=1e-4)
    # Any perturbation of the interior points costs more (J is strictly convex there).
    gen = torch.Generator().manual_seed(0)
    for _ in range(200):
        bump = torch.zeros(8, 2, dtype=torch.float64)
        bump[1:-1] = 0.05 * torch.randn(6, 2, generator=gen, dtype=torch.float64)
        assert float(path_cost(best + bump, b)) > J_best


def test_regret_is_never_negative_and_the_optimal_planner_pays_only_the_readout(gallery):
    z = gallery.clone()
    cfg = PlanConfig(k_pairs=50)
    pairs = select_pairs(z.numpy(), cfg)
    rot = plan_paths(z @ _rotation(0.3).T, z, pairs, cfg)
    assert bool((rot["regret"] >= 0).all())
    half = torch.full((50,), 0.5393, dtype=torch.float64)
    assert torch.allclose(rot["J_opt"] / rot["J_oracle"], half, atol=1e-4)
    # The straight line in angles is about 1.85 times the optimum: regret ~0.85 even for
    # a perfect code, while the J-optimal plan in the code only pays the read-out's error.
    assert float(rot["regret"].median()) > 0.5
    assert float(rot["opt_ratio"].median()) < 1.2
