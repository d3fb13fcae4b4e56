"""Claim ``whitened_optimum_reached``: training reaches the whitened optimum of the
alignment in the anisotropic and code-size families (a failure is a finding). Here the
gap to the predicted optimum is the quantity judged, not a premise."""

from __future__ import annotations

import pandas as pd

from lejepa_id.analysis.beyond import anisotropic_rows, codedim_rows, with_predictions
from lejepa_id.analysis.claims import spectral
from lejepa_id.analysis.claims.base import Claim, Premise
from lejepa_id.analysis.claims.fabricate import evidence
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim

FULL_SCHEDULE = Premise(
    "full schedule",
    "steps ≥ 20000 (the paper's schedule): a shorter run that has not converged says "
    "nothing about the optimum training reaches",
    20000,
)
V1 = ClaimRule(
    id="whitened_optimum_reached",
    version=1,
    date="2026-12-01",
    reason="first registered",
    text="Training reaches the whitened optimum of the alignment in the anisotropic and "
    "code-size families (a failure is a finding: the objective does not reach it)",
    metric="relative alignment gap predicted_alignment_gap / L_min",
    filter="finished Gaussian runs of the anisotropic and code-size families",
    statistic="per setting and objective, mean over seeds; share of settings ≤ 0.05",
    rule="only runs of the full schedule count; pass: every setting ≤ 0.05 with ≥ 2 seeds; "
    "fail: fewer than 50% of settings ≤ 0.05; not shown: otherwise",
    scope="the anisotropic and code-size families",
    premises=(FULL_SCHEDULE,),
    thresholds={"gap": 0.05, "fail_share": 0.5, "full_steps": 20000, "min_seeds": 2},
)


@register_claim(
    V1,
    counterexample=lambda rule: evidence(
        spectral.grid(spectral.CELLS, 0.9, predicted_alignment_gap=5.0)
    ),
    premise_unmet={
        "full schedule": lambda rule: evidence(
            spectral.grid(spectral.CELLS, 0.9, predicted_alignment_gap=5.0, steps=2000)
        )
    },
)
def judge(rule: ClaimRule, ev: Evidence) -> Claim:
    claim = rule.start()
    frame = ev.finished()
    table = pd.concat(
        [with_predictions(anisotropic_rows(frame)), with_predictions(codedim_rows(frame))]
    )
    if table.empty:
        claim.summary = "no runs of these families"
        return claim
    gap = rule.t("gap")
    full = table[table["steps"] >= rule.t("full_steps")]
    claim.count(
        judged=int(full["seeds"].sum()),
        premise_unmet=int(table["seeds"].sum() - full["seeds"].sum()),
    )
    reached = (table["relative_gap"] <= gap).groupby(table["modes"]).mean()
    claim.values = {
        "settings": len(table),
        "settings_full_schedule": len(full),
        "steps": sorted(int(v) for v in table["steps"].dropna().unique()),
        "share_reached_by_objective_all_lengths": {k: float(v) for k, v in reached.items()},
    }
    if full.empty:
        claim.summary = "shares of settings reaching it, at the lengths run: " + ", ".join(
            f"{k} {v:.0%}" for k, v in reached.items()
        )
        claim.premise_unmet(
            f"no run of the full schedule (steps {claim.values['steps']}, needed ≥ "
            f"{rule.t('full_steps')})"
        )
        return claim
    ok = (full["relative_gap"] <= gap).groupby(full["modes"]).mean()
    claim.values["share_reached_by_objective"] = {k: float(v) for k, v in ok.items()}
    claim.summary = "share of full-length settings reaching it: " + ", ".join(
        f"{k} {v:.0%}" for k, v in ok.items()
    )
    if float(ok.min()) < rule.t("fail_share"):
        claim.verdict = "fail"
    elif float(ok.min()) == 1.0 and int(full["seeds"].min()) >= rule.t("min_seeds"):
        claim.verdict = "pass"
    else:
        claim.verdict = "not shown"
    return claim
