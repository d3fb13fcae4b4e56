"""Claim ``action_lqr``: in action-driven linear worlds the learned code and predictor are
a rotation of the true system, so LQR planned in the learned space costs the optimal
true cost (Theorem 4).

v1 judged the cost only on seeds whose code was identified: it filtered on half of what
the claim states. v2 judges both halves on every seed of a converged setting: the code
identified, and the cost of planning in it; convergence is the loss plateau
(:mod:`lejepa_id.analysis.convergence`), which holds no prediction. v3 measures that
plateau from every step's loss (``loss_mean``) instead of one minibatch per evaluation
(:data:`lejepa_id.analysis.claims.spectral.V3_REASON`). v4 asks instead that a seed of
the setting trained again with twice the schedule end within 2% of the same seed's loss
(:data:`lejepa_id.analysis.claims.spectral.V4_REASON`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from lejepa_id.analysis.beyond import action_rows
from lejepa_id.analysis.claims import spectral
from lejepa_id.analysis.claims.base import Claim, Premise
from lejepa_id.analysis.claims.fabricate import evidence
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim


def identified(r2_hz: float, orth: float, r2_min: float, orth_max: float) -> bool:
    """Theorem 4's code: a rotation of the true state (R² ≥ r2_min, orth ≤ orth_max)."""
    return bool(np.isfinite(r2_hz) and np.isfinite(orth) and r2_hz >= r2_min and orth <= orth_max)


IDENTIFIED = Premise(
    "identified",
    "Theorem 4 assumes a code that is a rotation of the true state: per run R²(h → z) ≥ 0.95 "
    "and scale-free orthogonality error |G / s² − I|_F ≤ 0.2, checked before planning is "
    "judged",
)
CONVERGED = Premise(
    "converged",
    "the objective has plateaued: relative change of the mean training loss from the third "
    "to the last quarter of training ≤ 0.02, for every seed of the setting",
    0.02,
)
V1 = ClaimRule(
    id="action_lqr",
    version=1,
    date="2026-11-30",
    reason="first registered",
    text="In action-driven linear worlds the learned code and predictor are a rotation of "
    "the true system, so LQR planned in the learned space costs the optimal true cost",
    metric="lqr_cost_ratio: expected cost on the true system of the learned-space LQR "
    "controller over the optimal cost (also predictor_err, lqr_value_err)",
    filter="finished runs with transition linear_action",
    statistic="per run setting, mean over the seeds whose code is identified; the largest mean",
    rule="runs whose code is not identified are not shown, never counted; pass: every "
    "setting has ≥ 2 identified seeds and a mean ≤ 1.05; fail: some setting's mean over "
    "identified seeds > 1.2; not shown: otherwise",
    scope="finished runs with transition linear_action",
    premises=(IDENTIFIED,),
    thresholds={"pass": 1.05, "fail": 1.2, "r2": 0.95, "orth": 0.2, "min_seeds": 2},
)
V2 = V1.amend(
    date="2026-12-01",
    reason="v1 filtered on identification, which is half of what the claim states; v2 "
    "judges identification and cost on every seed of a converged setting",
    metric="per seed: identified (R²(h → z) ≥ 0.95 and scale-free orthogonality error ≤ "
    "0.2) and lqr_cost_ratio, the true cost of the learned-space LQR controller over the "
    "optimal cost",
    filter="finished runs with transition linear_action, in settings whose every seed has "
    "converged (loss plateau)",
    statistic="per run setting over all its seeds: the share identified and the mean cost ratio",
    rule="pass: every converged setting has ≥ 2 seeds, all identified, and a mean cost ratio "
    "≤ 1.05; fail: some converged setting with ≥ 2 seeds has none identified or a mean "
    "cost ratio > 1.2; not shown: otherwise, or no setting converged",
    premises=(CONVERGED,),
    thresholds={"plateau": 0.02},
)
CONVERGED_MEAN = Premise(
    "converged",
    "the objective has plateaued: relative change of the mean training loss over every step "
    "of the third quarter of training to that over every step of the last quarter ≤ 0.02, "
    "for every seed of the setting (the curves' loss_mean; a run recorded without it does "
    "not meet it)",
    0.02,
)
V3 = V2.amend(
    date=spectral.V3_DATE,
    reason=spectral.V3_REASON,
    filter="finished runs with transition linear_action, in settings whose every seed has "
    "converged (plateau of the mean loss of every step)",
    premises=(CONVERGED_MEAN,),
)


V4 = V3.amend(
    date=spectral.V4_DATE,
    reason=spectral.V4_REASON,
    filter="finished runs with transition linear_action, in settings whose end loss is "
    "unmoved at twice the schedule",
    premises=(spectral.DOUBLED,),
    thresholds={"plateau": None, "doubling": 0.02},
)


def _with_identified(rule: ClaimRule, rows: pd.DataFrame) -> pd.DataFrame:
    orth = pd.to_numeric(rows.get("orth_err_scale_free", np.nan), errors="coerce")
    rows = rows.assign(orth=orth)
    flags = [
        identified(a, b, rule.t("r2"), rule.t("orth")) for a, b in zip(rows["r2_hz"], rows["orth"])
    ]
    return rows.assign(identified=flags)


KEYS = ["lqr_cost_ratio", "predictor_err", "lqr_value_err"]


def _fmt(value: float) -> str:
    return "not recorded" if np.isnan(value) else f"{value:.3g}"


def _fabricated(cost: float, r2: float = 0.99, **row: Any) -> Evidence:
    rows = [
        {"transition": "linear_action", "run": "n2_linear", "seed": s, "r2_hz": r2,
         "orth_err_scale_free": 0.01, "lqr_cost_ratio": cost, "predictor_err": 0.01,
         "lqr_value_err": 0.01, **row}
        for s in (0, 1)
    ]  # fmt: skip
    return evidence(rows)


@register_claim(
    V1,
    counterexample=lambda rule: _fabricated(1.5),
    premise_unmet={"identified": lambda rule: _fabricated(1.5, r2=0.5)},
)
def judge_v1(rule: ClaimRule, ev: Evidence) -> Claim:
    claim = rule.start()
    rows = action_rows(ev.finished())
    if rows.empty:
        claim.summary = "no action-world runs"
        return claim
    rows = _with_identified(rule, rows)
    claim.count(
        judged=int(rows["identified"].sum()), premise_unmet=int((~rows["identified"]).sum())
    )
    per_run = {}
    for run, sel in rows.groupby("run"):
        good = sel[sel["identified"]]
        entry: dict[str, Any] = {k: float(good[k].mean()) if len(good) else None for k in KEYS}
        entry |= {
            "seeds": len(sel),
            "seeds_identified": len(good),
            "r2_hz": [float(v) for v in sel["r2_hz"]],
            "orth_err_scale_free": [float(v) for v in sel["orth"]],
            "all_seeds_mean_cost_ratio": float(sel["lqr_cost_ratio"].mean()),
        }
        entry["status"] = (
            ("within" if entry["lqr_cost_ratio"] <= rule.t("pass") else "above")
            if len(good)
            else f"not shown (premise: identified in 0 of {len(sel)} seeds)"
        )
        per_run[run] = entry
    judged = {r: e for r, e in per_run.items() if e["seeds_identified"]}
    worst = max((e["lqr_cost_ratio"] for e in judged.values()), default=None)
    claim.values = {"per_run": per_run, "largest_mean_cost_ratio": worst}
    claim.summary = "mean LQR cost ratio over identified seeds per run: " + ", ".join(
        f"{run} {e['lqr_cost_ratio']:.4f} ({e['seeds_identified']} of {e['seeds']} identified)"
        if e["seeds_identified"]
        else f"{run} not shown (0 of {e['seeds']} identified)"
        for run, e in per_run.items()
    )
    if worst is None:
        claim.premise_unmet("no run's code is identified")
    elif worst > rule.t("fail"):
        claim.verdict = "fail"
    elif worst <= rule.t("pass") and all(
        e["seeds_identified"] >= rule.t("min_seeds") for e in per_run.values()
    ):
        claim.verdict = "pass"
    else:
        claim.verdict = "not shown"
        short = [r for r, e in per_run.items() if e["seeds_identified"] < rule.t("min_seeds")]
        if short and worst <= rule.t("pass"):
            claim.premise_unmet("fewer than 2 identified seeds in " + ", ".join(short))
    return claim


@register_claim(  # decorators apply bottom up: v2 is registered first
    V4,
    counterexample=lambda rule: _fabricated(1.5),
    premise_unmet={"converged": lambda rule: _fabricated(1.5, loss_doubling=0.5)},
)
@register_claim(
    V3,
    counterexample=lambda rule: _fabricated(1.5),
    premise_unmet={"converged": lambda rule: _fabricated(1.5, loss_plateau_mean=0.5)},
)
@register_claim(
    V2,
    counterexample=lambda rule: _fabricated(1.5),
    premise_unmet={"converged": lambda rule: _fabricated(1.5, loss_plateau=0.5)},
)
def judge_v2(rule: ClaimRule, ev: Evidence) -> Claim:
    """v2; v3 with the plateau of the mean loss; v4 with the end loss at twice the
    schedule (:func:`spectral.plateau_column`)."""
    claim = rule.start()
    rows = action_rows(ev.finished())
    if rows.empty:
        claim.summary = "no action-world runs"
        return claim
    rows = _with_identified(rule, rows)
    flat = pd.to_numeric(rows.get(spectral.plateau_column(rule), np.nan), errors="coerce")
    rows = rows.assign(plateau=flat)
    per_run: dict[str, dict[str, Any]] = {}
    for run, sel in rows.groupby("run"):
        bound = spectral.convergence_threshold(rule)
        if rule.version >= 4:
            # The seeds trained twice as long; a setting with none is not shown.
            doubled = sel["plateau"].dropna()
            converged = bool(len(doubled) and (doubled <= bound).all())
        else:
            # A NaN plateau (not recorded) is never converged.
            converged = bool((sel["plateau"] <= bound).all())
        per_run[str(run)] = {
            "seeds": len(sel),
            "seeds_identified": int(sel["identified"].sum()),
            "mean_cost_ratio": float(sel["lqr_cost_ratio"].mean()),
            "converged": converged,
            "loss_plateau_max": float(sel["plateau"].max()),
            "r2_hz": [float(v) for v in sel["r2_hz"]],
            "orth_err_scale_free": [float(v) for v in sel["orth"]],
        }
    met = {r: e for r, e in per_run.items() if e["converged"]}
    claim.count(
        judged=sum(e["seeds"] for e in met.values()),
        premise_unmet=sum(e["seeds"] for r, e in per_run.items() if r not in met),
    )
    claim.values = {"per_run": per_run}

    def why(value: float) -> str:
        if rule.version < 4:
            return f"plateau {_fmt(value)}"
        if np.isnan(value):
            return "no seed trained twice as long"
        return f"end loss moved by {value:.3g} at twice the schedule"

    claim.summary = "per setting, identified seeds and mean LQR cost ratio over all seeds: " + (
        ", ".join(
            f"{run} {e['seeds_identified']} of {e['seeds']} identified, cost ratio "
            f"{e['mean_cost_ratio']:.4f}"
            + ("" if e["converged"] else f" (not converged: {why(e['loss_plateau_max'])})")
            for run, e in per_run.items()
        )
    )
    if not met:
        values = [e["loss_plateau_max"] for e in per_run.values()]
        worst = "not recorded" if any(np.isnan(values)) else f"up to {max(values):.3g}"
        what = spectral.convergence_words(rule)
        if rule.version >= 4 and all(np.isnan(values)):
            worst = "not measured: no seed trained twice as long"
        bound = spectral.convergence_threshold(rule)
        claim.premise_unmet(f"no setting converged ({what} {worst}, needed ≤ {bound:g})")
        return claim
    enough = {r: e for r, e in met.items() if e["seeds"] >= rule.t("min_seeds")}
    if any(
        e["seeds_identified"] == 0 or e["mean_cost_ratio"] > rule.t("fail") for e in enough.values()
    ):
        claim.verdict = "fail"
    elif len(enough) == len(met) and all(
        e["seeds_identified"] == e["seeds"] and e["mean_cost_ratio"] <= rule.t("pass")
        for e in met.values()
    ):
        claim.verdict = "pass"
    else:
        claim.verdict = "not shown"
    return claim
