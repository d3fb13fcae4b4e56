"""Spectral predictions for Gaussian latents under a per-coordinate OU channel.

The channel z' = rho z + sqrt(1 - rho^2) eta (one rho_i per coordinate, z and eta standard
Gaussian) has the normalized Hermite products

    phi_a(z) = prod_i He_{a_i}(z_i) / sqrt(a_i!)      (a a multi-index, a != 0)

as eigenfunctions with eigenvalues lambda_a = prod_i rho_i^{a_i} (Mehler's formula). A
whitened m-dimensional code that minimizes the alignment loss spans the m eigenfunctions
with the largest eigenvalues; docs/spectral.md derives this and the formulas below.
"""

from __future__ import annotations

import heapq
import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import torch

from lejepa_id.linalg import ArrayLike, r2

# Two eigenvalues closer than this (relative) count as tied: products of the same rho_i
# taken in another order may differ in the last bits.
TIE_RTOL = 1e-9

MultiIndex = tuple[int, ...]


@dataclass(frozen=True)
class Features:
    """The predicted optimal features of a whitened m-dimensional code.

    indices: the m multi-indices, by eigenvalue descending (ties: see predicted_features).
    eigenvalues: lambda_a of each, same order.
    ties_at_m: multi-indices left out whose eigenvalue equals the m-th one. Non-empty
        means the optimal subspace is not unique: any m-dimensional subspace that contains
        the features above the m-th eigenvalue and lies in the span of the tied ones is
        equally optimal.
    """

    indices: tuple[MultiIndex, ...]
    eigenvalues: tuple[float, ...]
    ties_at_m: tuple[MultiIndex, ...]

    @property
    def unique(self) -> bool:
        """Whether the optimal code's span is unique (no tie across the m-th place)."""
        return not self.ties_at_m

    @property
    def degrees(self) -> tuple[int, ...]:
        """Total degree |a| of each feature."""
        return tuple(sum(a) for a in self.indices)


def validate_rhos(rhos: Sequence[float]) -> tuple[float, ...]:
    """Check every rho_i lies in the open interval (0, 1); return them as floats."""
    rhos = tuple(float(r) for r in rhos)
    if not rhos:
        raise ValueError("rhos=() must hold at least one correlation")
    for i, r in enumerate(rhos):
        if not 0.0 < r < 1.0:
            raise ValueError(f"rhos[{i}]={r!r} must lie in the open interval (0, 1)")
    return rhos


def _validate_m(m: int) -> int:
    if isinstance(m, bool) or not isinstance(m, numbers.Integral) or m < 1:
        raise ValueError(f"m={m!r} must be an integer >= 1")
    return int(m)


def eigenvalue(rhos: Sequence[float], index: MultiIndex) -> float:
    """lambda_a = prod_i rho_i^{a_i}."""
    return math.prod(r**a for r, a in zip(rhos, index))


def _tie_key(index: MultiIndex) -> tuple[int, tuple[int, ...]]:
    """Lower total degree first, then the lexicographically larger index (z_1 before z_2)."""
    return sum(index), tuple(-a for a in index)


def _largest(
    rhos: tuple[float, ...], count: int, max_degree: int | None
) -> list[tuple[float, MultiIndex]]:
    """Best-first search over multi-indices: every increment of a_i multiplies lambda by
    rho_i < 1, so popping a heap seeded with the unit vectors yields the eigenvalues in
    descending order. Pops ``count`` items, then every further item tied with the last one.
    """
    n = len(rhos)
    units = [tuple(int(i == j) for j in range(n)) for i in range(n)]
    linear = sorted(((r, a) for r, a in zip(rhos, units)), key=lambda it: -it[0])
    if count <= n and linear[count - 1][0] * (1.0 - TIE_RTOL) > max(rhos) ** 2:
        # Every feature of degree >= 2 has lambda <= max rho^2, below the count-th
        # coordinate's: the answer is the coordinates (and their ties), no search needed
        # (the search costs O(count n^2), minutes at n = 1024).
        last = linear[count - 1][0]
        return [it for it in linear if it[0] >= last * (1.0 - TIE_RTOL)]
    heap = [(-eigenvalue(rhos, a), _tie_key(a), a) for a in units]
    heapq.heapify(heap)
    seen = set(units)
    out: list[tuple[float, MultiIndex]] = []
    while heap:
        neg_lam, _, a = heap[0]
        if len(out) >= count and -neg_lam < out[count - 1][0] * (1.0 - TIE_RTOL):
            break
        heapq.heappop(heap)
        out.append((-neg_lam, a))
        for i in range(n):
            b = a[:i] + (a[i] + 1,) + a[i + 1 :]
            if b not in seen and (max_degree is None or sum(b) <= max_degree):
                seen.add(b)
                heapq.heappush(heap, (-eigenvalue(rhos, b), _tie_key(b), b))
    return out


def _tie_sorted(items: list[tuple[float, MultiIndex]]) -> list[tuple[float, MultiIndex]]:
    """Group eigenvalues equal within TIE_RTOL (consecutive chaining) and order each group
    by the tie key, so the order does not depend on rounding in the products."""
    groups: list[list[tuple[float, MultiIndex]]] = []
    for lam, a in items:  # items arrive in descending eigenvalue order
        if groups and lam >= groups[-1][-1][0] * (1.0 - TIE_RTOL):
            groups[-1].append((lam, a))
        else:
            groups.append([(lam, a)])
    return [item for g in groups for item in sorted(g, key=lambda it: _tie_key(it[1]))]


def predicted_features(rhos: Sequence[float], m: int, max_degree: int | None = None) -> Features:
    """The m eigenfunctions with the largest eigenvalues: a whitened alignment minimizer.

    Order: eigenvalue descending; equal eigenvalues (relative difference < TIE_RTOL) by
    total degree ascending, then by the lexicographically larger multi-index first, so
    z_1 = (1, 0, ...) comes before z_2 = (0, 1, ...). When the m-th eigenvalue is tied
    with a left-out feature, ``ties_at_m`` lists those and the optimum is not unique.

    ``max_degree`` restricts the search to |a| <= max_degree (None: no restriction).
    """
    rhos = validate_rhos(rhos)
    m = _validate_m(m)
    if max_degree is not None and (not isinstance(max_degree, numbers.Integral) or max_degree < 1):
        raise ValueError(f"max_degree={max_degree!r} must be an integer >= 1 or None")
    items = _tie_sorted(_largest(rhos, m, max_degree))
    if len(items) < m:
        raise ValueError(
            f"m={m} exceeds the {len(items)} features of degree <= max_degree={max_degree}"
        )
    chosen, rest = items[:m], items[m:]
    lam_m = chosen[-1][0]
    ties = tuple(a for lam, a in rest if lam >= lam_m * (1.0 - TIE_RTOL))
    return Features(
        indices=tuple(a for _, a in chosen),
        eigenvalues=tuple(lam for lam, _ in chosen),
        ties_at_m=ties,
    )


def predicted_min_alignment(rhos: Sequence[float], m: int, n_views: int = 2) -> float:
    """Expected alignment loss of the optimal whitened m-dimensional code.

    With V views drawn independently from the channel, a unit-variance feature of
    eigenvalue lambda contributes (V - 1) / V * (1 - lambda^2) (two views of the same z
    have correlation lambda^2), and the loss averages over the m coordinates:

        L_min = (V - 1) / V * (1 - (1/m) sum_{k <= m} lambda_k^2).
    """
    if isinstance(n_views, bool) or not isinstance(n_views, numbers.Integral) or n_views < 2:
        raise ValueError(f"n_views={n_views!r} must be an integer >= 2")
    lams = predicted_features(rhos, m).eigenvalues
    mean_sq = sum(lam * lam for lam in lams) / len(lams)
    return (n_views - 1) / n_views * (1.0 - mean_sq)


def _hermite_table(z: torch.Tensor, degree: int) -> torch.Tensor:
    """He_d(z) / sqrt(d!) for d = 0 .. degree, by He_{d+1} = x He_d - d He_{d-1}.

    Shape:
        z: (...) -> (degree + 1, ...)
    """
    table = [torch.ones_like(z), z]
    for d in range(1, degree):
        table.append(z * table[d] - d * table[d - 1])
    table = table[: degree + 1]
    norms = [math.sqrt(math.factorial(d)) for d in range(degree + 1)]
    return torch.stack([t / c for t, c in zip(table, norms)])


def hermite_features(z: ArrayLike, indices: Sequence[MultiIndex]) -> torch.Tensor:
    """Normalized Hermite products phi_a(z) = prod_i He_{a_i}(z_i) / sqrt(a_i!), float64.

    Under z ~ N(0, I) these are orthonormal: a whitened code.

    Shape:
        z: (..., B, n), indices: K multi-indices of length n -> (..., B, K)
    """
    z = torch.as_tensor(z).to(torch.float64)
    dim = z.shape[-1]
    if not indices:
        raise ValueError("indices=[] must hold at least one multi-index")
    for a in indices:
        if len(a) != dim or any(d < 0 for d in a):
            raise ValueError(f"index {a!r} must hold {dim} non-negative degrees (latent dim)")
    if all(sum(a) == 1 for a in indices):  # He_1(z_i) = z_i: a column selection
        return z[..., [a.index(1) for a in indices]]
    table = _hermite_table(z, max(max(a) for a in indices))  # (D+1, ..., n, N)
    cols = []
    for a in indices:
        col = torch.ones(z.shape[:-1], dtype=z.dtype, device=z.device)
        for i, d in enumerate(a):
            if d:
                col = col * table[d, ..., i]
        cols.append(col)
    return torch.stack(cols, dim=-1)


def predicted_feature_r2(z: ArrayLike, h: ArrayLike, indices: Sequence[MultiIndex]) -> torch.Tensor:
    """R^2 of the affine least-squares prediction of the code h from the predicted features.

    1 when h is an invertible affine map of the features (the predicted optimum), lower
    by the share of h's variance the features do not explain.

    Shape:
        z: (..., B, n), h: (..., B, m), indices: K multi-indices -> (...)
    """
    return r2(hermite_features(z, indices), h)


def predicted_r2(rhos: Sequence[float], m: int) -> tuple[float, float]:
    """(R^2(h -> z), R^2(z -> h)) of the predicted optimal code.

    Features of degree >= 2 are uncorrelated with z, so with L linear features among the
    m chosen: R^2(h -> z) = L / n and R^2(z -> h) = L / m. With a tie at the m-th place
    that mixes degrees, the value follows the documented tie-break.
    """
    rhos = validate_rhos(rhos)
    linear = sum(d == 1 for d in predicted_features(rhos, m).degrees)
    return linear / len(rhos), linear / m


def linear_identifiability_predicted(rhos: Sequence[float]) -> bool:
    """Whether the optimal whitened n-dimensional code is predicted to be h = Q z.

    True exactly when min_i rho_i > max_i rho_i^2: every linear eigenvalue beats every
    higher-degree one (the largest of those is max_i rho_i^2). At equality (within
    TIE_RTOL) the n-th place is tied between z_argmin and He_2(z_argmax) / sqrt(2), the
    optimum is not unique and the answer is False. Computed from predicted_features, so
    the two always agree.
    """
    rhos = validate_rhos(rhos)
    features = predicted_features(rhos, len(rhos))
    return features.unique and all(d == 1 for d in features.degrees)
