"""Fabricated runs with known answers: result directories on disk and runs tables."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from lejepa_id.config.run import RunConfig
from lejepa_id.records.io import atomic_write_json


def metrics(
    r2: float,
    dim: int = 2,
    rho: float = 0.95,
    bound: float = 0.5,
    error: float = 0.1,
    grid_r2: float | None = None,
) -> dict:
    """A result's metrics: R^2, bound quantities and (N = 2) the grid metrics."""
    trace = float(dim)
    out = {
        "r2_hz": r2,
        "r2_zh": r2,
        "r2_xz": 0.75,
        "r2_zx": 0.7,
        "orth_err": 1 - r2,
        "orth_err_normalized": (1 - r2) / math.sqrt(dim),
        "epsilon": 0.01,
        "L_h": 2 * (1 - rho) * trace,
        "trace_cov": trace,
        "delta": 0.0,
        "D_bound": 0.0,
        "approx_bound": bound,
        "procrustes_mse": error,
        "procrustes_mse_centered": error,
        # Converged and identified unless a test says otherwise (the claims' premises).
        "predicted_alignment_gap": 0.0,
        "orth_err_scale_free": 1 - r2,
    }
    if dim == 2:
        g = r2 if grid_r2 is None else grid_r2
        out |= {"grid_r2_hz": g, "grid_r2_zh": g, "grid_orth_err": 1 - g}
    return out


def write_run(
    root: Path,
    experiment: str,
    run: str,
    run_id: str,
    cfg: RunConfig,
    values: dict,
    status: str = "finished",
    curves: dict | None = None,
) -> None:
    """One run's result.json (with ``curves`` when given), and its entry in the
    experiment's sweep.json."""
    losses = {"loss": 0.1, "alignment": 0.05, cfg.mode: 0.05}
    atomic_write_json(
        root / experiment / run_id / "result.json",
        {
            "config": cfg.to_dict(),
            "status": status,
            "metrics": values,
            "losses": losses,
            "curves": curves or {},
            "name": run_id,
            "seed": cfg.seed,
            "diverged_step": None if status == "finished" else 3,
        },
    )
    manifest = root / experiment / "sweep.json"
    data = (
        json.loads(manifest.read_text())
        if manifest.exists()
        else {"experiment": experiment, "run_ids": {}}
    )
    data["run_ids"][run_id] = run
    atomic_write_json(manifest, data)


def runs_frame(rows: list[dict]) -> pd.DataFrame:
    """A finished-runs table as ``collect`` returns it, from partial rows with defaults."""
    base = {
        "experiment": "gennorm",
        "run": "spiral_lejepa",
        "status": "finished",
        "mode": "lejepa",
        "mixing": "spiral",
        "encoder": "mlp",
        "layers": 8,
        "law": "gennorm",
        "alpha": 2.0,
        "dim": 2,
        "rho": 0.95,
        "lam": 1e-3,
        "sigma": 1.0,
        "seed": 0,
        "steps": 20000,
        "r2_hz": 0.98,
        "grid_r2_hz": 0.98,
        "orth_err": 0.1,
        "grid_orth_err": 0.1,
        "delta": 0.0,
        "trace_cov": 2.0,
        "epsilon": 0.01,
        "approx_bound": 0.5,
        "procrustes_mse_centered": 0.1,
    }
    return pd.DataFrame([base | row for row in rows])


def judged_by(claim_id: str, version: int):
    """``frame -> Claim``: claim ``claim_id`` judged by version ``version`` of its rule."""
    from lejepa_id.analysis.claims import Evidence, judge, versions

    entry = versions(claim_id)[version - 1]

    def provider(frame: pd.DataFrame):
        return judge(entry, Evidence(frame=frame))

    return provider
