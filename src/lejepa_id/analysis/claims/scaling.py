"""Claim ``scaling``: SIGReg and VICReg stay above a floor of R²(h → z) up to N = 1024
while InfoNCE degrades.

v1 had a premise ("protocol") that excused a floor broken by runs of fewer initializations
than the paper's best of 3. It arrived with the runs that broke the floor, and the
project's own check of that world (N = 4, seed 1, CPU draw) found all three
initializations end at one loss: the world, not an unlucky start. v2 drops it: a broken
floor is a fail on the worlds run, whatever the number of initializations (recorded).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from lejepa_id.analysis.claims.base import Claim, Premise, check
from lejepa_id.analysis.claims.fabricate import evidence
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim
from lejepa_id.analysis.claims.stall_worlds import CITATION as STALL_CITATION
from lejepa_id.analysis.plotting import paper_worlds, sweeping

SCOPE = Premise(
    "scope",
    "the claim is about N up to 1024: InfoNCE's degradation is judged only when the largest "
    "N measured is ≥ 1024 (the floor of SIGReg and VICReg is judged at every N measured, "
    "all inside the claim's range)",
    1024,
)
PROTOCOL = Premise(
    "protocol",
    "every run at N ≤ 32 is the best of the paper's 3 initializations (one initialization "
    "can stall in a poor optimum, so a floor broken by such runs is not a counterexample)",
    3,
)
THRESHOLDS = {
    "floor": 0.999,
    "target_n": 1024,
    "degrade_margin": 0.01,
    "paper_inits": 3,
    "paper_inits_max_dim": 32,
}

V1 = ClaimRule(
    id="scaling",
    version=1,
    date="2026-11-30",
    reason="first registered",
    text="SIGReg and VICReg stay > 0.999 up to N = 1024 while InfoNCE degrades",
    metric="r2_hz: R²(h → z) on the evaluation set",
    filter="finished runs of experiments sweeping N (dim)",
    statistic="mean over seeds per objective and N; min over N; InfoNCE at the largest N",
    rule="fail: SIGReg or VICReg min ≤ 0.999 at some N measured (with the paper's best of 3 "
    "at N ≤ 32), or (largest N ≥ 1024) InfoNCE not at least 0.01 below them there; pass: "
    "neither, with largest N ≥ 1024; not shown (premise): the floor holds but the largest "
    "N is below the claim's, or the floor is broken by runs with fewer initializations "
    "than the paper's",
    scope=SCOPE.statement,
    premises=(SCOPE, PROTOCOL),
    thresholds=THRESHOLDS,
)
V2 = V1.amend(
    date="2026-12-01",
    reason="the protocol premise arrived with the runs that broke the floor and made a "
    "failure impossible at this budget; the project's own check found the world, not the "
    "start, breaks it (all 3 initializations end at one loss), so a broken floor is a fail",
    rule="fail: SIGReg or VICReg mean ≤ 0.999 at some N measured (on the worlds run, "
    "whatever their number of initializations, which is recorded), or (largest N ≥ 1024) "
    "InfoNCE not at least 0.01 below them there; pass: neither, with largest N ≥ 1024; "
    "not shown (premise): the floor holds but the largest N is below the claim's",
    premises=(SCOPE,),
)


def scaling_rows(frame: pd.DataFrame) -> pd.DataFrame:
    rows = paper_worlds(frame)
    return rows[rows["experiment"].isin(sweeping(rows, "dim"))] if not rows.empty else rows


def _sweep(dims, floor_r2: float = 0.99999, infonce: float = 0.9, **row: Any) -> Evidence:
    rows = []
    for dim in dims:
        for seed in (0, 1):
            for mode, r2 in (("lejepa", floor_r2), ("whiten", 0.99999), ("infonce", infonce)):
                rows.append({"dim": dim, "mode": mode, "r2_hz": r2, "seed": seed} | row)
    return evidence(rows)


def _mean(value: float) -> str:
    return "not run" if np.isnan(value) else f"{value:.6f}"


def _judge(rule: ClaimRule, ev: Evidence, protocol_premise: bool) -> Claim:
    claim = rule.start()
    rows = scaling_rows(ev.finished())
    if rows.empty or not {"lejepa", "whiten", "infonce"} <= set(rows["mode"]):
        claim.summary = "no sweep over N with all three objectives"
        return claim
    claim.count(judged=len(rows))
    floor_value, target = rule.t("floor"), rule.t("target_n")
    means = rows.groupby(["mode", "dim"])["r2_hz"].mean()
    top = int(rows["dim"].max())
    reached = top >= target
    v: dict[str, Any] = {
        "min_sigreg": float(means["lejepa"].min()),
        "min_vicreg": float(means["whiten"].min()),
        "n_at_min_sigreg": int(means["lejepa"].idxmin()),
        "n_at_min_vicreg": int(means["whiten"].idxmin()),
        "largest_n": top,
        "infonce_at_largest_n": float(means["infonce"].get(top, np.nan)),
        # NaN when either regularized objective has no run at the largest N (np.min
        # propagates it; Python's min() would keep or drop it depending on its position).
        "regularized_at_largest_n": float(
            np.min([means["lejepa"].get(top, np.nan), means["whiten"].get(top, np.nan)])
        ),
    }
    small = rows[rows["dim"] <= rule.t("paper_inits_max_dim")]
    # A table without the column (fabricated rows) is taken as the paper's protocol.
    fewest = (
        int(small["inits"].min())
        if "inits" in small and not small.empty and small["inits"].notna().any()
        else rule.t("paper_inits")
    )
    v["fewest_inits_at_small_n"] = fewest
    protocol = fewest >= rule.t("paper_inits")
    v["premises"] = {"scope": check(SCOPE, top, reached)}
    if protocol_premise:
        v["premises"]["protocol"] = check(PROTOCOL, fewest, protocol)
    claim.values = v
    claim.summary = (
        f"min over N of mean R²: SIGReg {v['min_sigreg']:.6f} (N = {v['n_at_min_sigreg']}), "
        f"VICReg {v['min_vicreg']:.6f} (N = {v['n_at_min_vicreg']}); at N = {top}: InfoNCE "
        f"{_mean(v['infonce_at_largest_n'])} vs regularized "
        f"{_mean(v['regularized_at_largest_n'])}"
    )
    compared = not np.isnan(v["infonce_at_largest_n"] - v["regularized_at_largest_n"])
    floor = v["min_sigreg"] > floor_value and v["min_vicreg"] > floor_value
    degrades = v["infonce_at_largest_n"] < v["regularized_at_largest_n"] - rule.t("degrade_margin")
    if not floor and protocol_premise and not protocol:
        claim.premise_unmet(
            f"the floor is broken by runs of {fewest} initialization(s) at N ≤ "
            f"{rule.t('paper_inits_max_dim')}; the paper takes the best of "
            f"{rule.t('paper_inits')}"
        )
    elif not floor:
        claim.verdict = "fail"
        claim.notes.append(
            f"the floor is broken on the worlds run here (best of {fewest} initialization(s) "
            "at small N); a fail says these worlds break it, at the N where it breaks"
        )
    elif not reached:
        claim.premise_unmet(f"largest N is {top}, the claim is about N = {target}")
        claim.notes.append(f"the floor holds at every N measured, up to N = {top}")
    elif not compared:
        # InfoNCE's degradation cannot be judged where it was not measured: not a fail.
        absent = [m for m in ("lejepa", "whiten", "infonce") if np.isnan(means[m].get(top, np.nan))]
        claim.premise_unmet(f"no {' or '.join(absent)} run at N = {top}")
    else:
        claim.verdict = "pass" if degrades else "fail"
    claim.notes.append(STALL_CITATION)
    return claim


@register_claim(
    V1,
    counterexample=lambda rule: _sweep((2, 4), floor_r2=0.9),
    premise_unmet={
        "scope": lambda rule: _sweep((2, 4)),
        "protocol": lambda rule: _sweep((2, 4), floor_r2=0.9, inits=1),
    },
)
def judge_v1(rule: ClaimRule, ev: Evidence) -> Claim:
    return _judge(rule, ev, protocol_premise=True)


@register_claim(
    V2,
    counterexample=lambda rule: _sweep((2, 4), floor_r2=0.9, inits=1),
    premise_unmet={"scope": lambda rule: _sweep((2, 4))},
)
def judge_v2(rule: ClaimRule, ev: Evidence) -> Claim:
    return _judge(rule, ev, protocol_premise=False)
