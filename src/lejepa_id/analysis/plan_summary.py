"""Across-seed summaries of the planning evaluation: per kind, per (kind, lambda), between kinds.

Every test here takes one value per run (the run's mean over its start/goal pairs): the
runs are the replicates. Intervals are t intervals over runs; the two-level bootstrap
(runs and pairs) only with at least ``statistics.BOOTSTRAP_MIN_RUNS`` runs a group, since
with fewer it cannot see the run-to-run spread.
"""

from __future__ import annotations

import itertools

import numpy as np

from lejepa_id.analysis import plan_statistics as st

# Kinds in display order; a comparison (a, b) reads "a costs less/more than b".
KIND_ORDER = ("ou", "trajmatch", "traj")


def kind_order(kinds) -> list[str]:
    """Known kinds first, in KIND_ORDER, then any others sorted."""
    kinds = set(kinds)
    return [k for k in KIND_ORDER if k in kinds] + sorted(kinds - set(KIND_ORDER))


def _against(matrix: np.ndarray, margin: float, what: str) -> dict:
    """Equivalence and difference of the runs' means of ``matrix`` (runs, pairs) from 0."""
    run_means = matrix.mean(1)
    tost = st.tost_one_sample(run_means, margin)
    test = st.t_test_zero(run_means, f"costs more than {what}", f"costs less than {what}")
    enough = matrix.shape[0] >= st.BOOTSTRAP_MIN_RUNS
    return {
        "run_means": run_means.tolist(),
        "mean": float(run_means.mean()),
        "ci95_t": st.t_interval(run_means, 0.95),
        "ci95": st.bootstrap_runs_pairs(matrix, level=0.95) if enough else None,
        "ci90": st.bootstrap_runs_pairs(matrix, level=0.90) if enough else None,
        "tost": tost,
        "t_test": test,
        "verdict": st.verdict(tost["p_tost"], test["p"]),
    }


def group_summary(members: list[dict], log_ref: np.ndarray, margin: float) -> dict:
    """One group of runs (a kind, or a kind at one lambda)."""
    logs = np.log(np.array([r["ratio"] for r in members]))
    rel = np.array([r["lqr_rel_err"].get("median", np.nan) for r in members], dtype=float)
    return {
        "runs": len(members),
        "lams": sorted({r["lam"] for r in members}),
        "seeds": sorted({r["seed"] for r in members}),
        "ratio_geomean": float(np.exp(logs.mean())),
        "ratio_median_of_runs": float(np.median([r["ratio_median"] for r in members])),
        "regret_median_of_runs": float(np.median([r["regret_median"] for r in members])),
        "opt_ratio_median_of_runs": float(np.median([r["opt_ratio_median"] for r in members])),
        "early_fraction_mean": float(np.mean([r["early_fraction"] for r in members])),
        "r2_hz": [r["r2_hz"] for r in members],
        "vs_oracle": _against(logs, margin, "the oracle"),
        "vs_reference": _against(logs - log_ref, margin, "the reference"),
        "lqr_rel_err_run_medians": [float(v) if np.isfinite(v) else None for v in rel],
        "lqr_rel_err_median_of_runs": float(np.nanmedian(rel)) if np.isfinite(rel).any() else None,
    }


def compare_kinds(runs: list[dict], a: str, b: str, margin: float) -> dict:
    """Runs of kind a against runs of kind b on their mean log(J / J_oracle)."""
    ra = [r for r in runs if r["kind"] == a]
    rb = [r for r in runs if r["kind"] == b]
    out = st.compare_two(
        [r["log_ratio_mean"] for r in ra], [r["log_ratio_mean"] for r in rb], (a, b), margin
    )
    out["ci95_welch"] = st.welch_interval(
        [r["log_ratio_mean"] for r in ra], [r["log_ratio_mean"] for r in rb]
    )
    enough = min(len(ra), len(rb)) >= st.BOOTSTRAP_MIN_RUNS
    out["ci95"] = (
        st.bootstrap_difference(np.log([r["ratio"] for r in ra]), np.log([r["ratio"] for r in rb]))
        if enough
        else None
    )
    out["verdict"] = st.verdict(out["p_tost"], out["p_welch"])
    out["metric"] = "mean log(J/J_oracle) per run"
    return out


def summarize(runs: list[dict], log_ref: np.ndarray, margin: float) -> dict:
    """``kinds``, ``groups`` (kind/lam) and ``comparisons`` blocks of plan.json."""
    kinds = kind_order(r["kind"] for r in runs)
    out_kinds = {
        k: group_summary([r for r in runs if r["kind"] == k], log_ref, margin) for k in kinds
    }
    groups = {}
    for k in kinds:
        for lam in sorted({r["lam"] for r in runs if r["kind"] == k}):
            members = [r for r in runs if r["kind"] == k and r["lam"] == lam]
            groups[f"{k}/lam{lam:g}"] = group_summary(members, log_ref, margin)
    comparisons = {
        f"{a}_vs_{b}": compare_kinds(runs, a, b, margin)
        for a, b in itertools.combinations(kinds, 2)
    }
    return {
        "margin_log": float(margin),
        "unit": "run (mean over pairs); tests across seeds use one value per run",
        "kinds": out_kinds,
        "groups": groups,
        "comparisons": comparisons,
    }
