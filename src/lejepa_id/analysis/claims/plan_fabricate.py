"""Fabricated Reacher plans (plan.json as ``lejepa-id reacher plan`` writes it) for the
Reacher claims' self-checks: runs of given kinds with chosen costs and codes."""

from __future__ import annotations

import math

import numpy as np

from lejepa_id.analysis.plan_summary import summarize

PAIRS = 40


def fake_run(kind: str, centre: float, seed: int, r2: float = 0.99, orth: float = 0.05,
             lqr: float = 0.01, label: str | None = None) -> dict:  # fmt: skip
    """One run's plan record: per-pair log cost ratios around ``centre``."""
    rng = np.random.default_rng(seed + 100 * len(kind))
    log_r = centre + 0.02 * rng.standard_normal(PAIRS) + 0.01 * seed
    ratio = np.exp(log_r)
    name = label or kind
    return {
        "run": f"{name}/lam0.01_seed{seed}",
        "label": name,
        "kind": kind,
        "lam": 0.01,
        "seed": seed,
        "ratio": ratio.tolist(),
        "ratio_median": float(np.median(ratio)),
        "regret_median": float(np.median(ratio / 0.539 - 1)),
        "opt_ratio_median": 1.0,
        "early_fraction": float(np.mean(ratio < 1)),
        "log_ratio_mean": float(log_r.mean()),
        "log_ratio_vs_reference_mean": float(log_r.mean()),
        "r2_hz": r2,
        "orth_err_whitened": orth,
        "lqr_rel_err": {"median": lqr},
    }


def plan(runs: list[dict], margin: float = 0.05) -> dict:
    """plan.json of ``runs`` (the reference's log cost is 0 on every pair)."""
    return {
        "config": {"equiv_margin": margin},
        "runs": runs,
        **summarize(runs, np.zeros(PAIRS), math.log1p(margin)),
    }
