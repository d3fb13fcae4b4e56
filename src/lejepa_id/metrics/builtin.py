"""The metrics of docs/model.md, section 5, registered as functions of the evaluation moments.

Each function maps :class:`~lejepa_id.metrics.evaluation.CodeMoments` (R stacked runs) to a
tensor of shape (R,). The readable one-array-at-a-time definitions are in
:mod:`lejepa_id.metrics.reference`; tests check the two agree, for m = n and m != n.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import torch

from lejepa_id.linalg import pinv_sym
from lejepa_id.metrics.reference import best_partial_isometry, scale_free_from_gram, theorem3_bound
from lejepa_id.metrics.registry import declare_metric, register_metric

if TYPE_CHECKING:
    from lejepa_id.metrics.moments import CodeMoments


def _memo(fn: Callable[[CodeMoments], torch.Tensor]) -> Callable[[CodeMoments], torch.Tensor]:
    """Compute once per evaluation: several metrics build on the same quantity."""

    @functools.wraps(fn)
    def once(m: CodeMoments) -> torch.Tensor:
        if fn.__name__ not in m.memo:
            m.memo[fn.__name__] = fn(m)
        return m.memo[fn.__name__]

    return once


def _trace(a: torch.Tensor) -> torch.Tensor:
    return torch.diagonal(a, dim1=-2, dim2=-1).sum(-1)


def _eye(m: CodeMoments, size: int) -> torch.Tensor:
    return torch.eye(size, dtype=torch.float64, device=m.h.device)


@register_metric("r2_hz", "R²(h→z)", "R^2 of the affine fit of z from h", True, True)
def r2_hz(m: CodeMoments) -> torch.Tensor:
    czh = m.chz.transpose(-2, -1)
    pinv = pinv_sym(m.chh)
    return _trace(czh @ pinv @ m.chz) / _trace(m.lat.czz)


@register_metric("r2_zh", "R²(z→h)", "R^2 of the affine fit of h from z", True)
def r2_zh(m: CodeMoments) -> torch.Tensor:
    return _trace(m.chz @ m.w_zh) / _trace(m.chh)


declare_metric("r2_xz", "R²(x→z)", "R^2 of z from the observations: the mixing alone", True, True)
declare_metric("r2_zx", "R²(z→x)", "R^2 of the observations from z", True)


@register_metric(
    "orth_err",
    "orth. err",
    "|A^T A - I|_F for the linear part A (m x n) of h ~ A z + c (A A^T when m < n)",
    True,
)
@_memo
def orth_err(m: CodeMoments) -> torch.Tensor:
    return torch.linalg.matrix_norm(m.gram - _eye(m, m.gram.shape[-1]))


@register_metric("orth_err_normalized", "orth. err / √N", "orth_err / sqrt(min(n, m))", report=True)
def orth_err_normalized(m: CodeMoments) -> torch.Tensor:
    return orth_err(m) / math.sqrt(m.gram.shape[-1])


@register_metric(
    "orth_err_scale_free", "scale-free orth. err", "|G / s^2 - I|_F, s^2 = tr(G) / size", True
)
def orth_err_scale_free(m: CodeMoments) -> torch.Tensor:
    return scale_free_from_gram(m.gram)[0]


@register_metric("code_scale", "code scale", "s = sqrt(tr(G) / size) of the Gram G", True)
def code_scale(m: CodeMoments) -> torch.Tensor:
    return scale_free_from_gram(m.gram)[1]


@register_metric("epsilon", "ε", "|Cov(h) - I|_F (unbiased covariance)", True)
@_memo
def epsilon(m: CodeMoments) -> torch.Tensor:
    return torch.linalg.matrix_norm(m.cov_unbiased - _eye(m, m.code_dim))


@register_metric("L_h", "L_h", "mean |h(z') - h(z)|^2 over the evaluation set")
@_memo
def L_h(m: CodeMoments) -> torch.Tensor:
    return (m.h_prime - m.h).pow(2).sum(dim=-1).mean(dim=-1)


@register_metric("trace_cov", "tr Cov(h)", "trace of the code's covariance")
@_memo
def trace_cov(m: CodeMoments) -> torch.Tensor:
    return _trace(m.cov_unbiased)


@register_metric("delta", "δ", "max(L_h - 2 (1 - rho) tr Cov(h), 0)", True)
@_memo
def delta(m: CodeMoments) -> torch.Tensor:
    return torch.clamp(L_h(m) - 2.0 * (1.0 - m.rho) * trace_cov(m), min=0.0)


@register_metric("D_bound", "D", "Theorem 3: delta / (2 rho (1 - rho))", True)
def D_bound(m: CodeMoments) -> torch.Tensor:
    return theorem3_bound(epsilon(m), delta(m), 0.0 + m.rho)[0]


@register_metric(
    "approx_bound",
    "Theorem-3 bound",
    "D + (epsilon + D)^2 (NaN where it does not apply)",
    True,
    True,
)
def approx_bound(m: CodeMoments) -> torch.Tensor:
    return theorem3_bound(epsilon(m), delta(m), 0.0 + m.rho)[1]


@register_metric(
    "procrustes_mse", "Procrustes err", "min over (partial) isometries Q of mean |h - Q z|^2", True
)
def procrustes_mse(m: CodeMoments) -> torch.Tensor:
    if m.code_dim >= m.latent_dim:
        # |Q z| = |z| for an isometry, so only the nuclear norm of h^T z / n is needed.
        nuclear = torch.linalg.svdvals(m.hz_raw).sum(-1)
        return _trace(m.hh_raw) + m.lat.z_sq - 2.0 * nuclear
    return _partial_isometry_error(m.hh_raw, m.lat.zz_raw, m.hz_raw)


@register_metric(
    "procrustes_mse_centered",
    "centered Procrustes err",
    "procrustes_mse of the centered h and z: the error Theorem 3 bounds",
    report=True,
)
def procrustes_mse_centered(m: CodeMoments) -> torch.Tensor:
    if m.code_dim >= m.latent_dim:
        nuclear = torch.linalg.svdvals(m.chz).sum(-1)
        return _trace(m.chh) + _trace(m.lat.czz) - 2.0 * nuclear
    return _partial_isometry_error(m.chh, m.lat.czz, m.chz)


def _partial_isometry_error(hh: torch.Tensor, zz: torch.Tensor, hz: torch.Tensor) -> torch.Tensor:
    """mean |h - Q z|^2 for the best Q (m x n, m < n) with orthonormal rows: |Q z| then
    depends on z's second moments, so the error is computed from them."""
    Q = best_partial_isometry(hz, zz)
    return (
        _trace(hh) + _trace(Q @ zz @ Q.transpose(-2, -1)) - 2.0 * _trace(Q.transpose(-2, -1) @ hz)
    )


declare_metric(
    "grid_r2_hz", "grid R²(h→z)", "r2_hz on the fixed 100 x 100 grid (n = 2)", True, True
)
declare_metric("grid_r2_zh", "grid R²(z→h)", "r2_zh on the fixed grid (n = 2)")
declare_metric("grid_orth_err", "grid orth. err", "orth_err on the fixed grid (n = 2)", True)
