"""What an action run learned, against the true world (docs/spectral.md, "Action worlds:
what is measured").

Conventions: the true world is z' = A z + B a + noise (column vectors). The learned
predictor P(h, a) = h W_A + a W_B acts on row vectors, so in column form it is
h' = P_A h + P_B a with P_A = W_A^T and P_B = W_B^T. The code is linearized by the
least-squares affine fit h ~ M z + c on the evaluation latents.

- ``predictor_err``: with Q the orthogonal polar factor of M (the rotation nearest to M,
  the Procrustes solution), the relative Frobenius error
  ||[P_A - Q A Q^T, P_B - Q B]||_F / ||[Q A Q^T, Q B]||_F.
- ``lqr_cost_ratio``: the controller designed in the learned space, K_h from LQR on
  (P_A, P_B) with state cost I and control cost I, regulates the code to the code of the
  goal z = 0, u = -K_h (h - c) = -K_h M z. Its expected infinite-horizon cost on the
  true system (state cost I, control cost I, x0 ~ N(0, I)) divided by the optimal
  one; inf when the closed loop A - B K_h M is unstable (or no LQR solution exists).
- ``lqr_value_err``: the learned-space value matrix P_h pulled back to z, M^T P_h M,
  against the true value matrix P: ||M^T P_h M - P||_F / ||P||_F (inf without P_h).

They are 0, 1 and 0 when h = Q z + c and the predictor is (Q A Q^T, Q B) (tested).
"""

from __future__ import annotations

import numpy as np

from lejepa_id.linalg import affine_fit, polar_factor
from lejepa_id.metrics.registry import declare_metric
from lejepa_id.theory import lqr as lqr

# Computed by the trainer at the end of an action run (absent from other runs' results).
declare_metric(
    "predictor_err",
    "predictor err.",
    "relative Frobenius error of the learned predictor against (Q A Q^T, Q B)",
    summary=True,
)
declare_metric(
    "lqr_value_err",
    "LQR value err.",
    "relative error of the learned-space LQR value matrix pulled back to z",
)
declare_metric(
    "lqr_cost_ratio",
    "LQR cost ratio",
    "true-system cost of the learned-space LQR controller over the optimal cost",
    summary=True,
)


def predictor_error(
    P_A: np.ndarray, P_B: np.ndarray, A: np.ndarray, B: np.ndarray, Q: np.ndarray
) -> float:
    """||[P_A - Q A Q^T, P_B - Q B]||_F / ||[Q A Q^T, Q B]||_F."""
    want = np.concatenate([Q @ A @ Q.T, Q @ B], axis=1)
    have = np.concatenate([P_A, P_B], axis=1)
    return float(np.linalg.norm(have - want) / np.linalg.norm(want))


def policy_cost(A: np.ndarray, B: np.ndarray, K: np.ndarray) -> float:
    """E sum_t x_t^T x_t + u_t^T u_t of u = -K x on x' = A x + B u with x0 ~ N(0, I):
    tr P for P = A_K^T P A_K + I + K^T K, A_K = A - B K; inf if A_K is unstable."""
    A_K = A - B @ K
    if not lqr.spectral_radius(A_K) < 1.0:
        return float("inf")
    import scipy.linalg  # here: the metrics load at every run's start, most without actions

    P = scipy.linalg.solve_discrete_lyapunov(A_K.T, np.eye(A.shape[0]) + K.T @ K)
    return float(np.trace(P))


def lqr_scores(
    P_A: np.ndarray, P_B: np.ndarray, A: np.ndarray, B: np.ndarray, M: np.ndarray
) -> dict[str, float]:
    """``lqr_cost_ratio`` and ``lqr_value_err`` of the learned-space LQR design."""
    eye_k = np.eye(B.shape[1])
    _, P = lqr.lqr_gain(A, B, np.eye(A.shape[0]), eye_k)
    try:
        K_h, P_h = lqr.lqr_gain(P_A, P_B, np.eye(P_A.shape[0]), eye_k)
    except (ValueError, np.linalg.LinAlgError):
        # The learned system has no stabilizing LQR solution.
        return {"lqr_cost_ratio": float("inf"), "lqr_value_err": float("inf")}
    return {
        "lqr_cost_ratio": policy_cost(A, B, K_h @ M) / float(np.trace(P)),
        "lqr_value_err": float(np.linalg.norm(M.T @ P_h @ M - P) / np.linalg.norm(P)),
    }


def action_scores(
    z: np.ndarray, h: np.ndarray, W_A: np.ndarray, W_B: np.ndarray, A: np.ndarray, B: np.ndarray
) -> dict[str, float]:
    """``predictor_err``, ``lqr_cost_ratio`` and ``lqr_value_err`` of one run (NaN if
    m != n or h is not finite).

    Shape:
        z: (B, n), h: (B, m), W_A: (m, m), W_B: (k, m), A: (n, n), B: (n, k)
    """
    if h.shape[1] != z.shape[1] or not np.all(np.isfinite(h)):
        return dict.fromkeys(("predictor_err", "lqr_cost_ratio", "lqr_value_err"), float("nan"))
    W, _ = affine_fit(z, h)  # h ~ z @ W + c, so M = W^T
    M = W.T.numpy()
    P_A, P_B = W_A.T, W_B.T
    return {
        "predictor_err": predictor_error(P_A, P_B, A, B, polar_factor(W.T).numpy()),
        **lqr_scores(P_A, P_B, A, B, M),
    }
