"""Metrics: known answers and the published code's values on fixed arrays."""

from __future__ import annotations

import math

import pytest
import torch

from lejepa_id.linalg import affine_fit, r2
from lejepa_id.metrics.evaluation import Scorer
from lejepa_id.metrics.reference import (
    bound_quantities,
    grid_latents,
    grid_metrics,
    identifiability_metrics,
    orthogonality_error,
    procrustes_mse,
    scale_free_orthogonality_error,
    theorem3_bound,
)
from lejepa_id.metrics.registry import metric_infos

# The metrics of docs/model.md, section 5 (the spectral ones are tested in test_spectral_metrics).
PAPER_METRICS = {
    k
    for k, info in metric_infos().items()
    if info.compute is not None and info.compute.__module__ == "lejepa_id.metrics.builtin"
}


def _rotation(n: int, gen: torch.Generator) -> torch.Tensor:
    q, _ = torch.linalg.qr(torch.randn(n, n, generator=gen, dtype=torch.float64))
    return q


def test_every_metric_matches_published_values(reference):
    arrays, values = reference
    got = identifiability_metrics(
        arrays["z"], arrays["x"], arrays["h"], arrays["h_prime"], values["rho"]
    )
    assert set(got) == PAPER_METRICS | {"r2_xz", "r2_zx"}
    for name, want in values["metrics"].items():
        assert got[name].item() == pytest.approx(want, rel=1e-9, abs=1e-12), name


def test_fast_scorer_equals_reference_metrics(reference):
    arrays, values = reference
    z, h, hp = (torch.from_numpy(arrays[k]) for k in ("z", "h", "h_prime"))
    scorer = Scorer(z.unsqueeze(0), torch.tensor([values["rho"]], dtype=torch.float64))
    fast = scorer.score(h.unsqueeze(0), hp.unsqueeze(0))
    for name, want in values["metrics"].items():
        if name in fast:
            assert fast[name].item() == pytest.approx(want, rel=1e-9, abs=1e-12), name
    slow = identifiability_metrics(z, z, h, hp, values["rho"])
    assert set(slow) - {"r2_xz", "r2_zx"} == PAPER_METRICS
    assert set(fast) >= PAPER_METRICS
    for name in PAPER_METRICS:
        assert fast[name].item() == pytest.approx(slow[name].item(), rel=1e-9, abs=1e-12), name


def test_identity_code_scores_perfectly(gen):
    z = torch.randn(2000, 4, generator=gen, dtype=torch.float64)
    assert r2(z, z).item() == pytest.approx(1.0, abs=1e-12)
    assert orthogonality_error(z, z).item() < 1e-10
    assert procrustes_mse(z, z).item() < 1e-20


def test_rotation_plus_offset_has_zero_orthogonality_error(gen):
    z = torch.randn(3000, 5, generator=gen, dtype=torch.float64)
    Q = _rotation(5, gen)
    h = z @ Q.T + 3.0
    assert orthogonality_error(z, h).item() < 1e-10
    assert r2(h, z).item() == pytest.approx(1.0, abs=1e-12)
    W, c = affine_fit(z, h)
    assert torch.allclose(W, Q.T, atol=1e-10) and torch.allclose(
        c, torch.full((5,), 3.0, dtype=torch.float64)
    )


def test_shrunken_rotation_is_orthogonal_up_to_scale(gen):
    z = torch.randn(3000, 4, generator=gen, dtype=torch.float64)
    h = 0.8 * z @ _rotation(4, gen).T
    err, scale = scale_free_orthogonality_error(z, h)
    assert err.item() < 1e-10 and scale.item() == pytest.approx(0.8)
    # orth_err counts the shrinkage: |0.64 I - I|_F = 0.36 * 2.
    assert orthogonality_error(z, h).item() == pytest.approx(0.72)
    shear = z @ torch.tensor(
        [[1.0, 0.5, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=torch.float64
    )
    assert scale_free_orthogonality_error(z, shear)[0].item() > 0.3


def test_centered_procrustes_ignores_a_constant_offset(gen):
    z = torch.randn(4000, 3, generator=gen, dtype=torch.float64)
    z = z - z.mean(0)
    h = z @ _rotation(3, gen).T + torch.tensor([0.3, -0.4, 0.0], dtype=torch.float64)
    assert procrustes_mse(h, z, center=True).item() < 1e-20
    assert procrustes_mse(h, z).item() == pytest.approx(0.25, rel=1e-9)  # |offset|^2


def test_procrustes_recovers_a_rotation(gen):
    z = torch.randn(3000, 3, generator=gen, dtype=torch.float64)
    h = z @ _rotation(3, gen).T
    assert procrustes_mse(h, z).item() < 1e-20


def test_scaled_code_has_the_closed_form_orthogonality_error(gen):
    z = torch.randn(5000, 3, generator=gen, dtype=torch.float64)
    # h = 2 z: A^T A - I = 3 I, Frobenius norm 3 sqrt(3).
    assert orthogonality_error(z, 2 * z).item() == pytest.approx(3 * math.sqrt(3), rel=1e-10)


def test_independent_noise_gives_r2_near_zero(gen):
    z = torch.randn(20_000, 2, generator=gen, dtype=torch.float64)
    noise = torch.randn(20_000, 2, generator=gen, dtype=torch.float64)
    assert abs(r2(noise, z).item()) < 1e-3


def test_collapsed_code_is_scored_without_failing(gen):
    z = torch.randn(1000, 2, generator=gen, dtype=torch.float64)
    h = torch.zeros(1000, 2, dtype=torch.float64)
    assert r2(h, z).item() == pytest.approx(0.0, abs=1e-12)


def test_bound_is_zero_for_a_perfect_whitened_linear_code(gen):
    z = torch.randn(100_000, 2, generator=gen, dtype=torch.float64)
    rho = 0.8
    zp = rho * z + math.sqrt(1 - rho**2) * torch.randn(z.shape, generator=gen, dtype=z.dtype)
    q = bound_quantities(z, zp, rho)
    # L_h = 2 (1 - rho) tr Cov exactly in expectation: delta is sampling noise only.
    assert q["delta"].item() < 0.02
    assert q["epsilon"].item() < 0.02
    D, bound = theorem3_bound(0.0, 0.0, rho)
    assert D.item() == 0.0 and bound.item() == 0.0


@pytest.mark.parametrize(
    ("epsilon", "delta", "rho", "D_want", "bound_want"),
    [
        # Worked by hand from Theorem 3 (docs/model.md): D = delta / (2 rho (1 - rho)),
        # bound = D + (epsilon + D)^2.
        (0.1, 0.09, 0.9, 0.5, 0.86),  # D = 0.09 / 0.18; 0.5 + 0.6^2
        (0.5, 0.25, 0.5, 0.5, 1.5),  # D = 0.25 / 0.5; 0.5 + 1^2
        (0.0, 0.0, 0.95, 0.0, 0.0),  # a perfect encoder: no slack at all
        (0.2, 0.0, 0.3, 0.0, 0.04),  # aligned but not white: epsilon^2 alone
    ],
)
def test_theorem3_bound_known_values(epsilon, delta, rho, D_want, bound_want):
    D, bound = theorem3_bound(epsilon, delta, rho)
    assert D.item() == pytest.approx(D_want, rel=1e-12, abs=1e-15)
    assert bound.item() == pytest.approx(bound_want, rel=1e-12, abs=1e-15)


def test_metrics_broadcast_over_stacked_runs(gen):
    z = torch.randn(3, 500, 2, generator=gen, dtype=torch.float64)
    h = torch.tanh(z) + 0.1 * torch.randn(z.shape, generator=gen, dtype=z.dtype)
    stacked = identifiability_metrics(z, z, h, h, 0.9)
    for r in range(3):
        single = identifiability_metrics(z[r], z[r], h[r], h[r], 0.9)
        for k in single:
            assert stacked[k][r].item() == pytest.approx(single[k].item(), rel=1e-10, abs=1e-12)


def test_grid_covers_the_square_and_identity_scores_one():
    g = grid_latents()
    assert g.shape == (10_000, 2)
    assert g.min().item() == -3.0 and g.max().item() == 3.0
    m = grid_metrics(g, g)
    assert m["grid_r2_hz"].item() == pytest.approx(1.0)
    assert m["grid_orth_err"].item() < 1e-10
