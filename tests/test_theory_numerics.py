"""Numerical companion to the machine-checked theorems (formal/).

Checks with numpy/scipy the analytic facts the Coq development assumes or proves:
Mehler's formula for the OU channel (the axiom ``mehler_alignment``), the
correlation bound with its equality case (``corr_bound``, ``corr_equality_iff``),
and the Theorem-3 inequality with its corollaries (``approx_identifiability`` and
friends), on random admissible inputs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.polynomial import hermite_e as herm


def he_poly(d: int, x: np.ndarray) -> np.ndarray:
    """Probabilists' Hermite polynomial He_d evaluated at x."""
    coef = np.zeros(d + 1)
    coef[d] = 1.0
    return herm.hermeval(x, coef)


# ----------------------------------------------------------------- Mehler's formula


@pytest.mark.parametrize("rho", [0.3, 0.7, 0.95])
@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_mehler_monte_carlo(d: int, rho: float) -> None:
    """E[He_d(z) He_d(z')] = d! rho^d for z' = rho z + sqrt(1 - rho^2) eta."""
    rng = np.random.default_rng(1000 * d + int(100 * rho))
    n = 400_000
    z = rng.standard_normal(n)
    zp = rho * z + math.sqrt(1 - rho**2) * rng.standard_normal(n)
    prod = he_poly(d, z) * he_poly(d, zp)
    est = prod.mean()
    se = prod.std(ddof=1) / math.sqrt(n)
    # 5 standard errors: a false failure has probability ~6e-7 per case, and the
    # seed is fixed anyway; the exact check below has no sampling error.
    assert abs(est - math.factorial(d) * rho**d) < 5 * se


@pytest.mark.parametrize("rho", [0.0, 0.3, 0.7, 0.95, 0.999])
def test_mehler_gauss_hermite_exact(rho: float) -> None:
    """Exact bivariate Gauss-Hermite quadrature: E[He_j(z) He_k(z')] = delta_jk k! rho^k."""
    x, w = herm.hermegauss(40)  # exact for polynomials of degree <= 79 in each variable
    w = w / w.sum()  # weights of N(0, 1)
    Z, E = np.meshgrid(x, x, indexing="ij")
    W = np.outer(w, w)
    Zp = rho * Z + math.sqrt(1 - rho**2) * E
    for j in range(7):
        for k in range(7):
            val = float((W * he_poly(j, Z) * he_poly(k, Zp)).sum())
            expected = math.factorial(k) * rho**k if j == k else 0.0
            assert val == pytest.approx(expected, abs=1e-9 * max(1.0, math.factorial(k)))


def test_mehler_alignment_of_a_whitened_encoder() -> None:
    """Alignment loss of a unit-variance coordinate = 2 (1 - sum_d w_d rho^d)."""
    x, w = herm.hermegauss(60)
    w = w / w.sum()
    Z, E = np.meshgrid(x, x, indexing="ij")
    W = np.outer(w, w)
    rho = 0.8
    Zp = rho * Z + math.sqrt(1 - rho**2) * E
    rng = np.random.default_rng(7)
    coefs = rng.standard_normal(6)
    coefs[0] = 0.0  # centered
    weights = np.array([c**2 * math.factorial(d) for d, c in enumerate(coefs)])
    coefs /= math.sqrt(weights.sum())  # unit variance
    weights /= weights.sum()
    h = herm.hermeval(Z, coefs)
    hp = herm.hermeval(Zp, coefs)
    loss = float((W * (h - hp) ** 2).sum())
    spectral = 2 * (1 - sum(wd * rho**d for d, wd in enumerate(weights)))
    assert loss == pytest.approx(spectral, rel=1e-10)
    assert loss >= 2 * (1 - rho) - 1e-12


# ----------------------------------------------------------------- correlation bound


def random_weights(rng: np.random.Generator, dmax: int) -> np.ndarray:
    """Spectral weights: w_0 = 0, w_d >= 0, sum = 1 (sparse so edge cases occur)."""
    w = rng.exponential(size=dmax + 1) * (rng.random(dmax + 1) < 0.6)
    w[0] = 0.0
    if w.sum() == 0:
        w[1] = 1.0
    return w / w.sum()


def test_correlation_bound_random_weights() -> None:
    rng = np.random.default_rng(0)
    degrees = np.arange(31)
    for _ in range(2000):
        w = random_weights(rng, 30)
        rho = rng.uniform(0.01, 0.99)
        corr = float(w @ rho**degrees)
        assert corr <= rho + 1e-12
        # The gap is at least rho (1 - rho) times the nonlinear mass (the Pythagorean
        # split behind Theorem 3), so equality needs all mass on degree one.
        nl = float(w[2:].sum())
        assert rho - corr >= rho * (1 - rho) * nl - 1e-12
        if nl > 1e-9:
            assert corr < rho


def test_correlation_bound_equality_only_at_degree_one() -> None:
    degrees = np.arange(11)
    for rho in (0.1, 0.5, 0.9):
        w = np.zeros(11)
        w[1] = 1.0
        assert float(w @ rho**degrees) == pytest.approx(rho, abs=1e-15)
        for d in range(2, 11):
            v = w.copy()
            v[1], v[d] = 1 - 1e-3, 1e-3  # a little mass moved to degree d
            assert float(v @ rho**degrees) < rho


# ----------------------------------------------------------------- Theorem 3


def thm3_bound(delta: np.ndarray, eps: np.ndarray, rho: np.ndarray) -> np.ndarray:
    D = delta / (2 * rho * (1 - rho))
    return D + (eps + D) ** 2


def admissible_samples(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    """Random numbers satisfying the hypotheses of Theorem 3.

    W_nl >= 0, eps >= 0, delta >= 2 rho (1 - rho) W_nl, 0 <= |M - Q| <= eps + W_nl;
    heavy use of the boundary cases (zero slack) so that equality cases are hit.
    """
    rho = rng.uniform(0.01, 0.99, n)
    W = rng.exponential(0.2, n) * (rng.random(n) < 0.8)
    eps = rng.exponential(0.2, n) * (rng.random(n) < 0.8)
    slack = rng.exponential(0.1, n) * (rng.random(n) < 0.5)
    delta = 2 * rho * (1 - rho) * W + slack
    mq = (eps + W) * np.where(rng.random(n) < 0.3, 1.0, rng.random(n))
    return {"rho": rho, "W": W, "eps": eps, "delta": delta, "mq": mq}


def test_theorem3_bound_random_admissible() -> None:
    s = admissible_samples(np.random.default_rng(1), 200_000)
    rho, W, eps, delta, mq = s["rho"], s["W"], s["eps"], s["delta"], s["mq"]
    kappa = 2 * rho * (1 - rho)
    assert np.all(kappa > 0)
    D = delta / kappa
    assert np.all(W <= D * (1 + 1e-12) + 1e-15)
    total = mq**2 + W
    bound = thm3_bound(delta, eps, rho)
    assert np.all(total <= bound * (1 + 1e-12) + 1e-15)
    # The bound is attained when every inequality is tight.
    tight = (delta == kappa * W) & (mq == eps + W)
    assert np.allclose(total[tight], bound[tight])


def test_theorem3_corollaries() -> None:
    rng = np.random.default_rng(2)
    s = admissible_samples(rng, 100_000)
    rho, eps, delta = s["rho"], s["eps"], s["delta"]
    bound = thm3_bound(delta, eps, rho)
    # Monotone in delta and in eps.
    assert np.all(thm3_bound(delta * 1.1 + 1e-3, eps, rho) >= bound)
    assert np.all(thm3_bound(delta, eps + 1e-3, rho) >= bound)
    # delta = eps = 0: the hypotheses force W_nl = 0 and |M - Q| = 0.
    assert np.all(thm3_bound(np.zeros_like(rho), np.zeros_like(rho), rho) == 0)
    # Small-error regime: eps + D <= 1 gives bound <= 2 D + eps.
    D = delta / (2 * rho * (1 - rho))
    small = eps + D <= 1
    assert small.sum() > 1000
    assert np.all(bound[small] <= (2 * D + eps)[small] + 1e-12)


# ------------------------------------------------ Gaussian second moment and spectrum (C1)


@pytest.mark.parametrize("c", [0.1, 0.5, 1.0, 3.0, 20.0])
def test_gaussian_second_moment_bound(c: float) -> None:
    """Gaussian.v bounds the half-line second moment by K (1/c + 2/c^2) via the
    primitive H(u) = -K (1/c + u^2/c + 2/c^2) exp(-c u^2 / 2); the exact value is
    K sqrt(2 pi) / (2 c^(3/2))."""
    x, w = herm.hermegauss(60)  # integrates p(u) e^{-u^2/2} exactly for deg(p) <= 119
    exact_half = math.sqrt(2 * math.pi) / (2 * c**1.5)
    # E_{u ~ N(0, 1/c)} u^2 = 1/c, times the normalizer sqrt(2 pi / c), halved.
    quad_half = float((w * (x / math.sqrt(c)) ** 2).sum()) / math.sqrt(c) / 2
    assert quad_half == pytest.approx(exact_half, rel=1e-12)
    assert exact_half <= 1 / c + 2 / c**2
    u = np.linspace(0, 10 / math.sqrt(c), 2001)
    g = u**2 * np.exp(-c * u**2 / 2)
    h = (u + u**3) * np.exp(-c * u**2 / 2)
    assert np.all(g <= h + 1e-15)  # the majorant used in the proof


@pytest.mark.parametrize("d", [0, 1, 2, 3, 5])
def test_hermite_eigenfunctions_of_the_gaussian_generator(d: int) -> None:
    """He_d(sqrt(c) (x - m)) solves g'' - c (x - m) g' = -c d g (the spectrum in axiom C1)."""
    c, m = 2.5, -0.7
    coef = np.zeros(d + 1)
    coef[d] = 1.0
    x = np.linspace(-3, 3, 41)
    s = math.sqrt(c)
    g = herm.hermeval(s * (x - m), coef)
    g1 = s * herm.hermeval(s * (x - m), herm.hermeder(coef, 1))
    g2 = c * herm.hermeval(s * (x - m), herm.hermeder(coef, 2))
    assert np.allclose(g2 - c * (x - m) * g1, -c * d * g, atol=1e-9 * max(1, math.factorial(d)))
