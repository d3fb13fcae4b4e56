"""Claim ``scaling_reproduces_table``: the runs reproduce the paper's scaling table.

v1 used one margin, ±0.01, for every cell: about 10^4 of the paper's seed SDs for SIGReg
and VICReg, so 0.991 would have been "equivalent" while breaking the 0.999 floor. v2's
margin is a number of the paper's own standard deviations of that cell.
"""

from __future__ import annotations

from lejepa_id.analysis.claims.base import Claim, Premise
from lejepa_id.analysis.claims.fabricate import evidence
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim
from lejepa_id.analysis.claims.scaling import scaling_rows
from lejepa_id.analysis.claims.stall_worlds import CITATION as STALL_CITATION
from lejepa_id.analysis.stats import tost_summary

MODES = {"lejepa": "sigreg", "whiten": "vicreg", "infonce": "infonce"}
SCOPE = Premise(
    "scope",
    "N in the paper's table and at least 2 seeds per cell: a cell with one seed has no "
    "interval and is undetermined",
)

V1 = ClaimRule(
    id="scaling_reproduces_table",
    version=1,
    date="2026-12-01",
    reason="first registered",
    text="At every N measured, each objective's mean R²(h → z) equals the paper's table "
    "within ±0.01",
    metric="r2_hz: R²(h → z) on the evaluation set",
    filter="finished runs of experiments sweeping N (dim), N in the paper's table",
    statistic="per objective and N, Welch TOST of the mean here (its seeds) against the "
    "paper's mean ± std (5 seeds), margin ±0.01: the 90% interval of the difference",
    rule="pass: every cell's 90% interval inside ±0.01 (equivalent); fail: some cell's "
    "interval wholly beyond ±0.01; not shown: otherwise (undetermined cells, e.g. one seed "
    "or a spread too wide for the margin)",
    scope=SCOPE.statement,
    premises=(SCOPE,),
    thresholds={"margin": 0.01, "paper_seeds": 5},
)
V2 = V1.amend(
    date="2026-12-01",
    reason="±0.01 is about 10^4 paper SDs for SIGReg and VICReg (0.991 would have been "
    "'equivalent' while breaking the 0.999 floor); the margin is now in the paper's SDs",
    text="At every N measured, each objective's mean R²(h → z) equals the paper's table "
    "within 3 of the paper's standard deviations of that cell",
    statistic="per objective and N, Welch TOST of the mean here (its seeds) against the "
    "paper's mean ± std (5 seeds), margin ± 3 × the paper's std of the cell: the 90% "
    "interval of the difference",
    rule="pass: every cell's 90% interval inside its margin (equivalent); fail: some "
    "cell's interval wholly beyond it; not shown: otherwise (undetermined cells)",
    thresholds={"margin": None, "margin_paper_sd": 3.0},
)


def _cells(ev: Evidence, **row) -> Evidence:
    rows = [
        {"dim": dim, "mode": mode, "seed": seed, "r2_hz": r2, **row}
        for dim in (4, 8)
        for mode, r2 in (("lejepa", 0.9), ("whiten", 0.9), ("infonce", 0.5))
        for seed in (0, 1)
    ]
    return evidence(rows)


def _judge(rule: ClaimRule, ev: Evidence) -> Claim:
    from lejepa_id.analysis.scaling import paper_table

    claim = rule.start()
    rows = scaling_rows(ev.finished())
    paper = paper_table().set_index("N")
    rows = rows[rows["dim"].isin(paper.index)] if not rows.empty else rows
    if rows.empty:
        claim.summary = "no sweep over N at the paper's N"
        return claim
    rows = rows[rows["mode"].isin(MODES)]
    claim.count(judged=len(rows))
    cells = {}
    for (mode, dim), sel in rows.groupby(["mode", "dim"]):
        col = MODES[mode]
        x = sel["r2_hz"].astype(float)
        ref_mean = float(paper.loc[dim, f"{col}_r2_hz_mean"])
        ref_sd = float(paper.loc[dim, f"{col}_r2_hz_std"])
        margin = rule.t("margin")
        if margin is None:
            margin = rule.t("margin_paper_sd") * ref_sd
        test = tost_summary(
            float(x.mean()), float(x.std()), len(x), ref_mean, ref_sd, rule.t("paper_seeds"),
            margin,
        )  # fmt: skip
        cells[f"{mode}/N={int(dim)}"] = {
            "here": float(x.mean()),
            "seeds": len(x),
            "paper": ref_mean,
            "paper_sd": ref_sd,
            "margin": margin,
            **test,
        }
    results = [c["result"] for c in cells.values()]
    claim.values = {"cells": cells}
    if rule.t("margin") is not None:
        claim.values["margin"] = rule.t("margin")
    else:
        claim.values["margin_paper_sd"] = rule.t("margin_paper_sd")
    margin_text = (
        f"±{rule.t('margin')}"
        if rule.t("margin") is not None
        else f"± {rule.t('margin_paper_sd'):g} paper SDs"
    )
    claim.summary = (
        f"{results.count('equivalent')} of {len(cells)} cells equivalent within {margin_text}, "
        f"{results.count('outside')} outside, {results.count('undetermined')} undetermined"
        + (
            " (" + ", ".join(f"{k} {c['result']}" for k, c in cells.items()
                             if c["result"] != "equivalent") + ")"
            if set(results) != {"equivalent"}
            else ""
        )
    )  # fmt: skip
    if "outside" in results:
        claim.verdict = "fail"
    elif set(results) == {"equivalent"}:
        claim.verdict = "pass"
    elif all(c["seeds"] < 2 for c in cells.values() if c["result"] == "undetermined"):
        claim.premise_unmet("cells with one seed have no interval")
    else:
        claim.verdict = "not shown"
    claim.notes.append(STALL_CITATION)
    return claim


register_claim(
    V1,
    counterexample=lambda rule: _cells(Evidence()),
    premise_unmet={"scope": lambda rule: evidence([{"dim": 4, "mode": "lejepa", "r2_hz": 0.9},
                                                   {"dim": 8, "mode": "lejepa"}])},
)(_judge)  # fmt: skip
register_claim(
    V2,
    counterexample=lambda rule: _cells(Evidence()),
    premise_unmet={"scope": lambda rule: evidence([{"dim": 4, "mode": "lejepa", "r2_hz": 0.9},
                                                   {"dim": 8, "mode": "lejepa"}])},
)(_judge)  # fmt: skip
