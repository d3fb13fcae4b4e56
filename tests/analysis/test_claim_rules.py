"""The claims registry (issue 30): every rule can fail, premises leave it not shown,
every run is counted, a changed rule is a new version whose report shows the old verdict,
and the audit's findings each caught on fabricated runs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from analysis_fakes import judged_by, metrics, write_run

from lejepa_id.analysis.claims import (
    COUNT_KEYS,
    ClaimRefusedError,
    ClaimRule,
    Evidence,
    Premise,
    claim_ids,
    current,
    judge,
    judge_all,
    register_claim,
    version_line,
    versions,
)
from lejepa_id.analysis.claims import fabricate as fab
from lejepa_id.analysis.claims import plan_fabricate as reacher_fab
from lejepa_id.analysis.claims.published_2d import REFERENCE
from lejepa_id.analysis.claims.registry import remove_claim
from lejepa_id.analysis.report import table_frame, write_report
from lejepa_id.analysis.table import write_table
from lejepa_id.cli.main import main
from lejepa_id.config.run import RunConfig

BUILTIN = [cid for cid in claim_ids() if not cid.startswith("test_")]


@pytest.mark.parametrize("claim_id", BUILTIN)
def test_every_rule_fails_on_its_counterexample_and_premises_leave_it_not_shown(claim_id):
    entry = current(claim_id)
    false = judge(entry, entry.counterexample(entry.rule))
    assert false.verdict == "fail", false.summary
    assert {p.name for p in entry.rule.premises} == set(entry.premise_unmet)
    for name, fabricate in entry.premise_unmet.items():
        claim = judge(entry, fabricate(entry.rule))
        allowed = ("not shown", "not measured") if name == "scope" else ("not shown",)
        assert claim.verdict in allowed, (name, claim.summary)
    # Every run of the input is counted once, under one of the count keys.
    counts = false.counts
    assert set(counts) == {*COUNT_KEYS, "total"}
    assert counts["total"] == sum(counts[k] for k in COUNT_KEYS)


@pytest.mark.parametrize("claim_id", BUILTIN)
def test_each_version_has_a_date_a_reason_and_its_own_fingerprint(claim_id):
    entries = versions(claim_id)
    assert [e.rule.version for e in entries] == list(range(1, len(entries) + 1))
    assert all(e.rule.date and e.rule.reason for e in entries)
    prints = [e.rule.fingerprint for e in entries]
    assert len(set(prints)) == len(prints) and all(len(p) == 16 for p in prints)


def _rule(cid: str, threshold: float, version: int = 1, **kw) -> ClaimRule:
    base = ClaimRule(
        id=cid,
        version=1,
        date="2026-12-01",
        reason="first registered",
        text="R²(h → z) of every run is above a threshold",
        metric="r2_hz",
        filter="finished runs",
        statistic="min over runs",
        rule="pass: min > threshold; fail: otherwise",
        scope="every run",
        thresholds={"min_r2": threshold},
    )
    return base if version == 1 else base.amend("2026-12-02", "raised after the data", **kw)


def _min_r2(rule: ClaimRule, ev: Evidence):
    claim = rule.start()
    frame = ev.finished()
    if frame.empty:
        return claim
    claim.count(judged=len(frame))
    low = float(frame["r2_hz"].min())
    claim.summary = f"min R² {low:.3f}"
    claim.verdict = "pass" if low > rule.t("min_r2") else "fail"
    return claim


def _low(rule: ClaimRule) -> Evidence:
    return fab.evidence([{"r2_hz": 0.0}])


def test_registration_refuses_a_claim_that_cannot_fail():
    def never_fails(rule, ev):
        claim = rule.start()
        claim.verdict = "pass"
        return claim

    with pytest.raises(ClaimRefusedError, match="cannot fail"):
        register_claim(_rule("test_never", 0.5), counterexample=_low)(never_fails)
    assert "test_never" not in claim_ids()
    # A declared premise needs runs where it fails, judged not shown.
    premised = _rule("test_premised", 0.5).amend("2026-12-01", "x", premises=(Premise("p", "s"),))
    premised = ClaimRule(**{**premised.__dict__, "version": 1})
    with pytest.raises(ClaimRefusedError, match="premise 'p'"):
        register_claim(premised, counterexample=_low)(_min_r2)
    with pytest.raises(ClaimRefusedError, match="judged 'fail'"):
        register_claim(premised, counterexample=_low, premise_unmet={"p": _low})(_min_r2)
    # Versions follow one another.
    with pytest.raises(ClaimRefusedError, match="version must be 1"):
        register_claim(_rule("test_skip", 0.5, version=2, thresholds={}), counterexample=_low)(
            _min_r2
        )


@pytest.fixture
def threshold_claim():
    """A claim registered at 0.5, and its threshold raised to 0.95 after the data."""
    register_claim(_rule("test_threshold", 0.5), counterexample=_low)(_min_r2)
    raised = _rule("test_threshold", 0.5, version=2, thresholds={"min_r2": 0.95})
    register_claim(raised, counterexample=_low)(_min_r2)
    yield raised
    remove_claim("test_threshold")


def _results(root: Path, r2: float = 0.9, extra: dict | None = None) -> Path:
    for seed in (0, 1):
        cfg = RunConfig(seed=seed)
        values = metrics(r2 - 0.001 * seed, grid_r2=r2) | (extra or {})
        write_run(root, "2d", "spiral_lejepa", f"spiral_lejepa-seed{seed}", cfg, values)
    return root


def test_a_threshold_changed_after_the_fact_shows_both_verdicts(threshold_claim, tmp_path):
    report = write_report(_results(tmp_path))
    claim = next(c for c in report.claims if c.id == "test_threshold")
    assert claim.verdict == "fail" and claim.version == 2
    assert claim.fingerprint == threshold_claim.fingerprint
    assert [o["version"] for o in claim.other_versions] == [1]
    assert claim.other_versions[0]["verdict"] == "pass"
    line = version_line(claim)
    assert line == "fail under v2; pass under v1 (2026-12-01, first registered)"
    page = report.path.read_text()
    assert "fail under v2; pass under v1 (2026-12-01, first registered)" in page
    assert "raised after the data" in page  # the changelog's reason
    saved = next(
        c for c in json.loads(report.claims_path.read_text())["claims"]
        if c["id"] == "test_threshold"
    )  # fmt: skip
    assert saved["version"] == 2 and saved["fingerprint"] == threshold_claim.fingerprint
    assert [e["version"] for e in saved["changelog"]] == [1, 2]
    assert saved["counts"]["total"] == 2 and saved["counts"]["judged"] == 2


PLUGIN = """
from lejepa_id.analysis.claims import ClaimRule, register_claim
from lejepa_id.analysis.claims.fabricate import evidence
from lejepa_id.metrics.registry import declare_metric

declare_metric("plugin_score_t30", "plugin score T30", "a plugin's own metric", report=True)

RULE = ClaimRule(
    id="plugin_claim_t30", version=1, date="2026-12-01", reason="first registered",
    text="The plugin's score is positive on every run", metric="plugin_score_t30",
    filter="finished runs", statistic="min over runs", rule="pass: min > 0; fail: otherwise",
    scope="every run",
)


@register_claim(RULE, counterexample=lambda rule: evidence([{"plugin_score_t30": -1.0}]))
def judge(rule, ev):
    claim = rule.start()
    frame = ev.finished()
    if frame.empty or "plugin_score_t30" not in frame:
        return claim
    low = float(frame["plugin_score_t30"].min())
    claim.count(judged=len(frame))
    claim.summary = f"min plugin score {low:g}"
    claim.verdict = "pass" if low > 0 else "fail"
    return claim
"""


def test_a_plugin_claim_and_a_plugin_metric_reach_the_report(tmp_path):
    plugin = tmp_path / "my_claims.py"
    plugin.write_text(PLUGIN)
    results = _results(tmp_path / "results", extra={"plugin_score_t30": 0.25})
    try:
        assert main(["report", str(results), "--plugin", str(plugin)]) == 0
        page = (results / "report.html").read_text()
        assert "plugin_claim_t30" in page and "min plugin score 0.25" in page
        assert "plugin score T30" in page  # the metric's column in the runs table
        assert f"--plugin {plugin}" in page  # the command line that made the page
        claims = json.loads((results / "claims.json").read_text())["claims"]
        assert next(c for c in claims if c["id"] == "plugin_claim_t30")["verdict"] == "pass"
        for command in ("aggregate", "figures"):
            assert main([command, str(results), "--plugin", str(plugin)]) == 0, command
        # curves takes --plugin too (these runs have no curves: a clean one-line error).
        assert main(["curves", str(results), "--plugin", str(plugin)]) == 2
    finally:
        remove_claim("plugin_claim_t30")


# The audit's findings, each on fabricated runs that would have caught it.


def _scaling_sweep(lejepa_r2: float, inits: int) -> Evidence:
    rows = [
        {"experiment": "scaling", "dim": dim, "mode": mode, "seed": seed, "inits": inits,
         "r2_hz": lejepa_r2 if (mode == "lejepa" and dim == 4) else 0.99999}
        for dim in (2, 4, 8) for mode in ("lejepa", "whiten", "infonce") for seed in (0, 1)
    ]  # fmt: skip
    return fab.evidence(rows)


def test_a_floor_broken_by_one_initialization_is_a_fail_under_v2():
    ev = _scaling_sweep(0.887, inits=1)  # N = 4: the project's own best-of-3 check
    [claim] = [c for c in judge_all(ev) if c.id == "scaling"]
    assert claim.verdict == "fail" and claim.values["n_at_min_sigreg"] == 4
    assert version_line(claim).startswith("fail under v2; not shown under v1")
    # A floor that holds below N = 1024 is not shown (the claim's scope), under every version.
    holds = judged_by("scaling", 2)(_scaling_sweep(0.99999, inits=1).frame)
    assert holds.verdict == "not shown" and "largest N is 8" in holds.reason


def test_infonce_not_run_at_the_largest_n_is_not_shown_not_a_fail():
    # The floor holds up to N = 1024, but InfoNCE (or VICReg) has no run at N = 1024: the
    # degradation is not measured there, so neither pass nor fail; the summary says so.
    rows = [
        {"experiment": "scaling", "dim": dim, "mode": mode, "seed": seed, "inits": 3,
         "r2_hz": 0.9 if mode == "infonce" else 0.99999}
        for dim in (8, 1024) for mode in ("lejepa", "whiten", "infonce") for seed in (0, 1)
    ]  # fmt: skip
    for missing in ("infonce", "whiten"):
        kept = [r for r in rows if not (r["dim"] == 1024 and r["mode"] == missing)]
        claim = judged_by("scaling", 2)(fab.evidence(kept).frame)
        assert claim.verdict == "not shown", (missing, claim.summary)
        assert claim.reason == f"premise: no {missing} run at N = 1024"
        assert "nan" not in claim.summary and "not run" in claim.summary
    # All three at N = 1024, InfoNCE 0.1 below: the degradation is judged, a pass.
    assert judged_by("scaling", 2)(fab.evidence(rows).frame).verdict == "pass"


def _gap_rows(lam: float, gap: float, trace: float = 2.0, experiment: str = "grid") -> list:
    # delta / (2 (1 - rho) tr Cov h) = gap, rho = 0.95.
    return [
        {"experiment": experiment, "lam": lam, "seed": s, "trace_cov": trace,
         "delta": gap * 2 * 0.05 * trace}
        for s in (0, 1)
    ]  # fmt: skip


def test_alignment_gap_judges_every_lambda_apart():
    rows = _gap_rows(1e-4, 0.0, trace=3e-14) + _gap_rows(1e-2, 0.03) + _gap_rows(0.1, 0.9)
    rows += _gap_rows(1e-3, 0.01, experiment="2d")
    claim = judged_by("alignment_gap", 2)(fab.runs(rows))
    assert claim.verdict == "fail"
    assert claim.parts["grid λ=0.1"].startswith("fail (median 0.9, 2 of 2 runs above")
    assert claim.parts["grid λ=0.01"].startswith("pass")
    assert claim.parts["grid λ=0.0001"] == "collapsed (2 of 2 runs)"
    assert claim.parts["2d"].startswith("pass")
    assert claim.counts["collapsed"] == 2 and claim.counts["judged"] == 6
    # v1 left the sweep out and passed.
    assert judged_by("alignment_gap", 1)(fab.runs(rows)).verdict == "pass"


def _aniso(r2: float, plateau: float, gap: float) -> Evidence:
    from lejepa_id.analysis.claims import spectral

    rows = spectral.grid(spectral.CELLS, r2, loss_plateau=plateau, predicted_alignment_gap=gap)
    return fab.evidence(rows)


def test_convergence_is_the_loss_plateau_not_the_gap_to_the_prediction():
    # Converged by the plateau, the gap to the predicted optimum large, R^2 far off: v2
    # judges it (fail); v1's premise (the gap) leaves it not shown.
    ev = _aniso(0.0, plateau=0.001, gap=5.0)
    assert judged_by("anisotropic_r2", 2)(ev.frame).verdict == "fail"
    assert judged_by("anisotropic_r2", 1)(ev.frame).verdict == "not shown"
    # Not plateaued: not shown under v2 whatever the gap says.
    flat = judged_by("anisotropic_r2", 2)(_aniso(0.0, plateau=0.3, gap=0.0).frame)
    assert flat.verdict == "not shown" and "loss plateau" in flat.reason


def test_code_size_judges_the_measured_r2_zh():
    from lejepa_id.analysis.claims import spectral

    # m = 3 > n = 2 with R^2(h -> z) = 1 and raw R^2(z -> h) = 1 (not n/m = 0.67): the
    # self-whitened value (n/m) R^2(h -> z) agrees by construction; the measured one not.
    rows = spectral.grid([(0.95, 0.95)], 1.0, code_dim=3.0, loss_plateau=0.0)
    v2 = judged_by("code_size", 2)(fab.runs(rows))
    assert v2.values["judged_r2_zh"] == "r2_zh" and v2.verdict == "fail"
    assert judged_by("code_size", 1)(fab.runs(rows)).values["judged_r2_zh"] == "r2_zh_white"


def _published(here: float, ref: float | None, device: str = "cpu") -> Evidence:
    rows = [
        {"experiment": "2d", "seed": s, "r2_hz": here + 0.0002 * (s - 1338), "device": "cpu"}
        for s in (1337, 1338, 1339)
    ]
    refs = (
        {}
        if ref is None
        else {REFERENCE: {"device": device, "values": [
            {"mixing": "spiral", "mode": "lejepa", "seed": s, "r2_hz": ref}
            for s in (1337, 1338, 1339)]}}
    )  # fmt: skip
    return Evidence(frame=fab.runs(rows), references=refs if ref is not None else {REFERENCE: None})


def test_published_2d_is_judged_in_seed_sds_against_the_same_device():
    rule = current("published_2d")
    # 5 seed SDs below the same-device published mean: an offset, a fail.
    offset = judge(rule, _published(0.9850, 0.9860))
    assert offset.verdict == "fail"
    diff = offset.values["settings"]["2d/spiral_lejepa"]["difference_in_seed_sd"]
    assert diff == pytest.approx(-5.0)
    assert judge(rule, _published(0.9859, 0.9860)).verdict == "pass"  # 0.5 SD
    missing = judge(rule, _published(0.9850, None))
    assert missing.verdict == "not shown" and missing.reason == "premise: no same-device reference"
    other = judge(rule, _published(0.9850, 0.9860, device="cuda"))
    assert other.verdict == "not shown" and "reference on cuda, runs on cpu" in other.reason


def test_theorem3_counts_informative_vacuous_collapsed_and_undefined_apart():
    rows = [
        {"procrustes_mse_centered": 0.1, "approx_bound": 0.5},  # informative, ratio 0.2
        {"procrustes_mse_centered": 1.9, "approx_bound": 2.0},  # vacuous (bound = n)
        {"procrustes_mse_centered": 1.99, "approx_bound": 2.0, "trace_cov": 1e-14},  # collapsed
        {"procrustes_mse_centered": 0.1, "approx_bound": math.nan},  # undefined
        {"mode": "infonce"},  # outside
    ]
    claim = judged_by("theorem3_bound", 2)(fab.runs(rows))
    v = claim.values
    assert claim.verdict == "pass"
    assert (v["n_informative"], v["n_vacuous"], v["n_collapsed"], v["n_undefined"]) == (1, 1, 1, 1)
    assert v["max_error_over_bound_informative"] == pytest.approx(0.2)
    c = claim.counts
    assert (c["judged"], c["vacuous"], c["collapsed"], c["undefined"], c["outside_scope"]) == (
        1, 1, 1, 1, 1,
    )  # fmt: skip


def test_the_scaling_table_margin_is_in_the_papers_sds():
    from lejepa_id.analysis.scaling import paper_table

    paper = paper_table().set_index("N")
    mean, sd = float(paper.loc[4, "sigreg_r2_hz_mean"]), float(paper.loc[4, "sigreg_r2_hz_std"])
    # 0.991 is within v1's ±0.01 of a paper mean near 1, and 10^3+ paper SDs away.
    rows = [
        {"experiment": "scaling", "dim": dim, "mode": mode, "seed": seed,
         "r2_hz": (mean - 0.009 if (mode == "lejepa" and dim == 4) else
                   float(paper.loc[dim, f"{col}_r2_hz_mean"])) + 1e-9 * seed}
        for dim in (4, 8) for mode, col in (("lejepa", "sigreg"), ("whiten", "vicreg"),
                                           ("infonce", "infonce"))
        for seed in (0, 1)
    ]  # fmt: skip
    v2 = judged_by("scaling_reproduces_table", 2)(fab.runs(rows))
    cell = v2.values["cells"]["lejepa/N=4"]
    assert cell["margin"] == pytest.approx(3 * sd) and cell["result"] == "outside"
    assert v2.verdict == "fail"
    assert (
        judged_by("scaling_reproduces_table", 1)(fab.runs(rows)).values["cells"]["lejepa/N=4"][
            "result"
        ]
        != "outside"
    )


def test_action_lqr_judges_identification_as_part_of_the_claim():
    rows = [
        {"transition": "linear_action", "run": "n2", "seed": s, "r2_hz": 0.4,
         "orth_err_scale_free": 0.9, "lqr_cost_ratio": 1.01, "loss_plateau": 0.001}
        for s in (0, 1)
    ]  # fmt: skip
    assert judged_by("action_lqr", 2)(fab.runs(rows)).verdict == "fail"  # not a rotation
    assert judged_by("action_lqr", 1)(fab.runs(rows)).verdict == "not shown"  # v1 filtered


def _plan(labels: tuple[str, ...]) -> dict:
    runs = [reacher_fab.fake_run("ou", 0.0, s, label=labels[s]) for s in range(len(labels))]
    runs += [reacher_fab.fake_run("traj", 0.5, s) for s in range(3)]
    return reacher_fab.plan(runs)


def test_reacher_runs_of_different_settings_are_not_replicates():
    from lejepa_id.reacher.claims import reacher_claims

    pooled = {c["id"]: c for c in reacher_claims(_plan(("ou_rho0.5", "ou_rho0.95", "ou_rho0.5")))}
    worse = pooled["reacher_traj_plans_worse"]
    assert worse["verdict"] == "not shown" and "replicates" in worse["reason"]
    assert "training-seed variance only" in " ".join(worse["notes"])
    assert any(o["verdict"] == "pass" for o in worse["other_versions"])  # v1 pooled them
    same = {c["id"]: c for c in reacher_claims(_plan(("ou", "ou", "ou")))}
    assert same["reacher_traj_plans_worse"]["verdict"] == "pass"
    # The power statement states its degrees of freedom and no run counts.
    assert "Welch df" in same["reacher_traj_plans_worse"]["summary"]
    assert "runs a side" not in same["reacher_traj_plans_worse"]["summary"]


def test_the_committed_claims_record_a_registered_version():
    """Every committed claims.json names a rule version and fingerprint the registry holds
    (a rule moved without a new version would not match)."""
    root = Path(__file__).resolve().parents[2] / "results"
    files = sorted(root.rglob("claims.json"))
    assert files
    for path in files:
        for c in json.loads(path.read_text())["claims"]:
            entry = versions(c["id"])[c["version"] - 1]
            assert entry.rule.fingerprint == c["fingerprint"], (path, c["id"])
            if c["verdict"] != "not measured":
                assert c["counts"]["total"] == sum(
                    n for k, n in c["counts"].items() if k != "total"
                ), (path, c["id"])


def test_the_loss_plateau_is_the_objectives_own_relative_change():
    from lejepa_id.analysis.convergence import loss_plateau

    steps = list(range(0, 2001, 200))  # 0 .. 2000: quarters at 1000-1500 and 1500-2000
    flat = [1.0] * len(steps)
    assert loss_plateau({"step": steps, "loss": flat}) == 0.0
    falling = [2.0 - s / 2000 for s in steps]  # 1.5, 1.4, 1.3 (3rd) vs 1.2, 1.1, 1.0 (last)
    assert loss_plateau({"step": steps, "loss": falling}) == pytest.approx((1.4 - 1.1) / 1.1)
    assert math.isnan(loss_plateau({"step": [0], "loss": [1.0]}))
    assert math.isnan(loss_plateau(None))
    assert np.isnan(loss_plateau({"step": steps, "loss": [math.nan] * len(steps)}))


def test_the_mean_loss_plateau_weights_every_steps_loss():
    from lejepa_id.analysis.convergence import mean_loss_plateau

    # Windows (0, 500], (500, 1000] ... (1500, 2000]; the quarters are (1000, 1500] and
    # (1500, 2000]: third 1.3 (two windows of 250 steps), last 1.1 and 1.0 -> 1.05.
    curves = {"step": [500, 1000, 1250, 1500, 1750, 2000],
              "loss_mean": [9.0, 9.0, 1.2, 1.4, 1.1, 1.0]}  # fmt: skip
    assert mean_loss_plateau(curves) == pytest.approx((1.3 - 1.05) / 1.05)
    # Unequal windows are weighted by their steps: 100 steps at 2.0, 400 at 1.0 -> 1.2.
    curves = {"step": [1000, 1500, 1600, 2000], "loss_mean": [5.0, 1.2, 2.0, 1.0]}
    assert mean_loss_plateau(curves) == pytest.approx(0.0)
    # The minibatch ``loss`` alone (runs recorded before loss_mean) gives no value.
    assert math.isnan(mean_loss_plateau({"step": [1000, 2000], "loss": [1.0, 1.0]}))
    assert math.isnan(mean_loss_plateau({"step": [1000, 2000], "loss_mean": [1.0, math.nan]}))
    assert math.isnan(mean_loss_plateau({"step": [2000, 1000], "loss_mean": [1.0, 1.0]}))
    assert math.isnan(mean_loss_plateau(None))


def test_a_run_started_at_the_exact_inverse_meets_the_convergence_premise():
    """The v3 premise on real training, known answer: a matched encoder loaded with its
    coupling world's own weights starts at h = z and has nothing left to learn, so under
    the cosine schedule its mean loss is flat (premise met, <= 0.02), while the same
    1,000-step run from its random start is still falling (not met). At 20,000 steps and
    N = 8 both starts meet it (0.0009 and 0.0008, docs/claims.md)."""
    import torch

    from lejepa_id.analysis.convergence import mean_loss_plateau
    from lejepa_id.records.loggers import LoggerHub
    from lejepa_id.training.threads import torch_threads
    from lejepa_id.training.trainer import _Trainer, _worlds

    base = {"mixing": "coupling", "dim": 2, "encoder": "matched", "mode": "lejepa",
            "lam": 1e-3, "steps": 1000, "mixing_seed": 7}  # fmt: skip
    cfgs, worlds = _worlds([RunConfig(**base, seed=s).validate() for s in (0, 1)], None)
    trainer = _Trainer(cfgs, worlds, ["inverse", "random"], False, None)
    with torch.no_grad():
        trainer.encoder.weight[0].copy_(worlds[0].mixing.weights)
    with torch_threads(1):  # as train() runs a model this small
        inverse, random = trainer.run(LoggerHub([]), None)
    assert inverse.metrics["r2_hz"] > 0.9999
    assert mean_loss_plateau(inverse.curves) < 0.02
    assert mean_loss_plateau(random.curves) > 0.02


def test_v3_judges_convergence_on_the_mean_loss_and_v2_still_on_the_minibatch():
    from lejepa_id.analysis.claims import spectral

    # The minibatch plateau noisy (0.3), the mean over every step flat (0.001): v3 judges
    # the R^2 (far off: fail), v2 leaves it not shown; the other way round, the reverse.
    rows = spectral.grid(spectral.CELLS, 0.0, loss_plateau=0.3, loss_plateau_mean=0.001)
    assert judged_by("anisotropic_r2", 3)(fab.runs(rows)).verdict == "fail"
    assert judged_by("anisotropic_r2", 2)(fab.runs(rows)).verdict == "not shown"
    rows = spectral.grid(spectral.CELLS, 0.0, loss_plateau=0.001, loss_plateau_mean=0.3)
    v3 = judged_by("anisotropic_r2", 3)(fab.runs(rows))
    assert v3.verdict == "not shown" and "plateau of the mean loss" in v3.reason
    assert judged_by("anisotropic_r2", 2)(fab.runs(rows)).verdict == "fail"
    # One seed recorded without loss_mean leaves its setting unmeasured, not converged.
    rows = spectral.grid(spectral.CELLS, 0.0, loss_plateau_mean=0.001)
    rows[0]["loss_plateau_mean"] = math.nan
    v3 = judged_by("anisotropic_r2", 3)(fab.runs(rows))
    assert v3.values["settings_premise_met"] == len(spectral.CELLS) - 1
    for cid in ("anisotropic_boundary", "code_size", "action_lqr"):
        assert judged_by(cid, 3) is not None


def test_the_end_loss_is_the_step_weighted_mean_of_the_last_tenth():
    from lejepa_id.analysis.convergence import doubling_change, end_loss

    # Windows end at 1800 (of 2000): the last tenth is (1800, 2000], windows ending at
    # 1900 (100 steps at 2.0) and 2000 (100 steps at 1.0) -> 1.5.
    curves = {"step": [500, 1000, 1800, 1900, 2000], "loss_mean": [9.0, 5.0, 3.0, 2.0, 1.0]}
    assert end_loss(curves) == pytest.approx(1.5)
    # 50 steps at 4.0 and 150 at 0.0 -> 1.0: weighted by steps, not by windows.
    curves = {"step": [1800, 1850, 2000], "loss_mean": [7.0, 4.0, 0.0]}
    assert end_loss(curves) == pytest.approx(1.0)
    assert math.isnan(end_loss({"step": [1000, 2000], "loss": [1.0, 1.0]}))
    assert math.isnan(end_loss({"step": [1000, 2000], "loss_mean": [1.0, math.nan]}))
    assert math.isnan(end_loss(None))
    # Either way counts: more training lower (unfinished) or higher (left its solution).
    assert doubling_change(0.050, 0.049) == pytest.approx(0.02)
    assert doubling_change(0.027, 0.0508) == pytest.approx(0.0238 / 0.027)
    assert math.isnan(doubling_change(0.0, 1.0)) and math.isnan(doubling_change(1.0, math.nan))


def _doubled_cells(r2: float, end: float, long_end: float | None, long_steps: int = 40000):
    """Fabricated anisotropic cells at 20,000 steps (seeds 0 and 1), and seed 1 of each
    again in ``beyond_x2`` at ``long_steps`` ending at ``long_end`` (None: not trained)."""
    from lejepa_id.analysis.claims import spectral

    rows = spectral.grid(spectral.CELLS, r2, loss_end=end, loss_doubling=math.nan)
    for r in rows:
        r["run_id"] = f"spiral-rho{r['rho_first']:g}x{r['rho_rest']:g}-seed{r['seed']}"
    if long_end is None:
        return rows
    long = [
        r | {"experiment": "beyond_x2", "steps": long_steps, "loss_end": long_end}
        for r in rows
        if r["seed"] == 1
    ]
    return rows + long


def test_v4_judges_convergence_on_the_same_run_trained_twice_as_long():
    from lejepa_id.analysis.beyond import anisotropic_rows, with_predictions
    from lejepa_id.analysis.claims import spectral

    # End loss 0.050 at 20,000 steps, 0.0505 at 40,000 (1%): converged; far from the
    # prediction, so v4 judges and fails it, whatever the v3 plateau says (0.5).
    rows = _doubled_cells(0.0, 0.050, 0.0505)
    for r in rows:
        r["loss_plateau_mean"] = 0.5
    table = with_predictions(anisotropic_rows(fab.runs(rows)))
    assert len(table) == len(spectral.CELLS)  # the doubled runs are no settings
    assert (table["doubled_seeds"] == 1).all()
    assert np.allclose(table["loss_doubling"], 0.01)
    assert judged_by("anisotropic_r2", 4)(fab.runs(rows)).verdict == "fail"
    v3 = judged_by("anisotropic_r2", 3)(fab.runs(rows))
    assert v3.verdict == "not shown" and "plateau of the mean loss" in v3.reason
    # A runs table as written (no loss_doubling column): the pairing fills it.
    bare = fab.runs(rows).drop(columns=["loss_doubling"])
    assert np.allclose(with_predictions(anisotropic_rows(bare))["loss_doubling"], 0.01)
    # Twice as long ends 10% lower: training had not finished; no setting is judged.
    v4 = judged_by("anisotropic_r2", 4)(fab.runs(_doubled_cells(0.0, 0.050, 0.045)))
    assert v4.verdict == "not shown" and "twice the schedule" in v4.reason
    # No run trained twice as long, or one whose steps are not exactly doubled: unmeasured.
    for rows in (_doubled_cells(0.0, 0.05, None), _doubled_cells(0.0, 0.05, 0.05, 30000)):
        v4 = judged_by("anisotropic_r2", 4)(fab.runs(rows))
        assert v4.verdict == "not shown" and "unmeasured" in v4.reason
    for cid in ("anisotropic_boundary", "code_size"):
        assert judged_by(cid, 4) is not None


def test_v4_action_needs_a_seed_trained_twice_as_long_in_each_setting():
    def action(doubling: list[float]) -> pd.DataFrame:
        rows = [
            {"transition": "linear_action", "run": "n2_linear", "seed": s, "r2_hz": 0.99,
             "orth_err_scale_free": 0.01, "lqr_cost_ratio": 1.01, "predictor_err": 0.01,
             "lqr_value_err": 0.01, "loss_doubling": d}
            for s, d in enumerate(doubling)
        ]  # fmt: skip
        return fab.runs(rows)

    assert judged_by("action_lqr", 4)(action([math.nan, 0.01, math.nan])).verdict == "pass"
    v4 = judged_by("action_lqr", 4)(action([math.nan, math.nan, math.nan]))
    assert v4.verdict == "not shown" and "no seed trained twice as long" in v4.reason
    v4 = judged_by("action_lqr", 4)(action([math.nan, 0.05, math.nan]))
    assert v4.verdict == "not shown" and "moved by 0.05 at twice the schedule" in v4.summary


def test_report_from_the_table_judges_results_kept_without_weights(tmp_path):
    """`report --from-table`: the committed runs table is judged, the loss plateau read
    from each run's curves when the table predates the column."""
    results = _results(tmp_path / "results")
    steps = list(range(0, 20001, 2000))
    for seed in (0, 1):
        path = results / "2d" / f"spiral_lejepa-seed{seed}" / "result.json"
        data = json.loads(path.read_text())
        data["curves"] = {"step": steps, "loss": [1.0] * len(steps)}
        path.write_text(json.dumps(data))
    write_table(results)
    table = results / "runs.parquet"
    frame = pd.read_parquet(table).drop(columns=["loss_plateau"])
    frame.to_parquet(table)
    assert main(["report", str(results), "--from-table", "--out", str(tmp_path / "r.html")]) == 0
    claims = {c["id"]: c for c in json.loads((tmp_path / "claims.json").read_text())["claims"]}
    assert claims["theorem3_bound"]["counts"]["total"] == 2
    assert "--from-table" in (tmp_path / "r.html").read_text()
    assert table_frame(results)["loss_plateau"].tolist() == [0.0, 0.0]
