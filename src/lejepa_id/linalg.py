"""Numeric helpers shared by the metrics, the theory and the Reacher evaluation: one home
each for the pseudo-inverse, the affine least-squares fit, R^2 and the nearest orthogonal
matrix. All compute in float64 and accept leading batch dimensions."""

from __future__ import annotations

import numpy as np
import torch

ArrayLike = torch.Tensor | np.ndarray


# Relative cut-off of the pseudo-inverses: directions of a covariance below it are treated
# as exactly degenerate (a code wider than z has some), not inverted from rounding noise.
PINV_RTOL = 1e-12


def pinv_sym(a: torch.Tensor) -> torch.Tensor:
    """Pseudo-inverse of symmetric PSD matrices (..., k, k), cut off at :data:`PINV_RTOL`."""
    return torch.linalg.pinv(a, rtol=PINV_RTOL, hermitian=True)


def as_float64(a: ArrayLike | float) -> torch.Tensor:
    """A tensor copy (or view) of ``a`` in float64. A Python number or list is read in
    float64 directly (through torch's default float32 it would lose its last digits:
    0.2 would become 0.20000000298)."""
    return torch.as_tensor(a, dtype=torch.float64)


def centered_cov(a: torch.Tensor, b: torch.Tensor, ddof: int = 0) -> torch.Tensor:
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
    a, b = as_float64(a), as_float64(b)
    W = pinv_sym(centered_cov(a, a)) @ centered_cov(a, b)
    c = b.mean(dim=-2) - (a.mean(dim=-2).unsqueeze(-2) @ W).squeeze(-2)
    return W, c


def r2(a: ArrayLike, b: ArrayLike) -> torch.Tensor:
    """R^2(a -> b) of the affine least-squares prediction of b from a.

    1 - SS_res / SS_tot with both sums taken over samples and output coordinates.

    Shape:
        a: (..., n, P), b: (..., n, Q) -> (...)
    """
    a, b = as_float64(a), as_float64(b)
    W, c = affine_fit(a, b)
    resid = b - (a @ W + c.unsqueeze(-2))
    ss_res = resid.pow(2).sum(dim=(-2, -1))
    ss_tot = (b - b.mean(dim=-2, keepdim=True)).pow(2).sum(dim=(-2, -1))
    return 1.0 - ss_res / ss_tot


def polar_factor(a: torch.Tensor) -> torch.Tensor:
    """The orthogonal factor U V^T of a's SVD: the (partial) isometry nearest to a in
    Frobenius norm. Shape: (..., m, n) -> (..., m, n)."""
    U, _, Vh = torch.linalg.svd(a, full_matrices=False)
    return U @ Vh
