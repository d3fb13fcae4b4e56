"""Linear action worlds and discrete-time LQR, in true and in transformed coordinates.

World: z_{t+1} = A z_t + B a_t + w_t with actions a_t ~ N(0, I_k) and noise w_t ~ N(0, S).
Control: x_{t+1} = A x_t + B u_t with stage cost x^T Q x + u^T R u, policy u = -K x and
value x^T P x (docs/spectral.md, "Action worlds").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Slack for round-off in the checks below (eigenvalues of products of unit-scale matrices).
ATOL = 1e-10


def _matrix(name: str, M: np.ndarray, shape: tuple[int | None, int | None]) -> np.ndarray:
    """M as a float64 2-d array with the given shape (None: any size)."""
    M = np.asarray(M, dtype=np.float64)
    if M.ndim != 2 or any(s is not None and s != d for s, d in zip(shape, M.shape)):
        want = " x ".join("*" if s is None else str(s) for s in shape)
        raise ValueError(f"{name} has shape {M.shape}; expected {want}")
    if not np.all(np.isfinite(M)):
        raise ValueError(f"{name} holds non-finite entries")
    return M


def _square(name: str, M: np.ndarray) -> np.ndarray:
    """M as a validated float64 square matrix."""
    M = _matrix(name, M, (None, None))
    return _matrix(name, M, (M.shape[0], M.shape[0]))


def _system(A: np.ndarray, B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Validated (A (n, n), B (n, k)): an action dimension mismatch is a one-line error."""
    A = _square("A", A)
    return A, _matrix("B", B, (A.shape[0], None))


def spectral_radius(A: np.ndarray) -> float:
    """max |eigenvalue| of A."""
    return float(np.max(np.abs(np.linalg.eigvals(A))))


def check_stable(A: np.ndarray) -> np.ndarray:
    """A, if its spectral radius is < 1 (the chain has a stationary law); else ValueError."""
    A = _square("A", A)
    radius = spectral_radius(A)
    if not radius < 1.0:
        raise ValueError(f"A has spectral radius {radius:.6g}; a stable A needs < 1")
    return A


def stationary_covariance(A: np.ndarray, B: np.ndarray, S: np.ndarray) -> np.ndarray:
    """Sigma solving Sigma = A Sigma A^T + B B^T + S: the stationary covariance of
    z_{t+1} = A z + B a + w with a ~ N(0, I) and w ~ N(0, S).

    Shape:
        A: (n, n), B: (n, k), S: (n, n) -> (n, n)
    """
    A, B = _system(A, B)
    check_stable(A)
    S = _matrix("S", S, A.shape)
    import scipy.linalg  # here: the worlds import this module, and most need no SciPy

    return scipy.linalg.solve_discrete_lyapunov(A, B @ B.T + S)


def identity_noise(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """The noise covariance S = I - A A^T - B B^T that makes N(0, I) the stationary law.

    S must be positive semi-definite; otherwise no Gaussian noise can do it and this
    raises ValueError naming the most negative eigenvalue.

    Shape:
        A: (n, n), B: (n, k) -> (n, n)
    """
    A, B = _system(A, B)
    check_stable(A)
    S = np.eye(A.shape[0]) - A @ A.T - B @ B.T
    S = 0.5 * (S + S.T)
    low = float(np.linalg.eigvalsh(S).min())
    if low < -ATOL:
        raise ValueError(
            f"I - A A^T - B B^T has eigenvalue {low:.6g} < 0; shrink A or B so it is PSD"
        )
    return S


def lqr_gain(
    A: np.ndarray, B: np.ndarray, Q: np.ndarray, R: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Infinite-horizon discrete LQR: gain K (u = -K x) and value matrix P (cost x^T P x).

    P solves P = Q + A^T P A - A^T P B (R + B^T P B)^{-1} B^T P A and
    K = (R + B^T P B)^{-1} B^T P A.

    Shape:
        A: (n, n), B: (n, k), Q: (n, n), R: (k, k) -> K (k, n), P (n, n)
    """
    A, B = _system(A, B)
    Q = _matrix("Q", Q, A.shape)
    R = _matrix("R", R, (B.shape[1], B.shape[1]))
    import scipy.linalg  # as in stationary_covariance

    P = scipy.linalg.solve_discrete_are(A, B, Q, R)
    K = np.linalg.solve(R + B.T @ P @ B, B.T @ P @ A)
    return K, P


def rollout_cost(
    A: np.ndarray,
    B: np.ndarray,
    Q: np.ndarray,
    R: np.ndarray,
    K: np.ndarray,
    x0: np.ndarray,
    steps: int,
    noise: np.ndarray | None = None,
) -> float:
    """Total cost sum_{t < steps} x_t^T Q x_t + u_t^T R u_t of the policy u = -K x.

    ``noise`` (steps, n), if given, is added to each transition. Noise-free, the cost
    tends to x0^T P x0 as steps grows, for the optimal K.

    Shape:
        A: (n, n), B: (n, k), K: (k, n), x0: (n,) -> scalar
    """
    A, B = _system(A, B)
    x = np.asarray(x0, dtype=np.float64).copy()
    total = 0.0
    for t in range(steps):
        u = -K @ x
        total += float(x @ Q @ x + u @ R @ u)
        x = A @ x + B @ u + (0.0 if noise is None else noise[t])
    return total


@dataclass(frozen=True)
class LinearSystem:
    """Dynamics x' = A x + B u with stage cost x^T Q x + u^T R u."""

    A: np.ndarray
    B: np.ndarray
    Q: np.ndarray
    R: np.ndarray


def transform_lqr(
    A: np.ndarray, B: np.ndarray, Q: np.ndarray, R: np.ndarray, T: np.ndarray
) -> LinearSystem:
    """The same control problem in coordinates h = T z, T invertible.

    A_h = T A T^{-1}, B_h = T B, Q_h = T^{-T} Q T^{-1} (so h^T Q_h h = z^T Q z), R_h = R.
    Then every action sequence has the same cost, P_h = T^{-T} P T^{-1} and
    K_h = K T^{-1}; for orthogonal T these are T A T^T, T Q T^T, T P T^T and K T^T.

    Shape:
        A: (n, n), B: (n, k), Q: (n, n), R: (k, k), T: (n, n) -> LinearSystem
    """
    A, B = _system(A, B)
    T = _matrix("T", T, A.shape)
    if np.linalg.cond(T) > 1e12:
        raise ValueError(f"T has condition number {np.linalg.cond(T):.3g}; it must be invertible")
    T_inv = np.linalg.inv(T)
    Q = _matrix("Q", Q, A.shape)
    return LinearSystem(A=T @ A @ T_inv, B=T @ B, Q=T_inv.T @ Q @ T_inv, R=np.asarray(R))
