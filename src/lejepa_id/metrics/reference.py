"""Identifiability metrics: pure functions of arrays returning named scores.

The definitions are those of docs/model.md, section 5.

All functions take NumPy arrays or tensors, compute in float64, and accept optional
leading "run" dimensions: samples of shape (..., n_s, n) give scores of shape (...).
Latents z have n coordinates and codes h have m; every metric is defined for m != n.
The engine evaluates the same definitions from moments (:mod:`lejepa_id.metrics.builtin`).
"""

from __future__ import annotations

import math

import torch

from lejepa_id.linalg import (
    ArrayLike,
    affine_fit,
    as_float64,
    centered_cov,
    polar_factor,
    r2,
)


def isometry_gram(W: torch.Tensor) -> torch.Tensor:
    """The Gram matrix of the linear part A = W^T (m x n) that is I for a partial isometry:
    A^T A (n x n) when m >= n (A keeps lengths), A A^T (m x m) when m < n (A has
    orthonormal rows: the code is an orthogonal projection of z).

    Shape:
        W: (..., n, m) -> (..., min(n, m), min(n, m))
    """
    if W.shape[-1] >= W.shape[-2]:
        return W @ W.transpose(-2, -1)
    return W.transpose(-2, -1) @ W


def orthogonality_error(z: ArrayLike, h: ArrayLike) -> torch.Tensor:
    """|G - I|_F for the Gram G of the linear part A of the affine fit h ~ A z + c
    (:func:`isometry_gram`: A^T A when m >= n, A A^T when m < n).

    Zero exactly when the code is a (partial) isometry of z plus an offset.

    Shape:
        z: (..., n_s, n), h: (..., n_s, m) -> (...)
    """
    W, _ = affine_fit(z, h)  # h ~ z @ W, so A = W^T
    gram = isometry_gram(W)
    eye = torch.eye(gram.shape[-1], dtype=W.dtype, device=W.device)
    return torch.linalg.matrix_norm(gram - eye)


def scale_free_orthogonality_error(z: ArrayLike, h: ArrayLike) -> tuple[torch.Tensor, torch.Tensor]:
    """|G / s^2 - I|_F and the code's scale s, with s^2 = tr(G) / size(G).

    orth_err counts a uniform shrinkage h = s Q z as error (|s^2 - 1| sqrt(N)); this
    separates the two: a shrunken rotation has zero scale-free error and scale s.

    Shape:
        z: (..., n_s, n), h: (..., n_s, m) -> two of (...)
    """
    W, _ = affine_fit(z, h)
    return scale_free_from_gram(isometry_gram(W))


def scale_free_from_gram(gram: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Scale-free orthogonality error and scale from G = A^T A. Shape: (..., n, n) -> (...)."""
    n = gram.shape[-1]
    scale2 = torch.diagonal(gram, dim1=-2, dim2=-1).sum(-1) / n
    eye = torch.eye(n, dtype=gram.dtype, device=gram.device)
    err = torch.linalg.matrix_norm(gram / scale2[..., None, None] - eye)
    return err, scale2.sqrt()


def procrustes_mse(h: ArrayLike, z: ArrayLike, center: bool = False) -> torch.Tensor:
    """Mean over samples of |h - z Q^T|^2 for Q = U V^T from the SVD of h^T z / n_s.

    For m = n, Q is the best rotation; for m != n it is the partial isometry (m x n) that
    maximizes the cross term, the best one when m > n (then |Q z| = |z|).

    ``center=True`` first removes both means: the error Theorem 3 bounds, which is about a
    centered encoder (a constant offset of h is no failure of identifiability, and
    whitening leaves the mean of h free). The default is the published definition.

    Shape:
        h: (..., n_s, m), z: (..., n_s, n) -> (...)
    """
    h, z = as_float64(h), as_float64(z)
    if center:
        h = h - h.mean(dim=-2, keepdim=True)
        z = z - z.mean(dim=-2, keepdim=True)
    n_s = h.shape[-2]
    Q = best_partial_isometry(h.transpose(-2, -1) @ z / n_s, z.transpose(-2, -1) @ z / n_s)
    return (h - z @ Q.transpose(-2, -1)).pow(2).sum(dim=-1).mean(dim=-1)


def best_partial_isometry(
    hz: torch.Tensor, zz: torch.Tensor, max_iter: int = 1000, tol: float = 1e-13
) -> torch.Tensor:
    """argmin over Q (m x n) with orthonormal columns (m >= n) or rows (m < n) of
    mean |h - Q z|^2, from the moments hz = h^T z / n_s and zz = z^T z / n_s.

    For m >= n, |Q z| = |z| and the answer is the polar factor U V^T of hz (orthogonal
    Procrustes). For m < n, |Q z|^2 depends on Q through zz, and the polar factor is the
    answer only when zz = I; the minimum is then found by majorization: with
    L = lambda_max(zz), each step Q <- polar(hz + Q (L I - zz)) cannot increase the
    error, and it stops when Q moves by less than ``tol``.

    Shape:
        hz: (..., m, n), zz: (..., n, n) -> (..., m, n)
    """
    Q = polar_factor(hz)
    m, n = hz.shape[-2], hz.shape[-1]
    if m >= n:
        return Q
    L = torch.linalg.eigvalsh(zz)[..., -1:].unsqueeze(-1)
    shift = L * torch.eye(n, dtype=zz.dtype, device=zz.device) - zz
    for _ in range(max_iter):
        nxt = polar_factor(hz + Q @ shift)
        done = bool((nxt - Q).abs().max() < tol)
        Q = nxt
        if done:
            break
    return Q


def theorem3_bound(
    epsilon: ArrayLike | float, delta: ArrayLike | float, rho: torch.Tensor | float
) -> tuple[torch.Tensor, torch.Tensor]:
    """Theorem 3: D = delta / (2 rho (1 - rho)) and the bound D + (epsilon + D)^2.

    Shape:
        epsilon, delta, rho: (...) (broadcast; numbers too) -> D (...), bound (...)
    """
    epsilon, delta = as_float64(epsilon), as_float64(delta)
    D = delta / (2.0 * rho * (1.0 - rho))
    return D, D + (epsilon + D).pow(2)


def bound_quantities(h: ArrayLike, h_prime: ArrayLike, rho: float) -> dict[str, torch.Tensor]:
    """The Theorem-3 quantities of a code on an evaluation set and one fresh view of it.

    epsilon = |Cov(h) - I|_F, L_h = mean |h(z') - h(z)|^2, trace_cov = tr Cov(h),
    delta = max(L_h - 2 (1 - rho) trace_cov, 0), then D and the bound.
    Covariances use the unbiased (n - 1) denominator.

    Shape:
        h, h_prime: (..., B, m) -> each (...), over B samples
    """
    h, h_prime = as_float64(h), as_float64(h_prime)
    cov = centered_cov(h, h, ddof=1)
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
    """Every metric of docs/model.md, section 5, for codes h = f(x) of latents z.

    ``h_prime`` is the code of one fresh OU view z' of each z. The mixing-only baseline
    (r2_xz, r2_zx) is reported beside the learned code's scores.

    Shape:
        z, x, h, h_prime: (..., B, n | D | m) -> {name: (...)} (the computed metrics of
            :mod:`lejepa_id.metrics.registry` that the moments do not need)
    """
    z, x, h = as_float64(z), as_float64(x), as_float64(h)
    orth = orthogonality_error(z, h)
    orth_free, scale = scale_free_orthogonality_error(z, h)
    out = {
        "r2_hz": r2(h, z),
        "r2_zh": r2(z, h),
        "r2_xz": r2(x, z),
        "r2_zx": r2(z, x),
        "orth_err": orth,
        "orth_err_normalized": orth / math.sqrt(min(z.shape[-1], h.shape[-1])),
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
    """R^2 (both directions) and orth_err on the 2D grid, comparable across latent laws.

    Shape:
        z_grid: (..., B, 2), h_grid: (..., B, m) -> {name: (...)}, B grid points
    """
    return {
        "grid_r2_hz": r2(h_grid, z_grid),
        "grid_r2_zh": r2(z_grid, h_grid),
        "grid_orth_err": orthogonality_error(z_grid, h_grid),
    }
