"""Identifiability metrics: pure functions of arrays returning named scores (SPEC.md section 5).

All functions take NumPy arrays or tensors, compute in float64, and accept optional
leading "run" dimensions: samples of shape (..., n, N) give scores of shape (...).
"""

from __future__ import annotations

import math

import numpy as np
import torch

ArrayLike = torch.Tensor | np.ndarray

METRIC_NAMES = (
    "r2_hz",
    "r2_zh",
    "r2_xz",
    "r2_zx",
    "orth_err",
    "orth_err_normalized",
    "orth_err_scale_free",
    "code_scale",
    "epsilon",
    "L_h",
    "trace_cov",
    "delta",
    "D_bound",
    "approx_bound",
    "procrustes_mse",
    "procrustes_mse_centered",
)


def _f64(a: ArrayLike) -> torch.Tensor:
    return torch.as_tensor(a).to(torch.float64)


def _centered_cov(a: torch.Tensor, b: torch.Tensor, ddof: int = 0) -> torch.Tensor:
    """Cross-covariance. Shape: (..., n, P), (..., n, Q) -> (..., P, Q)."""
    ac = a - a.mean(dim=-2, keepdim=True)
    bc = b - b.mean(dim=-2, keepdim=True)
    return ac.transpose(-2, -1) @ bc / (a.shape[-2] - ddof)


def affine_fit(a: ArrayLike, b: ArrayLike) -> tuple[torch.Tensor, torch.Tensor]:
    """Least-squares affine map b ~ a @ W + c.

    A rank-deficient ``a`` (a collapsed code) is handled by the pseudo-inverse, which
    gives the minimum-norm solution instead of failing.

    Shape:
        a: (..., n, P), b: (..., n, Q) -> W (..., P, Q), c (..., Q)
    """
    a, b = _f64(a), _f64(b)
    W = torch.linalg.pinv(_centered_cov(a, a), hermitian=True) @ _centered_cov(a, b)
    c = b.mean(dim=-2) - (a.mean(dim=-2).unsqueeze(-2) @ W).squeeze(-2)
    return W, c


def r2(a: ArrayLike, b: ArrayLike) -> torch.Tensor:
    """R^2(a -> b) of the affine least-squares prediction of b from a.

    1 - SS_res / SS_tot with both sums taken over samples and output coordinates.

    Shape:
        a: (..., n, P), b: (..., n, Q) -> (...)
    """
    a, b = _f64(a), _f64(b)
    W, c = affine_fit(a, b)
    resid = b - (a @ W + c.unsqueeze(-2))
    ss_res = resid.pow(2).sum(dim=(-2, -1))
    ss_tot = (b - b.mean(dim=-2, keepdim=True)).pow(2).sum(dim=(-2, -1))
    return 1.0 - ss_res / ss_tot


def orthogonality_error(z: ArrayLike, h: ArrayLike) -> torch.Tensor:
    """|A^T A - I|_F for the linear part A of the affine fit z -> h (h ~ A z + c).

    Zero exactly when the code is an orthogonal transform of z plus an offset.

    Shape:
        z: (..., n, N), h: (..., n, N) -> (...)
    """
    W, _ = affine_fit(z, h)  # h ~ z @ W, so A = W^T and A^T A = W W^T
    eye = torch.eye(W.shape[-1], dtype=W.dtype, device=W.device)
    return torch.linalg.matrix_norm(W @ W.transpose(-2, -1) - eye)


def scale_free_orthogonality_error(z: ArrayLike, h: ArrayLike) -> tuple[torch.Tensor, torch.Tensor]:
    """|A^T A / s^2 - I|_F and the code's scale s, with s^2 = tr(A^T A) / N.

    orth_err counts a uniform shrinkage h = s Q z as error (|s^2 - 1| sqrt(N)); this
    separates the two: a shrunken rotation has zero scale-free error and scale s.

    Shape:
        z: (..., n, N), h: (..., n, N) -> two of (...)
    """
    W, _ = affine_fit(z, h)
    return scale_free_from_gram(W @ W.transpose(-2, -1))


def scale_free_from_gram(gram: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Scale-free orthogonality error and scale from G = A^T A. Shape: (..., N, N) -> (...)."""
    n = gram.shape[-1]
    scale2 = torch.diagonal(gram, dim1=-2, dim2=-1).sum(-1) / n
    eye = torch.eye(n, dtype=gram.dtype, device=gram.device)
    err = torch.linalg.matrix_norm(gram / scale2[..., None, None] - eye)
    return err, scale2.sqrt()


def procrustes_mse(h: ArrayLike, z: ArrayLike, center: bool = False) -> torch.Tensor:
    """Mean over samples of |h - z Q^T|^2 for the best rotation Q = U V^T, SVD of h^T z / n.

    ``center=True`` first removes both means: the error Theorem 3 bounds, which is about a
    centered encoder (a constant offset of h is no failure of identifiability, and
    whitening leaves the mean of h free). The default is the published definition.

    Shape:
        h: (..., n, N), z: (..., n, N) -> (...)
    """
    h, z = _f64(h), _f64(z)
    if center:
        h = h - h.mean(dim=-2, keepdim=True)
        z = z - z.mean(dim=-2, keepdim=True)
    U, _, Vh = torch.linalg.svd(h.transpose(-2, -1) @ z / h.shape[-2])
    Q = U @ Vh
    return (h - z @ Q.transpose(-2, -1)).pow(2).sum(dim=-1).mean(dim=-1)


def theorem3_bound(
    epsilon: ArrayLike | float, delta: ArrayLike | float, rho: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """Theorem 3: D = delta / (2 rho (1 - rho)) and the bound D + (epsilon + D)^2."""
    epsilon, delta = _f64(epsilon), _f64(delta)
    D = delta / (2.0 * rho * (1.0 - rho))
    return D, D + (epsilon + D).pow(2)


def bound_quantities(h: ArrayLike, h_prime: ArrayLike, rho: float) -> dict[str, torch.Tensor]:
    """The Theorem-3 quantities of a code on an evaluation set and one fresh view of it.

    epsilon = |Cov(h) - I|_F, L_h = mean |h(z') - h(z)|^2, trace_cov = tr Cov(h),
    delta = max(L_h - 2 (1 - rho) trace_cov, 0), then D and the bound.
    Covariances use the unbiased (n - 1) denominator.

    Shape:
        h, h_prime: (..., n, N) -> each (...)
    """
    h, h_prime = _f64(h), _f64(h_prime)
    cov = _centered_cov(h, h, ddof=1)
    eye = torch.eye(h.shape[-1], dtype=h.dtype, device=h.device)
    epsilon = torch.linalg.matrix_norm(cov - eye)
    L_h = (h_prime - h).pow(2).sum(dim=-1).mean(dim=-1)
    trace_cov = torch.diagonal(cov, dim1=-2, dim2=-1).sum(-1)
    delta = torch.clamp(L_h - 2.0 * (1.0 - rho) * trace_cov, min=0.0)
    D, bound = theorem3_bound(epsilon, delta, rho)
    return {
        "epsilon": epsilon,
        "L_h": L_h,
        "trace_cov": trace_cov,
        "delta": delta,
        "D_bound": D,
        "approx_bound": bound,
    }


def identifiability_metrics(
    z: ArrayLike,
    x: ArrayLike,
    h: ArrayLike,
    h_prime: ArrayLike,
    rho: float,
) -> dict[str, torch.Tensor]:
    """Every metric of SPEC.md section 5 for codes h = f(x) of latents z.

    ``h_prime`` is the code of one fresh OU view z' of each z. The mixing-only baseline
    (r2_xz, r2_zx) is reported beside the learned code's scores.

    Shape:
        z, x, h, h_prime: (..., n, N) -> {name: (...)} with the names of METRIC_NAMES
    """
    z, x, h = _f64(z), _f64(x), _f64(h)
    orth = orthogonality_error(z, h)
    orth_free, scale = scale_free_orthogonality_error(z, h)
    out = {
        "r2_hz": r2(h, z),
        "r2_zh": r2(z, h),
        "r2_xz": r2(x, z),
        "r2_zx": r2(z, x),
        "orth_err": orth,
        "orth_err_normalized": orth / math.sqrt(z.shape[-1]),
        "orth_err_scale_free": orth_free,
        "code_scale": scale,
    }
    out.update(bound_quantities(h, h_prime, rho))
    out["procrustes_mse"] = procrustes_mse(h, z)
    out["procrustes_mse_centered"] = procrustes_mse(h, z, center=True)
    return out


def grid_latents(points: int = 100, limit: float = 3.0) -> torch.Tensor:
    """A fixed points x points grid over [-limit, limit]^2. Shape: -> (points^2, 2)."""
    axis = torch.linspace(-limit, limit, points, dtype=torch.float64)
    g0, g1 = torch.meshgrid(axis, axis, indexing="ij")
    return torch.stack([g0.reshape(-1), g1.reshape(-1)], dim=-1)


def grid_metrics(z_grid: ArrayLike, h_grid: ArrayLike) -> dict[str, torch.Tensor]:
    """R^2 (both directions) and orth_err on the 2D grid, comparable across latent laws."""
    return {
        "grid_r2_hz": r2(h_grid, z_grid),
        "grid_r2_zh": r2(z_grid, h_grid),
        "grid_orth_err": orthogonality_error(z_grid, h_grid),
    }
