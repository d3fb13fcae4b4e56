"""Planning in a learned latent space (Theorem 4) and the LQR value check.

Straight-line planning: a start and a goal frame are encoded; the plan is the straight
segment between their codes, read back into joint angles by k-nearest-neighbour regression
on the eval gallery. If the code is an orthogonal transform of the angles, the segment
maps to the straight segment in angle space, which is the oracle plan, so J / J_oracle
should be 1 up to the read-out's own error. A code that bends the angle space maps the
segment to a curved, longer path.

LQR: for linear dynamics z' = A z + B u with quadratic, rotation-invariant costs, the
optimal value in an orthogonally identified space equals the true one point by point.
The encoder's pushed-forward system uses the affine fit h = M z + c:
h' - c = (M A M^-1)(h - c) + (M B) u, with the same costs |h - c|^2 + |u|^2.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from scipy import linalg, stats

from lejepa_id.errors import UsageError
from lejepa_id.io import load_tensors, read_json
from lejepa_id.metrics import affine_fit

LQR_A = np.array([[0.95, 0.05], [-0.03, 0.92]])
LQR_B = 0.3 * np.eye(2)


@dataclass
class PlanConfig:
    """Settings of the planning evaluation (defaults: SPEC section 8)."""

    k_pairs: int = 100
    """Number of (start, goal) pairs drawn from the eval gallery."""
    points: int = 8
    """Waypoints of each plan, end points included."""
    knn: int = 5
    """Neighbours of the k-NN read-out from codes to angles."""
    margin: float = 0.25
    """Start and goal angles lie in (-pi + margin, pi - margin), away from the wrap."""
    seed: int = 0
    """Seed of the pair draw (the same pairs for every encoder)."""

    def validate(self) -> None:
        if self.k_pairs < 2 or self.points < 2 or self.knn < 1 or not 0 <= self.margin < np.pi:
            raise UsageError(
                f"need --k >= 2, --points >= 2, --knn >= 1 and 0 <= --margin < pi "
                f"(got {self.k_pairs}, {self.points}, {self.knn}, {self.margin})"
            )


def select_pairs(z: np.ndarray, cfg: PlanConfig) -> np.ndarray:
    """Distinct gallery indices (start, goal) with both angles inside the margin.

    Shape: z (n, 2) -> (k_pairs, 2) int
    """
    ok = np.flatnonzero(np.all(np.abs(z) < np.pi - cfg.margin, axis=1))
    if ok.size < 2 * cfg.k_pairs:
        raise UsageError(
            f"the eval gallery has {ok.size} usable frames, fewer than 2 x --k={cfg.k_pairs}"
        )
    rng = np.random.default_rng([cfg.seed, 11])
    return rng.choice(ok, size=2 * cfg.k_pairs, replace=False).reshape(cfg.k_pairs, 2)


def knn_decode(query: torch.Tensor, codes: torch.Tensor, z: torch.Tensor, k: int) -> torch.Tensor:
    """Mean angles of the k gallery frames whose codes are nearest to each query code.

    Shape: query (..., d), codes (n, d), z (n, 2) -> (..., 2)
    """
    flat = query.reshape(-1, query.shape[-1])
    idx = torch.cdist(flat, codes).topk(k, dim=1, largest=False).indices
    return z[idx].mean(1).reshape(*query.shape[:-1], z.shape[-1])


def nearest_frames(query: torch.Tensor, codes: torch.Tensor) -> torch.Tensor:
    """Index of the gallery frame nearest to each query. Shape: (..., d) -> (...)."""
    flat = query.reshape(-1, query.shape[-1])
    return torch.cdist(flat, codes).argmin(1).reshape(query.shape[:-1])


def path_cost(theta: torch.Tensor, goal: torch.Tensor) -> torch.Tensor:
    """J = sum_t |theta_t - goal|^2 + sum_t |theta_{t+1} - theta_t|^2.

    Shape: theta (..., T, 2), goal (..., 2) -> (...)
    """
    to_goal = (theta - goal.unsqueeze(-2)).pow(2).sum((-2, -1))
    steps = (theta[..., 1:, :] - theta[..., :-1, :]).pow(2).sum((-2, -1))
    return to_goal + steps


def straight_line(a: torch.Tensor, b: torch.Tensor, points: int) -> torch.Tensor:
    """points equally spaced points from a to b. Shape: (..., d), (..., d) -> (..., T, d)."""
    s = torch.linspace(0, 1, points, dtype=a.dtype).view(*([1] * (a.dim() - 1)), points, 1)
    return a.unsqueeze(-2) + s * (b - a).unsqueeze(-2)


def plan_paths(
    codes: torch.Tensor, z: torch.Tensor, pairs: np.ndarray, cfg: PlanConfig
) -> dict[str, torch.Tensor]:
    """Latent straight-line plans of one encoder, decoded to angles, with end points pinned.

    Shape: codes (n, d), z (n, 2), pairs (K, 2) -> theta (K, T, 2), J (K,),
    J_oracle (K,), ratio (K,)
    """
    s, g = torch.as_tensor(pairs[:, 0]), torch.as_tensor(pairs[:, 1])
    line = straight_line(codes[s], codes[g], cfg.points)  # (K, T, d)
    theta = knn_decode(line, codes, z, cfg.knn)
    theta[:, 0], theta[:, -1] = z[s], z[g]  # pin: the start is known, the goal is reached
    oracle = straight_line(z[s], z[g], cfg.points)
    J, J_o = path_cost(theta, z[g]), path_cost(oracle, z[g])
    return {"theta": theta, "J": J, "J_oracle": J_o, "ratio": J / J_o, "line": line}


def lqr_value_errors(
    z_fit: torch.Tensor, h_fit: torch.Tensor, z_eval: torch.Tensor, h_eval: torch.Tensor
) -> dict[str, np.ndarray]:
    """Optimal LQR values in true space and in the encoder's pushed-forward space.

    The affine map h = M z + c is fitted on the training embeddings (like every read-out);
    V_true(z0) = z0^T P z0 and V_code(h0) = (h0 - c)^T P_h (h0 - c) on the eval set, with
    P, P_h the solutions of the two discrete algebraic Riccati equations.

    Shape: z_fit, h_fit (n_fit, 2), z_eval, h_eval (n, 2) -> arrays (n,) and P matrices
    """
    W, c = affine_fit(z_fit, h_fit)  # h ~ z @ W + c, so M = W^T
    M = W.T.numpy()
    eye = np.eye(2)
    P = linalg.solve_discrete_are(LQR_A, LQR_B, eye, eye)
    try:
        A_h = M @ LQR_A @ np.linalg.inv(M)
        P_h = linalg.solve_discrete_are(A_h, M @ LQR_B, eye, eye)
    except (np.linalg.LinAlgError, ValueError):
        # A collapsed code has a singular M: there is no pushed-forward system.
        nan = np.full(len(z_eval), np.nan)
        return {"V_true": nan, "V_code": nan, "rel_err": nan, "P": P, "P_code": None}
    z0 = z_eval.numpy()
    h0 = (h_eval - c).numpy()
    V_true = np.einsum("ni,ij,nj->n", z0, P, z0)
    V_code = np.einsum("ni,ij,nj->n", h0, P_h, h0)
    return {
        "V_true": V_true,
        "V_code": V_code,
        "rel_err": np.abs(V_code - V_true) / V_true,
        "P": P,
        "P_code": P_h,
    }


def _quantiles(x: np.ndarray) -> dict:
    x = x[np.isfinite(x)]
    if x.size == 0:
        return {"n": 0}
    q = np.quantile(x, [0.1, 0.25, 0.5, 0.75, 0.9])
    return {
        "n": int(x.size),
        "mean": float(x.mean()),
        "q10": q[0],
        "q25": q[1],
        "median": q[2],
        "q75": q[3],
        "q90": q[4],
    }


def _wilcoxon(x: np.ndarray) -> float | None:
    x = x[np.isfinite(x)]
    if x.size < 2 or np.allclose(x, 0):
        return None
    return float(stats.wilcoxon(x).pvalue)


def find_runs(runs_dir: str | Path) -> list[Path]:
    """Finished runs (directories holding result.json and codes.safetensors), sorted."""
    root = Path(runs_dir)
    runs = sorted(p.parent for p in root.glob("*/*/result.json"))
    runs = [r for r in runs if (r / "codes.safetensors").is_file()]
    if not runs:
        raise UsageError(
            f"no finished runs under {root}: train some with `lejepa-id reacher train`"
        )
    return runs


def evaluate_planning(runs_dir: str | Path, z_gallery: np.ndarray, cfg: PlanConfig) -> dict:
    """Planning costs, LQR value errors and the statistical tests for every run.

    Tests (two-sided): per run and per dataset kind, Wilcoxon signed-rank of
    log(J / J_oracle) against 0 ("vs oracle") and against the same k-NN read-out applied to
    the true angles ("vs reference", which removes the read-out's own error); kind means
    are over the runs of that kind, pair by pair. OU vs trajectory: Mann-Whitney U on the
    per-run mean log ratios and a paired Wilcoxon on the per-pair kind means.
    """
    cfg.validate()
    z = torch.from_numpy(z_gallery).double()
    pairs = select_pairs(z_gallery, cfg)
    ref = plan_paths(z, z, pairs, cfg)  # the true angles through the same read-out
    log_ref = torch.log(ref["ratio"]).numpy()
    runs = []
    for run in find_runs(runs_dir):
        res = read_json(run / "result.json")
        codes = load_tensors(run / "codes.safetensors")
        h = codes["h_eval"].double()
        if h.shape[0] != z.shape[0]:
            raise UsageError(
                f"run {run} was evaluated on a gallery of {h.shape[0]} frames, this one has "
                f"{z.shape[0]}: pass the --eval dataset it was trained with"
            )
        plan = plan_paths(h, z, pairs, cfg)
        log_r = torch.log(plan["ratio"]).numpy()
        lqr = lqr_value_errors(codes["z_fit"], codes["h_fit"], z, h)
        runs.append(
            {
                "run": str(run),
                "label": res["label"],
                "kind": res["kind"],
                "lam": res["config"]["lam"],
                "seed": res["config"]["seed"],
                "r2_hz": res["metrics"]["r2_hz"],
                "orth_err_whitened": res["metrics"]["orth_err_whitened"],
                "ratio": plan["ratio"].tolist(),
                "ratio_median": float(plan["ratio"].median()),
                "ratio_mean": float(plan["ratio"].mean()),
                "log_ratio_mean": float(log_r.mean()),
                "p_vs_oracle": _wilcoxon(log_r),
                "p_vs_reference": _wilcoxon(log_r - log_ref),
                "lqr_rel_err": _quantiles(lqr["rel_err"]),
            }
        )
    kinds = sorted({r["kind"] for r in runs})
    groups = {}
    per_pair = {}
    for kind in kinds:
        logs = np.stack([np.log(r["ratio"]) for r in runs if r["kind"] == kind])
        per_pair[kind] = logs.mean(0)
        rel = [r["lqr_rel_err"].get("median", np.nan) for r in runs if r["kind"] == kind]
        groups[kind] = {
            "runs": int(logs.shape[0]),
            "ratio_median_over_pairs_and_runs": float(np.exp(np.median(logs))),
            "ratio_geomean": float(np.exp(logs.mean())),
            "p_vs_oracle": _wilcoxon(per_pair[kind]),
            "p_vs_reference": _wilcoxon(per_pair[kind] - log_ref),
            "lqr_rel_err_median_of_runs": (
                float(np.nanmedian(rel)) if np.isfinite(rel).any() else None
            ),
        }
    tests = {}
    if "ou" in kinds and "traj" in kinds:
        ou_runs = [r["log_ratio_mean"] for r in runs if r["kind"] == "ou"]
        tr_runs = [r["log_ratio_mean"] for r in runs if r["kind"] == "traj"]
        tests["ou_vs_traj_mannwhitney_runs_p"] = float(
            stats.mannwhitneyu(ou_runs, tr_runs, alternative="two-sided").pvalue
        )
        tests["ou_vs_traj_wilcoxon_pairs_p"] = _wilcoxon(per_pair["ou"] - per_pair["traj"])
        tests["ou_vs_traj_mannwhitney_pairs_p"] = float(
            stats.mannwhitneyu(per_pair["ou"], per_pair["traj"], alternative="two-sided").pvalue
        )
    return {
        "config": cfg.__dict__,
        "pairs": pairs.tolist(),
        "reference": {
            "ratio": ref["ratio"].tolist(),
            "ratio_median": float(ref["ratio"].median()),
            "note": "true angles through the same k-NN read-out: the read-out's own error",
        },
        "runs": runs,
        "kinds": groups,
        "tests": tests,
    }
