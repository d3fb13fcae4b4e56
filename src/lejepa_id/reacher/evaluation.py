"""Identifiability scores of a pixel encoder (docs/model.md, section 8, evaluation).

Every map is fitted on embeddings of training frames and scored on the held-out eval
gallery, so a score measures how well one fixed read-out generalizes across the angle
distribution, not how well a fresh fit interpolates the test set.
"""

from __future__ import annotations

import numpy as np
import torch

from lejepa_id.linalg import affine_fit, polar_factor
from lejepa_id.metrics.reference import orthogonality_error


def _f64(a) -> torch.Tensor:
    return torch.as_tensor(np.asarray(a) if not isinstance(a, torch.Tensor) else a).to(
        torch.float64
    )


def heldout_r2(a_fit, b_fit, a_test, b_test) -> tuple[float, list[float]]:
    """R^2 on the test set of the affine map a -> b fitted on the fit set.

    Returns the total (sums over output coordinates) and one R^2 per output coordinate.
    Shape: a_*: (n, P), b_*: (n, Q) -> (float, [Q floats])
    """
    W, c = affine_fit(a_fit, b_fit)
    a_test, b_test = _f64(a_test), _f64(b_test)
    resid = (b_test - (a_test @ W + c)).pow(2).sum(0)
    tot = (b_test - b_test.mean(0)).pow(2).sum(0)
    return float(1.0 - resid.sum() / tot.sum()), (1.0 - resid / tot).tolist()


def whitener(x_fit) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean and symmetric inverse square root of the covariance of the fit set.

    Shape: (n, N) -> mean (N,), W (N, N) such that (x - mean) @ W has identity covariance.
    """
    x = _f64(x_fit)
    mean = x.mean(0)
    cov = torch.cov(x.T).reshape(x.shape[1], x.shape[1])
    evals, evecs = torch.linalg.eigh(cov)
    inv_sqrt = evecs @ torch.diag(evals.clamp_min(1e-12).rsqrt()) @ evecs.T
    return mean, inv_sqrt


def sincos(z) -> torch.Tensor:
    """(sin, cos) features of angles. Shape: (n, J) -> (n, 2 J)."""
    z = _f64(z)
    return torch.cat([torch.sin(z), torch.cos(z)], dim=1)


def encoder_scores(h_fit, z_fit, h_eval, z_eval) -> dict:
    """All evaluation metrics of docs/model.md, section 8, for codes h of angles z.

    - r2_hz / r2_zh: affine R^2 in both directions; r2_hz_joint: per joint.
    - r2_h_sincos: affine R^2 from h to (sin, cos) of both angles (a code that is
      linear in the arm's geometry rather than in its angles scores high here).
    - orth_err_whitened: |A^T A - I|_F of the affine fit z_w -> h_w on the eval set, after
      whitening z and h with the fit set's statistics; procrustes_mse_whitened: mean
      |h_w - z_w Q^T|^2 on the eval set for the orthogonal Q fitted (SVD) on the fit set.
      Both are zero when h is an orthogonal transform of z up to scale and offset.

    Shape: h_fit, z_fit: (n_fit, N); h_eval, z_eval: (n_eval, N) -> dict of floats.
    """
    r2_hz, r2_joint = heldout_r2(h_fit, z_fit, h_eval, z_eval)
    r2_zh, _ = heldout_r2(z_fit, h_fit, z_eval, h_eval)
    r2_sc, _ = heldout_r2(h_fit, sincos(z_fit), h_eval, sincos(z_eval))
    mz, Wz = whitener(z_fit)
    mh, Wh = whitener(h_fit)
    zw_fit, hw_fit = (_f64(z_fit) - mz) @ Wz, (_f64(h_fit) - mh) @ Wh
    zw_eval, hw_eval = (_f64(z_eval) - mz) @ Wz, (_f64(h_eval) - mh) @ Wh
    Q = polar_factor(hw_fit.T @ zw_fit / hw_fit.shape[0])
    proc = (hw_eval - zw_eval @ Q.T).pow(2).sum(1).mean()
    return {
        "r2_hz": r2_hz,
        "r2_zh": r2_zh,
        "r2_hz_joint": r2_joint,
        "r2_h_sincos": r2_sc,
        "orth_err_whitened": float(orthogonality_error(zw_eval, hw_eval)),
        "procrustes_mse_whitened": float(proc),
        "code_cov_eval": torch.cov(_f64(h_eval).T).tolist(),
    }


def pixel_baseline(x_fit, z_fit, x_eval, z_eval, components: int = 64) -> float:
    """The mixing-only baseline: R^2(pixels -> z) through the top principal components.

    An affine map from all S*S*3 pixels would overfit 10,000 fit frames, so pixels are
    first projected on the fit set's leading ``components`` principal directions.
    Shape: x_*: (n, D) float, z_*: (n, 2) -> float
    """
    x_fit = torch.as_tensor(x_fit, dtype=torch.float32)
    x_eval = torch.as_tensor(x_eval, dtype=torch.float32)
    mean = x_fit.mean(0)
    components = min(components, x_fit.shape[0] - 1, x_fit.shape[1])
    gen_state = torch.random.get_rng_state()
    torch.manual_seed(0)  # pca_lowrank is randomized; keep the baseline reproducible
    _, _, V = torch.pca_lowrank(x_fit - mean, q=components, center=False, niter=4)
    torch.random.set_rng_state(gen_state)
    p_fit, p_eval = (x_fit - mean) @ V, (x_eval - mean) @ V
    return heldout_r2(p_fit, z_fit, p_eval, z_eval)[0]
