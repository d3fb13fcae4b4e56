"""SIGReg: the sliced characteristic-function test of the codes against N(0, I).

Pure functions of the view tensor, with optional leading "run" dimensions like every
loss term (see :mod:`lejepa_id.objectives.terms`).
"""

from __future__ import annotations

import functools

import torch

from lejepa_id.errors import UsageError
from lejepa_id.objectives.ecf import ecf_means, ecf_series


def random_directions(
    dim: int,
    num_directions: int,
    generator: torch.Generator,
    batch: tuple[int, ...] = (),
    dtype: torch.dtype = torch.float32,
) -> torch.Tensor:
    """Directions uniform on the unit sphere, one per column.

    Shape:
        -> (*batch, dim, num_directions)
    """
    d = torch.randn((*batch, dim, num_directions), generator=generator, device=generator.device)
    return unit_columns(d).to(dtype)


def unit_columns(d: torch.Tensor) -> torch.Tensor:
    """Each column of ``d`` divided by its norm; a column of zeros becomes e_1.

    float32 ``randn`` returns exactly 0 about 4 times in 10^8 draws, so for a code of one
    dimension a run of 20,000 steps of 256 directions meets a zero column about once in
    five runs, and 0 / 0 made that step's loss NaN (the run was recorded as diverged).
    A zero column has no direction; e_1 is a unit one, and every other column is divided
    exactly as before, so only steps that were NaN change.

    Shape:
        (..., dim, S) -> (..., dim, S)
    """
    norm = d.norm(dim=-2, keepdim=True)
    e1 = torch.zeros_like(d)
    e1[..., 0, :] = 1.0
    return torch.where(norm == 0, e1, d / norm)


def sigreg_knots(knots: int = 17, t_max: float = 3.0) -> tuple[torch.Tensor, torch.Tensor]:
    """Knots t_k = linspace(0, t_max, knots) and their quadrature weights.

    The test statistic integrates over the whole line t in [-t_max, t_max]; the squared
    error is even in t, so it is twice the integral over [0, t_max]: the weights are
    2 x trapezoid x exp(-t^2 / 2). The factor 2 matches the published code (see the
    reference fixture test).
    """
    if knots < 2:
        raise UsageError(f"knots={knots!r} must be >= 2")
    if not t_max > 0:
        raise UsageError(f"t_max={t_max!r} must be > 0")
    t = torch.linspace(0.0, t_max, knots, dtype=torch.float64)
    trap = torch.full((knots,), t_max / (knots - 1), dtype=torch.float64)
    trap[0] = trap[-1] = 0.5 * trap[0]
    return t, 2.0 * trap * torch.exp(-0.5 * t * t)


@functools.lru_cache(maxsize=32)
def _knot_constants(
    knots: int, t_max: float, dtype: torch.dtype, device: torch.device
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Knots, weights and Gaussian targets exp(-t^2/2) in the codes' dtype, built once
    per setting (a training step would otherwise rebuild them from scratch). Read-only."""
    t, weights = sigreg_knots(knots, t_max)
    target = torch.exp(-0.5 * t * t)
    t, weights, target = (x.to(device=device, dtype=dtype) for x in (t, weights, target))
    return t, weights, target


@functools.lru_cache(maxsize=32)
def _knot_multiples(n: int, dt: float, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """t_k = k dt for k = 1 .. n, built once per setting. Read-only."""
    return dt * torch.arange(1, n + 1, dtype=dtype, device=device)


class _SlicedECFError(torch.autograd.Function):
    """Integrated squared distance between empirical and Gaussian characteristic functions.

    The knots are equally spaced, t_k = k dt, so :mod:`lejepa_id.objectives.ecf` computes every
    knot's cos(t_k u) and sin(t_k u) from one cosine and one sine per projection. The
    gradient is written out by hand and evaluated by the same recurrence, instead of
    autograd replaying (and storing) every knot's values.
    """

    @staticmethod
    def forward(ctx, u: torch.Tensor, dt: float, weights: torch.Tensor, target: torch.Tensor):
        # u: (..., M, S); weights, target: (K,) in u's dtype; knot t_0 = 0 is exact
        # (cos = 1, sin = 0) and contributes w_0 (1 - phi_0)^2 = 0.
        K = weights.shape[0]
        c1, s1 = torch.cos(dt * u), torch.sin(dt * u)
        C, Sn = ecf_means(c1, s1, K - 1)  # (K - 1, ..., S) at t_1 .. t_{K-1}
        shape = (K - 1,) + (1,) * (C.dim() - 1)
        w, phi = weights[1:].view(shape), target[1:].view(shape)
        err = (((C - phi).pow(2) + Sn.pow(2)) * w).sum(dim=0) + weights[0] * (1 - target[0]) ** 2
        ctx.save_for_backward(c1, s1, C, Sn, w, phi)
        ctx.dt, ctx.M = dt, u.shape[-2]
        return err

    @staticmethod
    def backward(ctx, grad_out: torch.Tensor):
        c1, s1, C, Sn, w, phi = ctx.saved_tensors
        t = _knot_multiples(C.shape[0], ctx.dt, C.dtype, C.device).view_as(w)
        # d/du_i [(C_k - phi_k)^2 + S_k^2]
        #   = (2 t_k / M) [S_k cos(t_k u_i) + (phi_k - C_k) sin(t_k u_i)]
        scale = (2.0 / ctx.M) * w * t * grad_out.unsqueeze(0)
        return ecf_series(c1, s1, scale * Sn, scale * (phi - C)), None, None, None


def sigreg(
    H: torch.Tensor,
    directions: torch.Tensor | None = None,
    num_directions: int = 256,
    knots: int = 17,
    t_max: float = 3.0,
    generator: torch.Generator | None = None,
    fast: bool = True,
) -> torch.Tensor:
    """Sliced characteristic-function test of the codes against N(0, I), times M = V B.

    ``directions`` are unit columns; when omitted, ``num_directions`` fresh ones are drawn
    from ``generator`` (independently for each leading run index). ``fast`` uses the
    equally-spaced-knot recurrence with a hand-written gradient; ``fast=False`` evaluates
    the defining formula directly (same value to float precision).

    Shape:
        H: (..., V, B, m), directions: (..., m, S) -> (...)
    """
    batch = H.shape[:-3]
    X = H.reshape(*batch, -1, H.shape[-1])  # (..., M, N)
    M = X.shape[-2]
    if directions is None:
        if generator is None:
            raise UsageError("sigreg needs either `directions` or a `generator` to draw them")
        directions = random_directions(H.shape[-1], num_directions, generator, batch, H.dtype)
    u = X @ directions.to(H.dtype)  # (..., M, S)
    t, weights, target = _knot_constants(knots, t_max, u.dtype, u.device)
    if fast:
        per_direction = _SlicedECFError.apply(u, t_max / (knots - 1), weights, target)
    else:
        tu = u.unsqueeze(-1) * t  # (..., M, S, K)
        err = (torch.cos(tu).mean(-3) - target).pow(2) + torch.sin(tu).mean(-3).pow(2)
        per_direction = (err * weights).sum(-1)
    return M * per_direction.mean(dim=-1)
