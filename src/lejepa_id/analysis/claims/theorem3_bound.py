"""Claim ``theorem3_bound``: the centered Procrustes error is below Theorem 3's bound.

v1's summary gave one maximum of error/bound over every counted run; in the committed
results that maximum (0.998) was a collapsed code whose bound equals n, and runs whose
bound was undefined were dropped without a count. v2 counts informative, vacuous,
undefined and collapsed runs apart, and states the maximum over the informative ones.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from lejepa_id.analysis.bound import ERROR, split_scope
from lejepa_id.analysis.claims.base import Claim, Premise
from lejepa_id.analysis.claims.fabricate import evidence
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim
from lejepa_id.analysis.plotting import THEOREM_FILTER, THEOREM_MODES, gaussian_latents

UNCENTERED = "procrustes_mse"  # the published code's error: h and z not centered
SCOPE = Premise("scope", THEOREM_FILTER)
V1 = ClaimRule(
    id="theorem3_bound",
    version=1,
    date="2026-11-29",
    reason="first registered",
    text="Centered Procrustes error ≤ Theorem-3 bound on every run the theorem covers",
    metric=f"{ERROR} against approx_bound = D + (ε + D)²; the published code's uncentered "
    f"{UNCENTERED} reported beside",
    filter=THEOREM_FILTER,
    statistic="count of runs with error ≤ bound × (1 + 1e-09); vacuous bounds (bound ≥ n, "
    "no better than an error of n) counted apart",
    rule="pass: every counted run with a non-vacuous bound below; fail: any counted run "
    "above; runs outside the filter are listed, never counted",
    scope=SCOPE.statement,
    premises=(SCOPE,),
    thresholds={"slack": 1e-9, "collapsed_variance": None},
)
V2 = V1.amend(
    date="2026-12-01",
    reason="v1's maximum mixed a collapsed code (bound = n) with informative ones and "
    "dropped runs with an undefined bound uncounted; every kind is now counted apart",
    statistic="count of runs with error ≤ bound × (1 + 1e-09), apart for informative "
    "bounds (< n), vacuous ones (≥ n), collapsed codes (tr Cov h / n ≤ 1e-06) and runs "
    "whose bound or error is not finite (undefined); the maximum error/bound over the "
    "informative ones",
    rule="pass: every informative run below, and some; fail: any informative or vacuous "
    "run above; not shown: no informative run; collapsed and undefined runs are counted, "
    "never judged",
    thresholds={"collapsed_variance": 1e-6},
)


def _below(rows: pd.DataFrame, slack: float, error: str = ERROR) -> pd.Series:
    return rows[error] <= rows["approx_bound"] * (1 + slack) + 1e-12


def _uncentered(inside: pd.DataFrame, slack: float) -> dict:
    if UNCENTERED not in inside.columns or not len(inside):
        return {}
    above = ~_below(inside, slack, UNCENTERED)
    ratio = inside[UNCENTERED] / inside["approx_bound"].clip(lower=1e-300)
    return {
        "n_above": int(above.sum()),
        "max_error_over_bound": float(ratio.max()),
        "above_by_mode": {str(m): int(n) for m, n in inside[above].groupby("mode").size().items()},
    }


@register_claim(
    V1,
    counterexample=lambda rule: evidence([{"procrustes_mse_centered": 0.6}]),
    premise_unmet={"scope": lambda rule: evidence([{"approx_bound": 3.0}])},
)
def judge_v1(rule: ClaimRule, ev: Evidence) -> Claim:
    claim = rule.start()
    frame = ev.finished()
    slack = rule.t("slack")
    if frame.empty:
        claim.summary = "no finished runs"
        return claim
    inside, outside = split_scope(frame)
    claim.count(judged=len(inside))
    ok = _below(inside, slack)
    ratio = inside[ERROR] / inside["approx_bound"].clip(lower=1e-300)
    vacuous = inside["approx_bound"] >= inside["dim"]
    informative = inside[~vacuous]
    uncentered = _uncentered(inside, slack)
    claim.values = {
        "n_counted": len(inside),
        "n_below": int(ok.sum()),
        "max_error_over_bound": float(ratio.max()) if len(inside) else None,
        "n_vacuous": int(vacuous.sum()),
        "n_vacuous_below": int(ok[vacuous].sum()),
        "n_informative": len(informative),
        "n_informative_below": int(ok[~vacuous].sum()),
        "rho_tested": sorted(float(v) for v in inside["rho"].dropna().unique()),
        "uncentered": uncentered,
        "uncounted": {
            "n": len(outside),
            "n_below": int(_below(outside, slack).sum()),
            "by_mode_and_law": {
                f"{m}/{law}": int(n)
                for (m, law), n in outside.groupby(["mode", "law"]).size().items()
            },
        },
    }
    if inside.empty:
        claim.summary = f"no runs in the theorem's scope ({len(outside)} outside, uncounted)"
        return claim
    v = claim.values
    rhos = ", ".join(f"{r:g}" for r in v["rho_tested"])
    claim.summary = (
        f"{v['n_informative_below']} of {v['n_informative']} counted runs with a non-vacuous "
        f"bound below, plus {v['n_vacuous_below']} of {v['n_vacuous']} with a vacuous one "
        f"(bound ≥ n) (max error/bound {float(ratio.max()):.3g}); ρ tested: {rhos}"
    )
    if uncentered:
        claim.summary += (
            f"; with the published uncentered error {uncentered['n_above']} of {len(inside)} "
            f"exceed the bound (max {uncentered['max_error_over_bound']:.3g}×)"
        )
    claim.summary += (
        f"; {len(outside)} runs outside the scope, uncounted "
        f"({v['uncounted']['n_below']} of them below)"
    )
    if len(v["rho_tested"]) == 1:
        claim.notes.append(
            f"the bound is tested at one ρ only ({rhos}); its dependence on ρ is not tested"
        )
    if not bool(ok.all()):
        claim.verdict = "fail"
    elif informative.empty:
        claim.premise_unmet("every counted bound is vacuous (bound ≥ n)")
    else:
        claim.verdict = "pass"
    return claim


@register_claim(
    V2,
    counterexample=lambda rule: evidence(
        [{"procrustes_mse_centered": 0.6}, {"trace_cov": 0.0, "approx_bound": 2.0}]
    ),
    premise_unmet={
        "scope": lambda rule: evidence(
            [{"approx_bound": 3.0}, {"approx_bound": np.nan}, {"trace_cov": 0.0}]
        )
    },
)
def judge_v2(rule: ClaimRule, ev: Evidence) -> Claim:
    claim = rule.start()
    frame = ev.finished()
    slack = rule.t("slack")
    if frame.empty:
        claim.summary = "no finished runs"
        return claim
    inside, outside = split_scope(frame)
    covered = gaussian_latents(frame) & frame["mode"].isin(THEOREM_MODES)
    undefined = frame[covered & ~frame.index.isin(inside.index)]
    dead = ~(inside["trace_cov"] / inside["dim"] > rule.t("collapsed_variance"))
    alive = inside[~dead]
    vacuous = alive["approx_bound"] >= alive["dim"]
    informative, empty = alive[~vacuous], alive[vacuous]
    ok_inf, ok_vac = _below(informative, slack), _below(empty, slack)
    ratio = informative[ERROR] / informative["approx_bound"].clip(lower=1e-300)
    claim.count(
        judged=len(informative),
        vacuous=len(empty),
        collapsed=int(dead.sum()),
        undefined=len(undefined),
    )
    claim.values = {
        "n_informative": len(informative),
        "n_informative_below": int(ok_inf.sum()),
        "max_error_over_bound_informative": float(ratio.max()) if len(informative) else None,
        "n_vacuous": len(empty),
        "n_vacuous_below": int(ok_vac.sum()),
        "n_collapsed": int(dead.sum()),
        "n_undefined": len(undefined),
        "rho_tested": sorted(float(v) for v in alive["rho"].dropna().unique()),
        "uncentered": _uncentered(alive, slack),
        "outside_scope": {"n": len(outside), "n_below": int(_below(outside, slack).sum())},
    }
    v = claim.values
    if inside.empty and undefined.empty:
        claim.summary = f"no runs in the theorem's scope ({len(outside)} outside, uncounted)"
        return claim
    rhos = ", ".join(f"{r:g}" for r in v["rho_tested"])
    claim.summary = (
        f"informative bounds (< n): {v['n_informative_below']} of {v['n_informative']} below"
        + (
            f" (max error/bound {v['max_error_over_bound_informative']:.3g})"
            if len(informative)
            else ""
        )
        + f"; vacuous (bound ≥ n): {v['n_vacuous_below']} of {v['n_vacuous']} below; "
        f"collapsed codes: {v['n_collapsed']}; undefined bound or error: {v['n_undefined']}; "
        f"outside the scope: {len(outside)}" + (f"; ρ tested: {rhos}" if rhos else "")
    )
    u = v["uncentered"]
    if u:
        claim.summary += (
            f"; with the published uncentered error {u['n_above']} of {len(alive)} exceed "
            f"the bound (max {u['max_error_over_bound']:.3g}×)"
        )
    if len(v["rho_tested"]) == 1:
        claim.notes.append(
            f"the bound is tested at one ρ only ({rhos}); its dependence on ρ is not tested"
        )
    if not (bool(ok_inf.all()) and bool(ok_vac.all())):
        claim.verdict = "fail"
    elif informative.empty:
        claim.premise_unmet("no informative bound (every bound vacuous, collapsed or undefined)")
    else:
        claim.verdict = "pass"
    return claim
