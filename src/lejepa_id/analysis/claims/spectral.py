"""What the spectral claims share (``anisotropic_r2``, ``code_size``,
``anisotropic_boundary``): premises, per-setting checks and the judge of measured
against predicted R².

v1 judged convergence by the relative gap to the predicted optimum (≤ 0.05): by Ky Fan
that gap bounds the weight outside the top-m span and with it the error judged, so the
premise implied the result. v1 also judged R²(z → h) on the self-whitened code, which is
(n / m) R²(h → z) by construction: one quantity, not two directions. v2 judges
convergence by the objective's own plateau over the last part of training (no
prediction in it, :mod:`lejepa_id.analysis.convergence`) and the measured R²(z → h) of
the code, whose prediction is about the whitened code (premise ``whitened``). v3 measures
that plateau as it is stated, from the mean loss of every training step (``loss_mean``)
instead of one minibatch per evaluation, whose noise alone exceeded the threshold. v4
judges convergence by what the plateau stands in for, whether more training moves where a
run ends: a seed of each setting trained again with the whole schedule twice as long
(experiment ``<name>_x2``, :func:`lejepa_id.analysis.beyond.with_doubling`) must end
within 2% of the same seed's loss; under the shipped schedule the plateau measured the
learning rate's decay more than the training left.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from lejepa_id.analysis.claims.base import Claim, Premise, check, premise_status
from lejepa_id.analysis.claims.registry import ClaimRule

ANISO_FILTER = "finished Gaussian runs of experiments sweeping rho_first and rho_rest, m = n"
# Fabricated anisotropic cells (rho of z_1, rho of the others): two predicted linear
# ((0.9, 0.9), (0.5, 0.5)), two not.
CELLS = [(0.9, 0.9), (0.9, 0.5), (0.5, 0.9), (0.5, 0.5)]
SPECTRAL_MODES = ("lejepa", "whiten")  # objectives whose optimum is the whitened one
SCOPE = Premise(
    "scope",
    "Gaussian latents, objective lejepa or whiten (the predictions are about the whitened "
    "optimum of the alignment under the OU channel)",
)
CONVERGED_V1 = Premise(
    "converged",
    "relative alignment gap predicted_alignment_gap / L_min ≤ 0.05, L_min = 1 − mean of the "
    "top-m eigenvalues (mean over seeds)",
    0.05,
)
WHITENED_V1 = Premise(
    "whitened",
    "ε / √m = |Cov h − I|_F / √m ≤ 0.5 (mean over seeds); needed only by the raw code's "
    "R²(z → h), which is reported, not judged: R²(h → z) is invariant to invertible linear "
    "maps of h and R²(z → h) is judged on the self-whitened code",
    0.5,
)
PLATEAU = Premise(
    "converged",
    "the objective has plateaued: the relative change of the mean training loss from the "
    "third to the last quarter of training ≤ 0.02, for every seed (no prediction enters it)",
    0.02,
)
WHITENED = Premise(
    "whitened",
    "ε / √m = |Cov h − I|_F / √m ≤ 0.5 (mean over seeds): the prediction of R²(z → h) is "
    "about the whitened code, and R²(z → h) is judged on the code as measured",
    0.5,
)
PLATEAU_MEAN = Premise(
    "converged",
    "the objective has plateaued: the relative change of the mean training loss over every "
    "step of the third quarter of training to that over every step of the last quarter ≤ "
    "0.02, for every seed (the curves' loss_mean; a run recorded without it does not meet "
    "it; no prediction enters it)",
    0.02,
)
V3_DATE = "2026-12-06"
V3_REASON = (
    "v2 stated the plateau of the mean training loss but measured it from one minibatch's "
    "loss per evaluation, about 10 a quarter at 20,000 steps; on the overnight anisotropic "
    "runs (2026-12-06) one evaluation's loss differed from the next by 5 to 13% of the loss "
    "(median 8%), so the statistic's noise alone (about 4%) exceeded its 0.02 and every "
    "setting failed the premise by chance as much as by training; v3 measures it from every "
    "step (loss_mean), the threshold unchanged"
)
DOUBLED = Premise(
    "converged",
    "training twice as long does not move where the run ends: a seed of the setting "
    "trained again with its whole schedule twice as long (experiment <name>_x2: same "
    "config, seed and data, steps doubled) ends within 0.02 of the same seed's end loss, "
    "|end loss (2x) − end loss| / end loss, the end loss being the mean loss over every "
    "step of the last tenth of the schedule (the curves' loss_mean); every seed so trained "
    "must meet it, and a setting with none does not (no prediction enters it)",
    0.02,
)
V4_DATE = "2026-12-06"
V4_REASON = (
    "the schedule holds the learning rate constant for the first half and decays it to 0 "
    "by a cosine over the second, so v3's plateau compares a quarter at 82% of the peak "
    "rate on average with one at 18%: trained 2x and 4x longer (seed 0 of six settings, "
    "2026-12-06, docs/overnight.md) the runs ended at the same loss (within 0.3% for the "
    "anisotropic and 1.3% for the action runs; the code-size m = 1 whiten run at 4x left its "
    "solution and ended 88% higher) while their plateau stayed above 0.02, so v3 "
    "measured the decay, not unfinished training; v4 asks whether doubling the "
    "schedule moves the end loss, on a seed not trained longer before (seed 1), the "
    "threshold unchanged. Registered before any seed-1 run twice as long was trained"
)
V4_PREMISES = (SCOPE, DOUBLED, WHITENED)
V4_RULE = (
    "settings whose premises (scope, end loss unmoved at twice the schedule, whitened) fail "
    "are not shown, never counted; pass: ≥ 90% of the settings meeting them within ±0.1 "
    "both ways, every side of the prediction among them, ≥ 2 seeds each; fail: < 50% of "
    "them within; not shown: otherwise (or one seed)"
)
V4_CHANGES = {
    "premises": V4_PREMISES,
    "rule": V4_RULE,
    "thresholds": {"plateau": None, "doubling": 0.02},
}
THRESHOLDS_V1 = {
    "margin": 0.1,
    "pass_share": 0.9,
    "fail_share": 0.5,
    "gap": 0.05,
    "epsilon": 0.5,
    "min_seeds": 2,
}
V2_CHANGES = {
    "premises": (SCOPE, PLATEAU, WHITENED),
    "thresholds": {"gap": None, "plateau": 0.02},
}
V3_PREMISES = (SCOPE, PLATEAU_MEAN, WHITENED)
V2_REASON = (
    "v1's convergence premise (gap to the predicted optimum ≤ 0.05) bounds the error it "
    "judged (Ky Fan), and its R²(z → h) was (n/m) R²(h → z) by construction; v2 judges "
    "convergence by the loss plateau and R²(z → h) as measured"
)


def plateau_column(rule: ClaimRule) -> str:
    """The runs-table column a rule's convergence premise reads (v2 and later)."""
    return {2: "loss_plateau", 3: "loss_plateau_mean"}.get(rule.version, "loss_doubling")


def convergence_words(rule: ClaimRule) -> str:
    """What a rule's convergence premise measures, for its summaries (v2 and later)."""
    return {2: "loss plateau", 3: "plateau of the mean loss"}.get(
        rule.version, "change of the end loss at twice the schedule"
    )


def convergence_threshold(rule: ClaimRule) -> float:
    """The bound on :func:`plateau_column`'s value (v2 and later)."""
    return rule.t("plateau") if rule.version in (2, 3) else rule.t("doubling")


def setting_checks(rule: ClaimRule, r: pd.Series) -> dict:
    in_scope = all(mode in SPECTRAL_MODES for mode in str(r["modes"]).split(","))
    eps = r["epsilon"] / np.sqrt(r["m"])
    premises = {p.name: p for p in rule.premises}
    if rule.version == 1:
        gap = r["relative_gap"]
        converged = check(
            premises["converged"], gap, bool(np.isfinite(gap) and gap <= rule.t("gap"))
        )
    else:
        flat = r.get(plateau_column(rule), np.nan)
        ok = bool(np.isfinite(flat) and flat <= convergence_threshold(rule))
        converged = check(premises["converged"], flat, ok)
    return {
        "scope": check(SCOPE, None, in_scope),
        "converged": converged,
        "whitened": check(
            premises.get("whitened", WHITENED),
            eps,
            bool(np.isfinite(eps) and eps <= rule.thresholds.get("epsilon", 0.5)),
        ),
    }


def required(rule: ClaimRule) -> tuple[str, ...]:
    """The premises a setting must meet to be judged (v1 reported "whitened" beside)."""
    return ("scope", "converged") if rule.version == 1 else ("scope", "converged", "whitened")


def meets(rule: ClaimRule, r: pd.Series) -> bool:
    checks = setting_checks(rule, r)
    return premise_status({k: checks[k] for k in required(rule)}) is None


def judge_spectral(
    rule: ClaimRule, claim: Claim, table: pd.DataFrame, sides: Callable[[pd.Series], str]
) -> Claim:
    """Per setting: premises, then |measured − predicted| both ways on the settings whose
    premises hold. ``sides(row)`` names the part of the prediction a setting tests; a
    pass needs every side tested (else the scope is not reached)."""
    if table.empty:
        claim.summary = "no runs of this family"
        return claim
    zh = "r2_zh_white" if rule.version == 1 else "r2_zh"
    margin = rule.t("margin")
    err = np.maximum(
        (table["r2_hz"] - table["pred_r2_hz"]).abs(), (table[zh] - table["pred_r2_zh"]).abs()
    )
    table = table.assign(err=err, side=[sides(r) for _, r in table.iterrows()])
    records = []
    for _, r in table.iterrows():
        checks = setting_checks(rule, r)
        unmet = premise_status({k: checks[k] for k in required(rule)})
        status = unmet or ("within" if r["err"] <= margin else "outside")
        rec = r.drop(labels=["experiment"]).to_dict()
        records.append(rec | {"premises": checks, "status": status})
    met = [rec for rec in records if not rec["status"].startswith("not shown")]
    claim.count(
        judged=int(sum(rec["seeds"] for rec in met)),
        premise_unmet=int(sum(rec["seeds"] for rec in records) - sum(rec["seeds"] for rec in met)),
    )
    all_sides = sorted(set(table["side"]))
    met_sides = sorted({rec["side"] for rec in met})
    claim.values = {
        "judged_r2_zh": zh,
        "settings": len(table),
        "settings_premise_met": len(met),
        "sides": all_sides,
        "sides_premise_met": met_sides,
        "seeds_min": int(table["seeds"].min()),
        "per_setting": records,
    }
    unmet_count = len(records) - len(met)
    if not met:
        key = "relative_gap" if rule.version == 1 else plateau_column(rule)
        vals = table[key].dropna()
        measured = f"{vals.min():.3g} to {vals.max():.3g}" if len(vals) else "unmeasured"
        claim.summary = f"0 of {len(records)} settings meet the premises"
        what = "relative alignment gap" if rule.version == 1 else convergence_words(rule)
        bound = rule.t("gap") if rule.version == 1 else convergence_threshold(rule)
        if rule.version == 1:
            claim.premise_unmet(f"no setting converged ({what} {measured}, needed ≤ {bound:g})")
        else:
            claim.premise_unmet(
                f"no setting meets the premises ({what} {measured}, needed ≤ {bound:g}; "
                "and whitened)"
            )
        return claim
    within = [rec for rec in met if rec["status"] == "within"]
    share = len(within) / len(met)
    worst = max(met, key=lambda rec: rec["err"])
    claim.values |= {
        "share_within_margin": share,
        "worst_setting": f"{worst['run']} rho=({worst['rho_first']:g}, {worst['rho_rest']:g}) "
        f"m={int(worst['m'])}",
        "worst_error": float(worst["err"]),
    }
    claim.summary = (
        f"{len(within)} of {len(met)} settings meeting the premises within ±{margin} both "
        f"ways (worst {worst['err']:.3f} at {claim.values['worst_setting']}); {unmet_count} "
        f"of {len(records)} not shown (premise unmet); sides tested: {', '.join(met_sides)}"
    )
    if share < rule.t("fail_share"):
        claim.verdict = "fail"
    elif (
        share >= rule.t("pass_share")
        and met_sides == all_sides
        and claim.values["seeds_min"] >= rule.t("min_seeds")
    ):
        claim.verdict = "pass"
    else:
        claim.verdict = "not shown"
        if met_sides != all_sides:
            missing = ", ".join(s for s in all_sides if s not in met_sides)
            what = "converged setting" if rule.version == 1 else "setting meeting the premises"
            claim.premise_unmet(f"no {what} on the side(s) {missing}")
    return claim


def statement(text: str, filter_: str) -> dict:
    """The fields the two quantitative spectral claims share (v1)."""
    return {
        "text": text,
        "metric": "r2_hz and r2_zh_white: R²(h → z), and R²(z → h) of the self-whitened code, "
        "on the evaluation set (raw r2_zh reported)",
        "filter": filter_,
        "statistic": "per setting, mean over seeds; |measured - predicted| for both "
        "directions, on the settings whose premises hold",
        "rule": "settings whose premises fail are not shown, never counted; pass: ≥ 90% of "
        "the settings meeting them within ±0.1 both ways, every side of the prediction "
        "among them, ≥ 2 seeds each; fail: < 50% of them within; not shown: otherwise (or "
        "one seed)",
        "scope": SCOPE.statement,
        "premises": (SCOPE, CONVERGED_V1, WHITENED_V1),
        "thresholds": THRESHOLDS_V1,
    }


V2_METRIC = "r2_hz and r2_zh: R²(h → z) and R²(z → h) of the code as measured on the evaluation set"
V2_RULE = (
    "settings whose premises (scope, loss plateau, whitened) fail are not shown, never "
    "counted; pass: ≥ 90% of the settings meeting them within ±0.1 both ways, every side of "
    "the prediction among them, ≥ 2 seeds each; fail: < 50% of them within; not shown: "
    "otherwise (or one seed)"
)


def grid(
    cells: list[tuple[float, float]],
    r2: float,
    dim: int = 2,
    code_dim: float | None = None,
    **row,
) -> list[dict]:
    """Fabricated anisotropic or code-size runs: two seeds per (ρ first, ρ rest) cell."""
    out = []
    for first, rest in cells:
        for seed in (0, 1):
            out.append(
                {
                    "experiment": "beyond",
                    "run": "spiral",
                    "dim": dim,
                    "rho": first if first == rest else np.nan,
                    "rho_first": first,
                    "rho_rest": rest,
                    "rho_list": f"{first:g}x{rest:g}" if code_dim is None else None,
                    "code_dim": code_dim,
                    "seed": seed,
                    "r2_hz": r2,
                    "r2_zh": r2,
                }
                | row
            )
    return out
