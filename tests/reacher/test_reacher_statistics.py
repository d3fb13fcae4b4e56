"""Known answers of the planning statistics: TOST, t-tests, bootstraps, directions, claims."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from lejepa_id.analysis import plan_statistics as st
from lejepa_id.analysis.claims import read_claims_file
from lejepa_id.analysis.plan_summary import summarize
from lejepa_id.reacher.claims import reacher_claims, tab_reacher, write_claims


def test_tost_matches_the_two_one_sided_t_tests():
    x = np.array([0.01, -0.02, 0.015, 0.0, 0.005])
    t = st.tost_one_sample(x, 0.05)
    lower = stats.ttest_1samp(x, -0.05, alternative="greater").pvalue
    upper = stats.ttest_1samp(x, 0.05, alternative="less").pvalue
    assert t["p_tost"] == pytest.approx(max(lower, upper), rel=1e-12)
    assert t["p_tost"] < 0.05  # tightly around 0: equivalent within +-0.05
    wide = st.tost_one_sample(np.array([0.2, -0.3, 0.25]), 0.05)
    assert wide["p_tost"] > 0.05  # too spread out to claim equivalence
    assert st.tost_one_sample(np.array([0.1]), 0.05)["p_tost"] is None  # one run: no test


def test_directions_are_named():
    up = st.t_test_zero([0.3, 0.4, 0.5, 0.35], "costs more", "costs less")
    assert up["direction"] == "costs more" and up["p"] < 0.01
    down = st.wilcoxon_zero(-np.arange(1, 11) / 10, "costs more", "costs less")
    assert down["direction"] == "costs less" and down["p"] < 0.01
    c = st.compare_two([0.0, 0.1, 0.05], [1.0, 1.2, 0.9], ("ou", "traj"), 0.05)
    assert c["direction"] == "ou costs less than traj"
    assert c["p_welch"] == pytest.approx(
        stats.ttest_ind([0.0, 0.1, 0.05], [1.0, 1.2, 0.9], equal_var=False).pvalue, rel=1e-10
    )


def test_verdicts_never_pass_on_weak_evidence():
    assert st.verdict(0.01, 0.9) == "equivalent"
    assert st.verdict(0.4, 0.001) == "different"
    assert st.verdict(0.4, 0.4) == "not shown"
    assert st.verdict(None, None) == "not shown"


def test_two_level_bootstrap_covers_run_to_run_spread():
    rng = np.random.default_rng(1)
    offsets = np.array([-0.5, 0.0, 0.5])[:, None]  # three runs far apart
    m = offsets + 0.01 * rng.standard_normal((3, 100))
    runs_and_pairs = st.bootstrap_runs_pairs(m)
    pairs_only = st.bootstrap_pairs(m.mean(0))
    # Resampling pairs alone would claim a tiny interval; runs make it wide.
    assert runs_and_pairs[1] - runs_and_pairs[0] > 0.3
    assert pairs_only[1] - pairs_only[0] < 0.01


def _fake_runs(kind: str, centre: float, n_runs: int, rng, r2: float = 0.99) -> list[dict]:
    runs = []
    for seed in range(n_runs):
        log_r = centre + 0.02 * rng.standard_normal(40) + 0.01 * seed
        ratio = np.exp(log_r)
        runs.append(
            {
                "run": f"runs/{kind}/lam0.01_seed{seed}",
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
                "orth_err_whitened": 0.05,
                "lqr_rel_err": {"median": 0.01 if kind == "ou" else 5.0},
            }
        )
    return runs


def test_summary_claims_and_table_on_a_clear_case(tmp_path):
    rng = np.random.default_rng(0)
    runs = _fake_runs("ou", 0.0, 3, rng) + _fake_runs("traj", 0.5, 3, rng)
    plan = {
        "config": {"equiv_margin": 0.05},
        "runs": runs,
        **summarize(runs, np.zeros(40), math.log1p(0.05)),
    }
    assert plan["kinds"]["ou"]["vs_reference"]["verdict"] == "equivalent"
    assert plan["kinds"]["traj"]["vs_oracle"]["t_test"]["direction"] == "costs more than the oracle"
    comp = plan["comparisons"]["ou_vs_traj"]
    assert comp["direction"] == "ou costs less than traj" and comp["p_welch"] < 0.001
    claims = {c["id"]: c for c in reacher_claims(plan)}
    assert claims["reacher_ou_plans_like_oracle"]["verdict"] == "pass"
    assert claims["reacher_traj_plans_worse"]["verdict"] == "pass"
    assert claims["reacher_gap_not_coverage"]["verdict"] == "not measured"  # no trajmatch
    assert claims["reacher_ou_lqr_values_match"]["verdict"] == "pass"
    # The report reads the file as written (its schema, no entry skipped).
    write_claims(plan, tmp_path / "reacher" / "claims.json")
    read, notes = read_claims_file(tmp_path / "reacher" / "claims.json")
    assert notes == [] and [c.id for c in read] == list(claims)
    assert {c.source for c in read} == {"reacher"}
    tex = tab_reacher(plan)
    assert tex.count(r"\\") == 6  # two stacked parts, each a header + two groups
    assert "OU &" in tex and "trajectory &" in tex


def test_one_seed_gives_no_verdict():
    rng = np.random.default_rng(0)
    runs = _fake_runs("ou", 0.0, 1, rng)
    plan = {
        "config": {"equiv_margin": 0.05},
        "runs": runs,
        **summarize(runs, np.zeros(40), math.log1p(0.05)),
    }
    claims = {c["id"]: c for c in reacher_claims(plan)}
    assert claims["reacher_ou_plans_like_oracle"]["verdict"] == "not shown"
    assert claims["reacher_traj_plans_worse"]["verdict"] == "not measured"


def test_tab_reacher_compiles_with_pdflatex_and_fits_the_page(tmp_path):
    import os
    import shutil
    import subprocess

    if shutil.which("pdflatex") is None:
        if os.environ.get("CI"):
            pytest.fail("CI must compile the LaTeX tables: pdflatex is missing")
        pytest.skip("pdflatex is not installed")
    rng = np.random.default_rng(0)
    runs = (
        _fake_runs("ou", 0.0, 3, rng)
        + _fake_runs("trajmatch", 0.3, 2, rng)
        + _fake_runs("traj", 0.5, 1, rng)
    )
    plan = {
        "config": {"equiv_margin": 0.05},
        "runs": runs,
        **summarize(runs, np.zeros(40), math.log1p(0.05)),
    }
    (tmp_path / "tab_reacher.tex").write_text(tab_reacher(plan))
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
        "\\input{tab_reacher.tex}\n\\end{document}\n"
    )
    res = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stdout[-2000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 1000
    # A single-column article page holds it: no overfull box.
    assert "Overfull" not in (tmp_path / "doc.log").read_text(errors="replace")


def _plan(runs: list[dict]) -> dict:
    summary = summarize(runs, np.zeros(40), math.log1p(0.05))
    return {"config": {"equiv_margin": 0.05}, "runs": runs, **summary}


def test_an_unidentified_code_is_not_a_counterexample_to_theorem_4():
    rng = np.random.default_rng(0)
    # Premise met, rule broken: identified OU codes whose LQR values are far off -> fail.
    broken = _fake_runs("ou", 0.0, 3, rng)
    for r in broken:
        r["lqr_rel_err"] = {"median": 0.7}
    claims = {c["id"]: c for c in reacher_claims(_plan(broken))}
    assert claims["reacher_ou_lqr_values_match"]["verdict"] == "fail"
    # Premise unmet (R^2 0.45, as OU seed 0 in results/reacher_control): not shown, never fail.
    stalled = _fake_runs("ou", 0.0, 3, rng, r2=0.45)
    for r in stalled:
        r["lqr_rel_err"] = {"median": 0.7}
    claims = {c["id"]: c for c in reacher_claims(_plan(stalled))}
    lqr = claims["reacher_ou_lqr_values_match"]
    assert lqr["verdict"] == "not shown" and lqr["reason"].startswith("premise: identified in 0")
    assert lqr["summary"].startswith("not shown (premise: ")
    assert [c["held"] for c in lqr["values"]["premises"]["identified"]] == [False] * 3
    assert [p["name"] for p in lqr["premises"]] == ["replicates", "identified"]
    assert claims["reacher_ou_plans_like_oracle"]["verdict"] == "not shown"


def test_run_level_intervals_are_honest_at_two_runs():
    a, b = [0.406, 0.117], [0.132, 0.101]  # the OU and coverage-matched run means
    welch = st.welch_interval(a, b)
    assert welch[0] < -1.5 and welch[1] > 1.8  # the t interval the issue recomputed
    perm = st.permutation_interval_two(a, b)
    assert perm["min_p"] == pytest.approx(1 / 3) and perm["interval"] == [-math.inf, math.inf]
    assert st.sign_flip_interval([0.4, 0.1])["interval"] == [-math.inf, math.inf]
    # With enough runs the exact interval is finite and covers the true shift of -6.
    far = st.permutation_interval_two([1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12])
    assert far["interval"][0] < -6 < far["interval"][1] < 0
    assert st.t_interval([1.0, 2.0, 3.0]) == pytest.approx(
        list(stats.t.interval(0.95, 2, loc=2.0, scale=1.0 / math.sqrt(3)))
    )


def test_power_of_the_planned_comparison():
    # Textbook value: two groups of 20, effect of one standard deviation: power ~ 0.87.
    assert st.welch_power(20, 20, 1.0, 1.0) == pytest.approx(0.869, abs=0.005)
    assert st.runs_for_power(1.0, 1.0) == 17
    assert st.welch_power(2, 2, 0.145, 0.0488) < 0.1


def test_bootstrap_needs_enough_runs_and_conclusions_name_every_difference():
    rng = np.random.default_rng(0)
    runs = _fake_runs("ou", 0.0, 2, rng) + _fake_runs("trajmatch", 0.1, 2, rng)
    plan = _plan(runs)
    assert plan["comparisons"]["ou_vs_trajmatch"]["ci95"] is None  # 2 runs < threshold
    assert plan["kinds"]["ou"]["vs_reference"]["ci95"] is None
    assert plan["kinds"]["ou"]["vs_reference"]["ci95_t"] is not None

    def meta(kurt: float, lag: float, circle: float, wrap: float) -> dict:
        cov = {"circle_fraction": circle, "wrap_fraction": wrap}
        joint = {"excess_kurtosis": kurt, "lag_corr": lag}
        return {"coverage": [cov, cov], "diagnostics": {"per_joint": [joint, joint]}}

    datasets = {"ou": meta(0.02, 0.95, 0.79, 0.0), "trajmatch": meta(-0.32, 0.84, 0.85, 0.0)}
    claim = {c["id"]: c for c in reacher_claims(plan, datasets)}["reacher_gap_not_coverage"]
    text = claim["values"]["dataset_differences"]
    for word in ("range", "wrap", "marginal shape", "lag correlation", "-0.32", "0.84"):
        assert word in text
    assert claim["values"]["bootstrap_ci95"] is None and "power" in claim["summary"]
    more = _fake_runs("ou", 0.0, 10, rng) + _fake_runs("trajmatch", 0.1, 10, rng)
    assert _plan(more)["comparisons"]["ou_vs_trajmatch"]["ci95"] is not None


def test_claims_are_rewritten_from_an_existing_plan(tmp_path, capsys):
    import json

    from lejepa_id.reacher.claims import main

    rng = np.random.default_rng(0)
    runs = _fake_runs("ou", 0.0, 2, rng) + _fake_runs("traj", 0.5, 2, rng)
    for r in runs:  # the per-run tests plan.json holds, printed by main
        test = {"p": 0.5, "direction": "costs more than the oracle"}
        r |= {"label": r["kind"], "vs_oracle": test, "vs_reference": test}
    plan = _plan(runs)
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    assert main([str(tmp_path / "plan.json")]) == 0
    ids = [c["id"] for c in json.loads((tmp_path / "claims.json").read_text())["claims"]]
    assert ids[0] == "reacher_ou_plans_like_oracle" and len(ids) == 4
    capsys.readouterr()
    assert main([str(tmp_path / "missing.json")]) == 2
    assert main([str(tmp_path / "plan.json"), str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "nowhere" in err[1]


def test_the_dataset_note_says_what_the_runs_spread_includes():
    from lejepa_id.analysis.claims.reacher_rules import ONE_DATASET, OWN_DATASET, dataset_note

    def runs(kind, seeds):
        return [{"kind": kind, "train_identity": {"kind": kind, "seed": s}} for s in seeds]

    shared = {"runs": runs("ou", [0, 0, 0]) + runs("traj", [0, 0])}
    own = {"runs": runs("ou", [0, 1, 2]) + runs("traj", [0, 1])}
    assert dataset_note(shared, ["ou", "traj"]) == ONE_DATASET
    assert dataset_note(own, ["ou", "traj"]) == OWN_DATASET
    mixed = dataset_note({"runs": runs("ou", [0, 0, 1]) + runs("traj", [0, 0])}, ["ou", "traj"])
    assert mixed == (
        "the runs' datasets: one dataset a kind: traj; ou (2 datasets of 1 setting for 3 runs)"
    )
    # Runs of different settings (another rho) are no renderings of one dataset.
    settings = {"runs": [{"kind": "ou", "train_identity": {"kind": "ou", "rho": r, "seed": 0}}
                         for r in (0.5, 0.95)]}  # fmt: skip
    assert "2 datasets of 2 settings" in dataset_note(settings, ["ou"])
