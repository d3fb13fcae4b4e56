"""Claim ``anisotropic_boundary``: the boundary min ρ = max ρ² separates the cells where
the code is linear in z from the others. v2 judges convergence by the loss plateau, v3
measures that plateau from every step's loss, v4 asks that twice the schedule not move the
end loss (:mod:`lejepa_id.analysis.claims.spectral`)."""

from __future__ import annotations

import numpy as np

from lejepa_id.analysis.beyond import anisotropic_rows, with_predictions
from lejepa_id.analysis.claims import spectral
from lejepa_id.analysis.claims.base import Claim, premise_status
from lejepa_id.analysis.claims.fabricate import evidence
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim

V1 = ClaimRule(
    id="anisotropic_boundary",
    version=1,
    date="2026-11-30",
    reason="first registered",
    text="The code is linear in z exactly on the side of the boundary min ρ > max ρ²: every "
    "cell predicted linear has a higher R²(h → z) than every cell predicted not",
    metric="r2_hz: R²(h → z) on the evaluation set",
    filter=spectral.ANISO_FILTER,
    statistic="per cell, mean over seeds; over the cells whose premises hold, min over "
    "predicted-linear cells minus max over the others, per run (mixing)",
    rule="a run tests the boundary only if it has cells meeting the premises on both sides "
    "(an unconverged cell is lower for want of training, not of linearity); pass: every "
    "run tests it with a gap > 0.1, ≥ 2 seeds per cell; fail: a run that tests it has a "
    "gap ≤ 0; not shown: otherwise",
    scope=spectral.SCOPE.statement,
    premises=(spectral.SCOPE, spectral.CONVERGED_V1),
    thresholds={"separation": 0.1, "gap": 0.05, "epsilon": 0.5, "min_seeds": 2},
)
V2 = V1.amend(
    date="2026-12-01",
    reason="convergence was judged by the gap to the predicted optimum; v2 uses the loss "
    "plateau, which holds no prediction",
    premises=(spectral.SCOPE, spectral.PLATEAU),
    thresholds={"gap": None, "plateau": 0.02},
)
V3 = V2.amend(
    date=spectral.V3_DATE,
    reason=spectral.V3_REASON,
    premises=(spectral.SCOPE, spectral.PLATEAU_MEAN),
)
V4 = V3.amend(
    date=spectral.V4_DATE,
    reason=spectral.V4_REASON,
    premises=(spectral.SCOPE, spectral.DOUBLED),
    thresholds={"plateau": None, "doubling": 0.02},
)


def _boundary_checks(rule: ClaimRule, r) -> bool:
    # The boundary is about R^2(h -> z) only: "whitened" is not needed.
    checks = spectral.setting_checks(rule, r)
    return premise_status({k: checks[k] for k in ("scope", "converged")}) is None


def _judge(rule: ClaimRule, ev: Evidence) -> Claim:
    claim = rule.start()
    table = with_predictions(anisotropic_rows(ev.finished()))
    if table.empty or table["identifiable"].all() or not table["identifiable"].any():
        claim.summary = "no grid with cells on both sides of the boundary"
        return claim
    gaps, tested, cells = {}, {}, {}
    judged = unmet = 0
    for run, sel in table.groupby("run"):
        ok = np.array([_boundary_checks(rule, r) for _, r in sel.iterrows()], dtype=bool)
        met = sel[ok]
        linear, other = met[met["identifiable"]], met[~met["identifiable"]]
        cells[run] = {"linear": len(linear), "non_linear": len(other), "all": len(sel)}
        tested[run] = bool(len(linear) and len(other))
        if tested[run]:
            gaps[run] = float(linear["r2_hz"].min() - other["r2_hz"].max())
            judged += int(met["seeds"].sum())
            unmet += int(sel["seeds"].sum() - met["seeds"].sum())
        else:
            unmet += int(sel["seeds"].sum())
    claim.count(judged=judged, premise_unmet=unmet)
    claim.values = {
        "gap_per_run": gaps,
        "tests_boundary": tested,
        "cells_premise_met": cells,
        "seeds_min": int(table["seeds"].min()),
    }
    claim.summary = "min R² on the linear side minus max R² on the other (cells meeting the "
    claim.summary += "premises): " + ", ".join(
        f"{run} {gaps[run]:+.3f}"
        if tested[run]
        else f"{run} untested ({cells[run]['linear']} linear, {cells[run]['non_linear']} "
        "non-linear cells meet the premises)"
        for run in tested
    )
    if any(g <= 0 for g in gaps.values()):
        claim.verdict = "fail"
    elif all(tested.values()) and all(g > rule.t("separation") for g in gaps.values()):
        claim.verdict = "pass" if claim.values["seeds_min"] >= rule.t("min_seeds") else "not shown"
    elif not gaps:
        claim.premise_unmet("no run has cells meeting the premises on both sides of the boundary")
    else:
        claim.verdict = "not shown"
    return claim


def _grid(**row) -> Evidence:
    # Linear cells (0.9, 0.9), (0.5, 0.5) below the non-linear ones: the boundary broken.
    rows = spectral.grid(spectral.CELLS, 0.9, **row)
    for r in rows:
        if (r["rho_first"], r["rho_rest"]) in ((0.9, 0.9), (0.5, 0.5)):
            r["r2_hz"] = 0.5
    return evidence(rows)


def _out_of_scope(rule: ClaimRule) -> Evidence:
    return _grid(mode="infonce")


def _far_from_optimum(rule: ClaimRule) -> Evidence:
    # v1 judged convergence by the gap to the predicted optimum, v2 by the loss plateau, v3
    # by the plateau of the mean loss of every step, v4 by the end loss at twice the schedule.
    if rule.version == 1:
        return _grid(predicted_alignment_gap=5.0)
    return _grid(**{spectral.plateau_column(rule): 0.5})


for _rule in (V1, V2, V3, V4):
    register_claim(
        _rule,
        counterexample=lambda rule: _grid(),
        premise_unmet={"scope": _out_of_scope, "converged": _far_from_optimum},
    )(_judge)
