"""The spectral metrics inside the scorer: known answers on exact codes."""

from __future__ import annotations

import math

import pytest
import torch

from lejepa_id.metrics.evaluation import Scorer
from lejepa_id.worlds import OU, LatentLaw

RHOS = (0.99, 0.5)


def _pair(n_eval: int = 200_000, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    z = torch.randn(n_eval, 2, generator=gen, dtype=torch.float64)
    return z, OU(RHOS).views(z, 1, LatentLaw(), gen)[0]


def _score(z, zp, code, gaussian=True):
    scorer = Scorer(
        z.unsqueeze(0),
        torch.tensor([math.nan], dtype=torch.float64),
        torch.tensor([RHOS], dtype=torch.float64),
        [gaussian],
    )
    return {k: float(v[0]) for k, v in scorer.score(code(z)[None], code(zp)[None]).items()}


def _predicted(z):  # the optimum for rho = (0.99, 0.5), m = 2: z_1 and He_2(z_1) / sqrt 2
    return torch.stack([z[:, 0], (z[:, 0] ** 2 - 1) / math.sqrt(2)], dim=-1)


def test_the_predicted_code_has_feature_r2_one_and_no_alignment_gap():
    z, zp = _pair()
    got = _score(
        z,
        zp,
        lambda v: (
            3.0 * _predicted(v) @ torch.tensor([[0.6, 0.8], [-0.8, 0.6]], dtype=torch.float64)
        ),
    )
    assert got["predicted_feature_r2"] == pytest.approx(1.0, abs=1e-12)
    # Sampling noise of the whitened one-step alignment at 2e5 pairs is about 1e-3.
    assert abs(got["predicted_alignment_gap"]) < 5e-3


def test_the_linear_code_misses_the_prediction_by_the_eigenvalue_gap():
    z, zp = _pair()
    got = _score(z, zp, lambda v: v)
    # measured 1 - (0.99 + 0.5) / 2, predicted minimum 1 - (0.99 + 0.9801) / 2
    assert got["predicted_alignment_gap"] == pytest.approx((0.9801 - 0.5) / 2, abs=5e-3)
    # z_2 is not among the predicted features: only z_1's half of the code is explained.
    assert got["predicted_feature_r2"] == pytest.approx(0.5, abs=0.01)
    assert got["mcc"] == pytest.approx(1.0, abs=1e-12)


def test_non_gaussian_latents_get_no_prediction():
    z, zp = _pair(20_000)
    got = _score(z, zp, lambda v: v, gaussian=False)
    assert math.isnan(got["predicted_feature_r2"]) and math.isnan(got["predicted_alignment_gap"])
    assert got["mcc"] == pytest.approx(1.0, abs=1e-12)
