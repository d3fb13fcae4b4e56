"""Fabricated runs for the claims' self-checks: every registered rule must be judged
``fail`` on runs where its premises hold and the claim is false, and ``not shown`` on
runs where a premise fails (:func:`lejepa_id.analysis.claims.register_claim`).

:func:`runs` builds a runs table as ``lejepa-id aggregate`` writes it, from partial rows
on top of one Gaussian N = 2 LeJEPA run that is converged, whitened and identified.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from lejepa_id.analysis.claims.registry import Evidence

BASE: dict[str, Any] = {
    "experiment": "fabricated",
    "run": "spiral_lejepa",
    "run_id": "spiral_lejepa-seed0",
    "status": "finished",
    "mode": "lejepa",
    "mixing": "spiral",
    "encoder": "mlp",
    "layers": 8,
    "law": "gaussian",
    "alpha": 2.0,
    "dim": 2,
    "rho": 0.95,
    "lam": 1e-3,
    "sigma": 1.0,
    "seed": 0,
    "steps": 20000,
    "inits": 3,
    "device": "cpu",
    "transition": "ou",
    "r2_hz": 0.99,
    "r2_zh": 0.99,
    "grid_r2_hz": 0.99,
    "orth_err": 0.01,
    "orth_err_scale_free": 0.01,
    "grid_orth_err": 0.01,
    "delta": 0.0,
    "trace_cov": 2.0,
    "epsilon": 0.01,
    "approx_bound": 0.5,
    "procrustes_mse_centered": 0.1,
    "procrustes_mse": 0.1,
    "predicted_alignment_gap": 0.0,
    "loss_plateau": 0.0,
    "loss_plateau_mean": 0.0,
    "loss_end": 0.1,
    "loss_doubling": 0.0,
}


def runs(rows: list[dict[str, Any]], **common: Any) -> pd.DataFrame:
    """A runs table: BASE, then ``common``, then each row's own values; ``run_id`` made
    unique from the row's index when a row does not set it."""
    out = []
    for i, row in enumerate(rows):
        full = BASE | {"run_id": f"fabricated-{i}"} | common | row
        out.append(full)
    return pd.DataFrame(out)


def evidence(rows: list[dict[str, Any]], **common: Any) -> Evidence:
    return Evidence(frame=runs(rows, **common))
