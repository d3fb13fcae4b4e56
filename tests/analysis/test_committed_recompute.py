"""An independent recomputation of committed verdict values from runs.csv, with plain
pandas and none of the claim code: the numbers in claims.json must agree to the digit."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

RESULTS = Path(__file__).resolve().parents[2] / "results"


# results/runs is reported into results/ (scripts/full_results.sh).
CLAIMS = {"runs": RESULTS / "claims.json"}


def _claim(folder: str, cid: str) -> dict:
    path = CLAIMS.get(folder, RESULTS / folder / "claims.json")
    claims = json.loads(path.read_text())["claims"]
    return next(c for c in claims if c["id"] == cid)


def _runs(folder: str) -> pd.DataFrame:
    frame = pd.read_csv(RESULTS / folder / "runs.csv")
    return frame[frame["status"] == "finished"]


def _gaussian_theory(frame: pd.DataFrame) -> pd.DataFrame:
    gaussian = (frame["law"] == "gaussian") | ((frame["law"] == "gennorm") & (frame["alpha"] == 2))
    return frame[gaussian & frame["mode"].isin(["lejepa", "whiten"])]


def test_alignment_gap_per_lambda_recomputed():
    rows = _gaussian_theory(_runs("paper-cpu"))
    rows = rows[(rows["steps"] >= 20000) & rows["delta"].notna()]
    alive = rows[rows["trace_cov"] / rows["dim"] > 1e-6]
    ratio = alive["delta"] / (2 * (1 - alive["rho"]) * alive["trace_cov"])
    parts = _claim("paper-cpu", "alignment_gap")["values"]["parts"]
    grid = alive["experiment"] == "grid"
    for lam, sel in ratio[grid].groupby(alive.loc[grid, "lam"]):
        part = parts[f"grid λ={lam:g}"]
        assert part["median"] == pytest.approx(float(sel.median()), rel=1e-12)
        assert part["n_above"] == int((sel > 0.05).sum())
    for exp in ("2d", "gennorm", "scaling"):
        sel = ratio[alive["experiment"] == exp]
        assert parts[exp]["median"] == pytest.approx(float(sel.median()), rel=1e-12)
    dead = rows[~(rows["trace_cov"] / rows["dim"] > 1e-6)]
    assert parts["grid λ=0.0001"] == {"verdict": "collapsed", "n_runs": 2, "collapsed": 2}
    assert len(dead) == 2


def test_bound_counts_and_informative_maximum_recomputed():
    for folder in ("paper-cpu", "runs"):
        rows = _gaussian_theory(_runs(folder))
        rows = rows[rows["approx_bound"].notna() & rows["procrustes_mse_centered"].notna()]
        alive = rows[rows["trace_cov"] / rows["dim"] > 1e-6]
        informative = alive[alive["approx_bound"] < alive["dim"]]
        ratio = informative["procrustes_mse_centered"] / informative["approx_bound"]
        v = _claim(folder, "theorem3_bound")["values"]
        assert v["n_informative"] == len(informative)
        assert v["n_vacuous"] == len(alive) - len(informative)
        assert v["n_collapsed"] == len(rows) - len(alive)
        assert v["max_error_over_bound_informative"] == pytest.approx(float(ratio.max()), rel=1e-12)


def test_scaling_floor_recomputed():
    rows = _runs("paper-cpu")
    rows = rows[rows["experiment"] == "scaling"]
    means = rows.groupby(["mode", "dim"])["r2_hz"].mean()
    v = _claim("paper-cpu", "scaling")["values"]
    assert v["min_sigreg"] == pytest.approx(float(means["lejepa"].min()), rel=1e-12)
    assert v["min_vicreg"] == pytest.approx(float(means["whiten"].min()), rel=1e-12)
    assert _claim("paper-cpu", "scaling")["verdict"] == "fail"
    assert float(means["lejepa"].min()) <= 0.999
