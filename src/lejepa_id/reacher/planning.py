"""Planning in a learned latent space (Theorem 4) and the LQR value check.

Straight-line planning: a start and a goal frame are encoded; the plan is the straight
segment between their codes, read back into joint angles by k-nearest-neighbour regression
on the eval gallery. If the code is an orthogonal transform of the angles, the segment
maps to the straight segment in angle space, which is the oracle plan, so J / J_oracle
should be 1 up to the read-out's own error. A code that bends the angle space maps the
segment to a curved, longer path.

The straight line is not the minimizer of J: with pinned ends, J is a quadratic in the
interior points whose exact minimizer moves along the same segment with front-loaded
steps (:func:`optimal_weights`; at 8 points it costs 0.54 of the straight line). A plan
that arrives early can therefore beat the oracle (J / J_oracle < 1), so the regret
J / J_opt - 1 against the exact optimum, never negative, is reported too.

LQR: for linear dynamics z' = A z + B u with quadratic, rotation-invariant costs, the
optimal value in an orthogonally identified space equals the true one point by point.
The encoder's pushed-forward system uses the affine fit h = M z + c:
h' - c = (M A M^-1)(h - c) + (M B) u, with the same costs |h - c|^2 + |u|^2.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

import numpy as np
import torch
from safetensors import SafetensorError

from lejepa_id.analysis import plan_statistics as st
from lejepa_id.errors import UsageError
from lejepa_id.linalg import affine_fit
from lejepa_id.records.io import load_tensors, read_json_mapping
from lejepa_id.records.result import RESULT_FILE
from lejepa_id.theory import lqr

LQR_A = np.array([[0.95, 0.05], [-0.03, 0.92]])
LQR_B = 0.3 * np.eye(2)


@dataclass
class PlanConfig:
    """Settings of the planning evaluation (defaults: docs/model.md, section 8)."""

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
    equiv_margin: float = 0.05
    """Equivalence margin of the TOST: J / J_oracle within [1/(1 + m), 1 + m] on average
    (a margin of log(1 + m) on the mean log ratio)."""

    def validate(self) -> None:
        if self.k_pairs < 2 or self.points < 2 or self.knn < 1 or not 0 <= self.margin < np.pi:
            raise UsageError(
                f"need --k >= 2, --points >= 2, --knn >= 1 and 0 <= --margin < pi "
                f"(got {self.k_pairs}, {self.points}, {self.knn}, {self.margin})"
            )
        if not 0 < self.equiv_margin < 1:
            raise UsageError(f"--equiv-margin={self.equiv_margin} must lie in (0, 1)")


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


def optimal_weights(points: int) -> np.ndarray:
    """Weights w of the exact minimizer of J with pinned ends: theta_t = g + w_t (s - g).

    J splits into independent coordinates x_t = theta_t - g with x_0 = s - g and
    x_{T-1} = 0; setting its gradient in the interior points to zero gives the
    tridiagonal system 3 x_t - x_{t-1} - x_{t+1} = 0, linear in x_0. Every joint and every
    (start, goal) pair use the same weights. Shape: -> (points,), w_0 = 1, w_{T-1} = 0.
    """
    if points < 2:
        raise UsageError(f"--points={points} must be >= 2")
    w = np.zeros(points)
    w[0] = 1.0
    m = points - 2
    if m:
        system = 3.0 * np.eye(m) - np.eye(m, k=1) - np.eye(m, k=-1)
        rhs = np.zeros(m)
        rhs[0] = 1.0
        w[1:-1] = np.linalg.solve(system, rhs)
    return w


def interpolate(a: torch.Tensor, b: torch.Tensor, w: np.ndarray) -> torch.Tensor:
    """Points b + w_t (a - b). Shape: (..., d), (..., d), (T,) -> (..., T, d)."""
    wt = torch.as_tensor(w, dtype=a.dtype).view(*([1] * (a.dim() - 1)), len(w), 1)
    return b.unsqueeze(-2) + wt * (a - b).unsqueeze(-2)


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

    ``ratio`` = J / J_oracle (the straight line in angles); ``regret`` = J / J_opt - 1
    against the exact minimizer of J. The same read-out of the J-optimal path laid in the
    code (its weights are affine invariant) gives ``opt_ratio`` = J_optplan / J_opt.

    Shape: codes (n, d), z (n, 2), pairs (K, 2) -> theta (K, T, 2), J (K,),
    J_oracle (K,), J_opt (K,), ratio (K,), regret (K,), opt_ratio (K,)
    """
    s, g = torch.as_tensor(pairs[:, 0]), torch.as_tensor(pairs[:, 1])
    line = straight_line(codes[s], codes[g], cfg.points)  # (K, T, d)
    theta = _decode_pinned(line, codes, z, s, g, cfg.knn)
    w = optimal_weights(cfg.points)
    theta_opt = _decode_pinned(interpolate(codes[s], codes[g], w), codes, z, s, g, cfg.knn)
    oracle = straight_line(z[s], z[g], cfg.points)
    J, J_o = path_cost(theta, z[g]), path_cost(oracle, z[g])
    J_opt = path_cost(interpolate(z[s], z[g], w), z[g])
    return {
        "theta": theta,
        "J": J,
        "J_oracle": J_o,
        "J_opt": J_opt,
        "ratio": J / J_o,
        "regret": J / J_opt - 1.0,
        "opt_ratio": path_cost(theta_opt, z[g]) / J_opt,
        "line": line,
    }


def _decode_pinned(path, codes, z, s, g, knn: int) -> torch.Tensor:
    theta = knn_decode(path, codes, z, knn)
    theta[:, 0], theta[:, -1] = z[s], z[g]  # pin: the start is known, the goal is reached
    return theta


class LqrValues(TypedDict):
    """What :func:`lqr_value_errors` returns; ``P_code`` is None for a collapsed code."""

    V_true: np.ndarray
    V_code: np.ndarray
    rel_err: np.ndarray
    P: np.ndarray
    P_code: np.ndarray | None


def lqr_value_errors(
    z_fit: torch.Tensor, h_fit: torch.Tensor, z_eval: torch.Tensor, h_eval: torch.Tensor
) -> LqrValues:
    """Optimal LQR values in true space and in the encoder's pushed-forward space.

    The affine map h = M z + c is fitted on the training embeddings (like every read-out);
    V_true(z0) = z0^T P z0 and V_code(h0) = (h0 - c)^T P_h (h0 - c) on the eval set, with
    P, P_h the solutions of the two discrete algebraic Riccati equations.

    Shape: z_fit, h_fit (n_fit, 2), z_eval, h_eval (n, 2) -> arrays (n,) and P matrices
    """
    W, c = affine_fit(z_fit, h_fit)  # h ~ z @ W + c, so M = W^T
    M = W.T.numpy()
    eye = np.eye(2)
    _, P = lqr.lqr_gain(LQR_A, LQR_B, eye, eye)
    try:
        # The dynamics pushed forward to the code, with the code's own identity cost.
        pushed = lqr.transform_lqr(LQR_A, LQR_B, eye, eye, M)
        _, P_h = lqr.lqr_gain(pushed.A, pushed.B, eye, eye)
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


def find_runs(runs_dir: str | Path) -> list[Path]:
    """Finished runs (directories holding result.json and codes.safetensors), sorted."""
    root = Path(runs_dir)
    runs = sorted(p.parent for p in root.glob(f"*/*/{RESULT_FILE}"))
    runs = [r for r in runs if (r / "codes.safetensors").is_file()]
    if not runs:
        raise UsageError(
            f"no finished runs under {root}: train some with `lejepa-id reacher train`"
        )
    return runs


def recorded_run(run: Path, runs_dir: str | Path) -> str:
    """How plan.json names a run: its path relative to the runs directory
    (``<label>/lam<lam>_seed<seed>``), so the plan reads the same from any folder and
    after the runs directory moves."""
    return Path(run).relative_to(Path(runs_dir)).as_posix()


def resolve_run(runs_dir: str | Path, recorded: str) -> Path:
    """The run a plan names, under ``runs_dir``. Only the last two parts of the recorded
    name count (plans written before names were relative stored the path the plan ran
    from), and the run must be there: a plan never reads codes from another folder that
    happens to have the recorded name."""
    parts = Path(str(recorded)).parts
    run = Path(runs_dir).joinpath(*parts[-2:]) if len(parts) >= 2 else None
    if run is None or not (run / "codes.safetensors").is_file():
        raise UsageError(
            f"plan names run {str(recorded)!r}, which is not under --runs {str(runs_dir)!r} "
            "(no codes.safetensors there): pass the --runs the plan was made from"
        )
    return run


def run_record(
    run: Path,
    z: torch.Tensor,
    pairs: np.ndarray,
    cfg: PlanConfig,
    log_ref,
    runs_dir: str | Path | None = None,
) -> dict:
    """One run's plans, per-pair costs, its own (within-run) tests and its LQR errors;
    ``run`` is named relative to ``runs_dir`` (:func:`recorded_run`) when given."""
    res = _read_result(run)
    codes = _read_codes(run)
    h = codes["h_eval"].double()
    if h.shape[0] != z.shape[0]:
        raise UsageError(
            f"run {run} was evaluated on a gallery of {h.shape[0]} frames, this one has "
            f"{z.shape[0]}: pass the --eval dataset it was trained with"
        )
    plan = plan_paths(h, z, pairs, cfg)
    log_r = torch.log(plan["ratio"]).numpy()
    d_ref = log_r - log_ref
    lqr = lqr_value_errors(codes["z_fit"], codes["h_fit"], z, h)
    more, less = "costs more than the oracle", "costs less than the oracle"
    return {
        "run": str(run) if runs_dir is None else recorded_run(run, runs_dir),
        "label": res["label"],
        "kind": res["kind"],
        "lam": res["config"]["lam"],
        "seed": res["config"]["seed"],
        "train_identity": res["data"]["train_identity"],
        "r2_hz": res["metrics"]["r2_hz"],
        "orth_err_whitened": res["metrics"]["orth_err_whitened"],
        "ratio": plan["ratio"].tolist(),
        "regret": plan["regret"].tolist(),
        "opt_ratio": plan["opt_ratio"].tolist(),
        "ratio_median": float(plan["ratio"].median()),
        "ratio_mean": float(plan["ratio"].mean()),
        "regret_median": float(plan["regret"].median()),
        "opt_ratio_median": float(plan["opt_ratio"].median()),
        "early_fraction": float((plan["ratio"] < 1.0).double().mean()),
        "log_ratio_mean": float(log_r.mean()),
        "log_ratio_ci95": st.bootstrap_pairs(log_r),
        "log_ratio_vs_reference_mean": float(d_ref.mean()),
        "log_ratio_vs_reference_ci95": st.bootstrap_pairs(d_ref),
        "vs_oracle": st.wilcoxon_zero(log_r, more, less),
        "vs_reference": st.wilcoxon_zero(
            d_ref, "costs more than the reference", "costs less than the reference"
        ),
        "lqr_rel_err": _quantiles(lqr["rel_err"]),
        "lqr_rel_err_values": _subsampled(lqr["rel_err"]),
    }


def _subsampled(x: np.ndarray, m: int = 500) -> list[float | None]:
    """A fixed, sorted subset of per-point values for the boxplots (all when n <= m)."""
    keep = np.arange(len(x)) if len(x) <= m else np.random.default_rng(0).choice(len(x), m, False)
    return [float(v) if np.isfinite(v) else None for v in x[np.sort(keep)]]


def _read_result(run: Path) -> dict:
    """A run's result.json with the keys planning reports, or a one-line UsageError."""
    path = run / RESULT_FILE
    res = read_json_mapping(path, "run result")
    need = {
        "config": ("lam", "seed"),
        "data": ("train_identity",),
        "metrics": ("r2_hz", "orth_err_whitened"),
    }
    ok = all(k in res for k in ("label", "kind")) and all(
        isinstance(res.get(part), dict) and all(k in res[part] for k in keys)
        for part, keys in need.items()
    )
    if ok and not isinstance(res["data"]["train_identity"], dict):
        ok = False
    if not ok:
        raise UsageError(f"run result {str(path)!r} is incomplete; retrain the run")
    return res


def _read_codes(run: Path) -> dict[str, torch.Tensor]:
    """A run's saved codes; a corrupt or incomplete file is a one-line UsageError."""
    path = run / "codes.safetensors"
    try:
        codes = load_tensors(path)
    except (OSError, SafetensorError) as exc:
        raise UsageError(f"{path} is unreadable ({exc}); retrain the run") from None
    missing = [k for k in ("h_eval", "h_fit", "z_fit") if k not in codes]
    if missing:
        raise UsageError(f"{path} lacks {', '.join(missing)}; retrain the run")
    return codes


def evaluate_planning(runs_dir: str | Path, z_gallery: np.ndarray, cfg: PlanConfig) -> dict:
    """Planning costs, LQR value errors and the statistical tests for every run.

    Per run (pairs are the replicates): Wilcoxon signed-rank of log(J / J_oracle) against
    0 ("vs oracle") and against the same k-NN read-out applied to the true angles ("vs
    reference", which removes the read-out's own error), with a bootstrap interval. Across
    seeds (runs are the replicates; see :mod:`lejepa_id.analysis.plan_statistics`): per kind
    and per (kind, lambda), TOST equivalence with margin ``equiv_margin`` and a t-test on
    the runs' mean log ratios, with two-level bootstrap intervals; between kinds, Welch t,
    Mann-Whitney and a two-sample TOST on the runs' mean log ratios.
    """
    from lejepa_id.analysis.plan_summary import summarize

    cfg.validate()
    z = torch.from_numpy(z_gallery).double()
    pairs = select_pairs(z_gallery, cfg)
    ref = plan_paths(z, z, pairs, cfg)  # the true angles through the same read-out
    log_ref = torch.log(ref["ratio"]).numpy()
    runs = [run_record(run, z, pairs, cfg, log_ref, runs_dir) for run in find_runs(runs_dir)]
    return {
        "config": cfg.__dict__,
        "pairs": pairs.tolist(),
        "optimal_weights": optimal_weights(cfg.points).tolist(),
        "J_oracle": ref["J_oracle"].tolist(),
        "J_opt": ref["J_opt"].tolist(),
        "reference": {
            "ratio": ref["ratio"].tolist(),
            "ratio_median": float(ref["ratio"].median()),
            "regret": ref["regret"].tolist(),
            "opt_ratio": ref["opt_ratio"].tolist(),
            "note": "true angles through the same k-NN read-out: the read-out's own error",
        },
        "runs": runs,
        **summarize(runs, log_ref, np.log1p(cfg.equiv_margin)),
    }
