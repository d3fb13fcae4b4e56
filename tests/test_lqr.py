"""LQR and linear action worlds: closed forms, coordinate invariance, stationarity."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import ortho_group

from lejepa_id.theory.lqr import (
    check_stable,
    identity_noise,
    lqr_gain,
    rollout_cost,
    stationary_covariance,
    transform_lqr,
)

A2 = np.array([[0.95, 0.05], [-0.03, 0.92]])
B2 = 0.3 * np.eye(2)


@pytest.mark.parametrize("a,b,q,r", [(1.2, 1.0, 1.0, 1.0), (0.5, 2.0, 3.0, 0.1)])
def test_scalar_riccati_closed_form(a, b, q, r):
    # p = q + a^2 p - a^2 b^2 p^2 / (r + b^2 p)  <=>  b^2 p^2 + (r - q b^2 - a^2 r) p - q r = 0
    c = r - q * b * b - a * a * r
    p = (-c + math.sqrt(c * c + 4 * b * b * q * r)) / (2 * b * b)
    K, P = lqr_gain([[a]], [[b]], [[q]], [[r]])
    assert P[0, 0] == pytest.approx(p, rel=1e-12)
    assert K[0, 0] == pytest.approx(a * b * p / (r + b * b * p), rel=1e-12)


def test_rollout_cost_tends_to_the_value():
    Q, R = np.eye(2), np.eye(2)
    K, P = lqr_gain(A2, B2, Q, R)
    x0 = np.array([1.0, -2.0])
    assert rollout_cost(A2, B2, Q, R, K, x0, 2_000) == pytest.approx(x0 @ P @ x0, rel=1e-9)
    # the optimal gain beats a perturbed one
    worse = rollout_cost(A2, B2, Q, R, K + 0.1, x0, 2_000)
    assert worse > x0 @ P @ x0 * (1 + 1e-4)


def test_cost_and_value_are_invariant_under_orthogonal_coordinates():
    rng = np.random.default_rng(0)
    T = ortho_group.rvs(3, random_state=rng)
    A = 0.9 * ortho_group.rvs(3, random_state=rng)
    B = rng.normal(size=(3, 2))
    Q = np.diag([1.0, 2.0, 3.0])
    R = np.array([[1.0, 0.2], [0.2, 0.5]])
    K, P = lqr_gain(A, B, Q, R)
    sys_h = transform_lqr(A, B, Q, R, T)
    K_h, P_h = lqr_gain(sys_h.A, sys_h.B, sys_h.Q, sys_h.R)
    np.testing.assert_allclose(P_h, T @ P @ T.T, atol=1e-10)
    np.testing.assert_allclose(K_h, K @ T.T, atol=1e-10)
    x0 = rng.normal(size=3)
    noise = rng.normal(size=(50, 3))
    cost_z = rollout_cost(A, B, Q, R, K, x0, 50, noise)
    cost_h = rollout_cost(sys_h.A, sys_h.B, sys_h.Q, sys_h.R, K_h, T @ x0, 50, noise @ T.T)
    assert cost_h == pytest.approx(cost_z, rel=1e-10)


def test_general_invertible_change_of_coordinates():
    T = np.array([[2.0, 1.0], [0.0, 0.5]])
    K, P = lqr_gain(A2, B2, np.eye(2), np.eye(2))
    sys_h = transform_lqr(A2, B2, np.eye(2), np.eye(2), T)
    K_h, P_h = lqr_gain(sys_h.A, sys_h.B, sys_h.Q, sys_h.R)
    T_inv = np.linalg.inv(T)
    np.testing.assert_allclose(P_h, T_inv.T @ P @ T_inv, atol=1e-9)
    np.testing.assert_allclose(K_h, K @ T_inv, atol=1e-9)


def test_identity_noise_makes_the_standard_gaussian_stationary():
    S = identity_noise(A2, B2)
    np.testing.assert_allclose(stationary_covariance(A2, B2, S), np.eye(2), atol=1e-12)


def test_stationary_covariance_by_simulation():
    A = np.array([[0.6, 0.2], [-0.1, 0.5]])
    B = np.array([[0.4], [0.3]])
    S = identity_noise(A, B)
    rng = np.random.default_rng(1)
    chains, steps = 40_000, 60  # radius 0.57: the start z = 0 is forgotten to 1e-14
    L = np.linalg.cholesky(S + 1e-15 * np.eye(2))
    z = np.zeros((chains, 2))
    for _ in range(steps):
        a = rng.normal(size=(chains, 1))
        z = z @ A.T + a @ B.T + rng.normal(size=(chains, 2)) @ L.T
    cov = z.T @ z / chains
    # SE of a sample covariance entry of N(0, I): sqrt((1 + delta_ij) / chains) <= 0.0071
    assert np.abs(cov - np.eye(2)).max() < 5 * math.sqrt(2 / chains)
    assert np.abs(z.mean(axis=0)).max() < 5 / math.sqrt(chains)


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: check_stable(np.array([[1.0, 0.0], [0.0, 0.5]])), "spectral radius 1"),
        (lambda: identity_noise(np.eye(2) * 0.9, np.eye(2) * 0.9), "eigenvalue -0.62"),
        (lambda: lqr_gain(A2, np.ones((3, 1)), np.eye(2), np.eye(1)), r"B has shape \(3, 1\)"),
        (lambda: lqr_gain(A2, B2, np.eye(2), np.eye(1)), r"R has shape \(1, 1\)"),
        (lambda: stationary_covariance(np.ones((2, 3)), B2, np.eye(2)), "A has shape"),
        (lambda: transform_lqr(A2, B2, np.eye(2), np.eye(2), np.ones((2, 2))), "condition"),
    ],
)
def test_bad_input_is_one_line(call, match):
    with pytest.raises(ValueError, match=match) as err:
        call()
    assert "\n" not in str(err.value)
