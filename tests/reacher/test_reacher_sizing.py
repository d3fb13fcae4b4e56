"""The registered stage-two sizing of the Reacher planning claims: the power formulas on
known answers and a simulation, and the rule on fabricated plans."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats

from lejepa_id.analysis import plan_statistics as st
from lejepa_id.reacher.sizing import RULE, main, stage_two

MARGIN = math.log1p(0.05)


def test_the_sd_bound_of_three_runs_has_its_closed_form() -> None:
    # df = 2: the chi-square is exponential with mean 2, its 0.2 quantile -2 ln 0.8.
    assert st.sd_upper(1.0, 3, 0.8) == pytest.approx(1 / math.sqrt(-math.log(0.8)))
    assert st.sd_upper(0.5, 3, 0.8) == pytest.approx(0.5 * 2.116936, rel=1e-6)
    assert math.isnan(st.sd_upper(1.0, 1))


def test_tost_power_agrees_with_a_simulation() -> None:
    rng = np.random.default_rng(7)
    n, sd, margin = 10, 1.0, 1.0
    x = rng.normal(0.0, sd, (40_000, n))
    se = x.std(axis=1, ddof=1) / math.sqrt(n)
    crit = stats.t.ppf(0.95, n - 1)
    both = ((x.mean(1) + margin) / se > crit) & ((x.mean(1) - margin) / se < -crit)
    assert st.tost_power(n, sd, margin) == pytest.approx(both.mean(), abs=0.015)
    # Sizes: the first n at or above 80% power, and none when the mean is outside the margin.
    need = st.runs_for_tost(sd, margin)
    assert st.tost_power(need, sd, margin) >= 0.8 > st.tost_power(need - 1, sd, margin)
    assert st.runs_for_tost(sd, margin, mean=1.5) is None


def _run(kind: str, seed: int, value: float, r2: float = 0.99, orth: float = 0.05) -> dict:
    return {"run": f"{kind}/lam0.01_seed{seed}", "kind": kind, "seed": seed,
            "log_ratio_mean": value, "r2_hz": r2, "orth_err_whitened": orth}  # fmt: skip


def _plan(ou: list[float], traj: list[float], match: list[float], **ou_kw) -> dict:
    runs = [_run("ou", s, v, **ou_kw) for s, v in enumerate(ou)]
    runs += [_run("traj", s, v) for s, v in enumerate(traj)]
    runs += [_run("trajmatch", s, v) for s, v in enumerate(match)]
    return {"runs": runs}


def test_stage_two_sizes_each_claim_from_its_runs() -> None:
    ou, traj, match = [0.00, 0.01, 0.02], [0.10, 0.12, 0.14], [0.03, 0.05, 0.07]
    sizing = stage_two(_plan(ou, traj, match))
    oracle = sizing["claims"]["reacher_ou_plans_like_oracle"]
    assert oracle["sd"] == pytest.approx(0.01) and oracle["sd_from"] == "identified OU runs"
    need = st.runs_for_tost(st.sd_upper(0.01, 3), MARGIN)
    assert oracle["identified_runs_needed"] == need
    assert oracle["runs_needed"] == math.ceil(need / (2 / 3))
    worse = sizing["claims"]["reacher_traj_plans_worse"]
    pooled = math.sqrt((0.01**2 + 0.02**2) / 2)
    assert worse["sd"] == pytest.approx(pooled)
    assert worse["runs_needed"] == st.runs_for_power(st.sd_upper(pooled, 5), MARGIN)
    kinds = sizing["kinds"]
    want_ou = max(3, oracle["runs_needed"], worse["runs_needed"],
                  sizing["claims"]["reacher_gap_not_coverage"]["runs_needed"])  # fmt: skip
    assert kinds["ou"]["need"] == min(want_ou, RULE.cap)
    assert kinds["ou"]["add_seeds"] == list(range(3, kinds["ou"]["need"]))
    assert kinds["traj"]["need"] == max(3, worse["runs_needed"])


def test_a_wide_spread_is_capped_and_said_so() -> None:
    sizing = stage_two(_plan([0.0, 0.3, -0.3], [0.5, 0.9, 0.1], [0.2, -0.2, 0.6]))
    assert all(k["need"] == RULE.cap and k["above_cap"] for k in sizing["kinds"].values())
    assert sizing["claims"]["reacher_traj_plans_worse"]["above_cap"]


def test_unidentified_ou_runs_size_from_all_ou_runs(tmp_path, capsys) -> None:
    plan = _plan([0.0, 0.01, 0.02], [0.1, 0.12, 0.14], [0.0, 0.02, 0.04], r2=0.5)
    oracle = stage_two(plan)["claims"]["reacher_ou_plans_like_oracle"]
    assert oracle["sd_from"] == "all OU runs" and oracle["identified"] == "0 of 3"
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan))
    assert main([str(path)]) == 0
    assert "reacher_ou_plans_like_oracle" in capsys.readouterr().out
    assert json.loads((tmp_path / "sizing.json").read_text())["rule"]["date"] == "2026-12-06"
    (tmp_path / "bad.json").write_text("[1]")
    assert main([str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.json" in err[0]
