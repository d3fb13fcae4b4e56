"""The synthetic experiments' claims (providers for :mod:`lejepa_id.analysis.claims`).

Each provider takes the finished runs and returns one :class:`Claim` that names its
metric, its filter, its statistic and the rule of its verdict.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from lejepa_id.analysis.beyond import (
    claim_action,
    claim_anisotropic,
    claim_anisotropic_boundary,
    claim_codedim,
    claim_whitened_optimum,
)
from lejepa_id.analysis.bound import ERROR, split_scope
from lejepa_id.analysis.claims import Claim, ClaimProvider, Premise, check
from lejepa_id.analysis.gennorm import gennorm_runs
from lejepa_id.analysis.plotting import (
    THEOREM_FILTER,
    paper_worlds,
    sweeping,
    theorem_scope,
    with_labels,
)
from lejepa_id.analysis.stats import welch

GAP_TOLERANCE = 0.05  # median relative alignment gap delta / (2 (1 - rho) tr Cov)
# A code whose variance per coordinate is below this has collapsed to a point: its
# alignment and its Gaussian value are both round-off (about 1e-14), so their ratio is
# 0/0 and says nothing about the gap.
COLLAPSED_VARIANCE = 1e-6
PEAK_LEVEL = 0.05  # one-sided Welch test level for "the peak is at alpha = 2"
SCALING_FLOOR = 0.999  # SIGReg and VICReg R^2(h -> z) must stay above this
SCALING_TARGET_N = 1024  # the largest N of the paper's claim
DEGRADE_MARGIN = 0.01  # InfoNCE must end at least this far below the regularized objectives
BOUND_SLACK = 1e-9  # relative slack: float rounding when both sides are ~0
# The published code's R^2(h -> z) on the 2d config, seed 1337, 20,000 steps (measured on
# an H200): (mixing label, mode) -> value.
PUBLISHED_2D = {
    ("spiral", "lejepa"): 0.9858,
    ("banana", "lejepa"): 0.9860,
    ("sinusoid", "lejepa"): 0.9859,
    ("nvp", "lejepa"): 0.99998,
    ("spiral", "whiten"): 0.9949,
}
PUBLISHED_LAM = {"lejepa": 1e-3, "whiten": 0.5}
AGREE_MARGIN = 0.005  # |R^2 here - published| within this: agreement
DISAGREE_MARGIN = 0.02  # beyond this: a failure to reproduce
OFFSET_SD = 2.0  # a difference this many seed standard deviations away is not seed noise


FULL_STEPS = 20000  # the paper's schedule
GAP_SCOPE = Premise(
    "scope",
    "the theory's scope: Gaussian latents (law gaussian, or gennorm with α = 2), objective "
    "lejepa or whiten, one ρ for every coordinate, code size m = n",
)
GAP_SCHEDULE = Premise(
    "full schedule",
    f"steps ≥ {FULL_STEPS} (the paper's): the gap is a statement about trained encoders",
    FULL_STEPS,
)


def gap_scope(frame: pd.DataFrame) -> pd.Series:
    """Runs in GAP_SCOPE with a finite δ, collapsed or not, as a boolean mask."""
    mask = theorem_scope(frame)
    if "rho_list" in frame.columns:
        first = frame.get("rho_first", frame["rho"])
        rest = frame.get("rho_rest", frame["rho"])
        mask &= frame["rho_list"].isna() | (first == rest)
    if "code_dim" in frame.columns:
        mask &= frame["code_dim"].isna() | (frame["code_dim"] == frame["dim"])
    return mask & np.isfinite(frame["delta"])


def collapsed(frame: pd.DataFrame) -> pd.Series:
    """Codes collapsed to a point (tr Cov h / n below COLLAPSED_VARIANCE), a boolean mask."""
    return ~(frame["trace_cov"] / frame["dim"] > COLLAPSED_VARIANCE)


def lam_sweeps(frame: pd.DataFrame) -> list[str]:
    """Experiments that sweep λ within one objective (the λ × ρ grid)."""
    if frame.empty:
        return []
    counts = frame.groupby(["experiment", "mode"])["lam"].nunique()
    return sorted({str(exp) for (exp, _), n in counts.items() if n > 1})


GAP_OPERATING_LAM = Premise(
    "one λ per objective",
    "experiments that fix each objective's weight λ: a sweep over λ (the λ × ρ grid) puts "
    "runs far from the regularized optimum by design, so its gaps are reported per λ and "
    "not judged",
)


def _gap_ratio(rows: pd.DataFrame) -> pd.Series:
    return rows["delta"] / (2 * (1 - rows["rho"]) * rows["trace_cov"])


def claim_gap(frame: pd.DataFrame) -> Claim:
    claim = Claim(
        id="alignment_gap",
        text="Alignment gap δ near 0 (LeJEPA and whitening runs at their experiment's λ)",
        metric="δ / (2 (1 − ρ) tr Cov h): the alignment gap relative to its Gaussian value",
        filter="finished runs in the theory's scope (Gaussian latents, lejepa or whiten, one "
        f"ρ, m = n) of the full schedule (≥ {FULL_STEPS} steps), finite δ, a code that has "
        f"not collapsed (tr Cov h / n > {COLLAPSED_VARIANCE:g}), in experiments with one λ "
        "per objective",
        statistic="median over runs, per experiment",
        rule=f"pass: every experiment's median ≤ {GAP_TOLERANCE}; fail: some experiment's "
        f"median > {GAP_TOLERANCE}; runs outside the scope, shorter, collapsed or in a λ "
        "sweep are listed, not counted (a λ sweep's medians are reported per λ)",
        values={},
        verdict="not measured",
    )
    claim.declare(GAP_SCOPE, GAP_SCHEDULE, GAP_OPERATING_LAM)
    if frame.empty:
        claim.summary = "no lejepa or whiten runs"
        return claim
    theory = gap_scope(frame)
    scope = theory & ~collapsed(frame)
    full = pd.to_numeric(frame["steps"], errors="coerce") >= FULL_STEPS
    swept = lam_sweeps(frame[scope & full])
    in_sweep = frame["experiment"].isin(swept)
    rows = frame[scope & full & ~in_sweep]
    sweep_rows = frame[scope & full & in_sweep]
    claim.values = {
        "outside_scope": int((~theory).sum()),
        "collapsed": int((theory & ~scope).sum()),
        "in_scope_shorter": int((scope & ~full).sum()),
        "lam_sweep_runs": len(sweep_rows),
    }
    if not sweep_rows.empty:
        claim.values["lam_sweeps"] = {
            str(exp): {
                f"{lam:g}": {"median": float(v.median()), "n_runs": len(v)}
                for lam, v in _gap_ratio(sel).groupby(sel["lam"])
            }
            for exp, sel in sweep_rows.groupby("experiment")
        }
    skipped = (
        f"{claim.values['outside_scope']} runs outside the scope, "
        f"{claim.values['in_scope_shorter']} shorter, {claim.values['collapsed']} collapsed, "
        f"{claim.values['lam_sweep_runs']} in a λ sweep, not counted"
        + "".join(
            f"; {exp} per λ (reported, not judged): "
            + ", ".join(f"λ={lam} {v['median']:.3g} (n={v['n_runs']})" for lam, v in by.items())
            for exp, by in claim.values.get("lam_sweeps", {}).items()
        )
    )
    if rows.empty:
        if (scope & ~in_sweep).any():
            steps = sorted(int(v) for v in frame.loc[scope & ~in_sweep, "steps"].unique())
            claim.premise_unmet(
                f"no run of the full schedule (steps {steps}, needed ≥ {FULL_STEPS})"
            )
        else:
            claim.summary = "no lejepa or whiten runs in the theory's scope at one λ; " + skipped
        return claim
    rel = _gap_ratio(rows)
    per = {
        str(exp): {"median": float(v.median()), "max": float(v.max()), "n_runs": len(v)}
        for exp, v in rel.groupby(rows["experiment"])
    }
    median = float(rel.median())
    claim.values |= {
        "median": median,
        "max": float(rel.max()),
        "n_runs": len(rows),
        "per_experiment": per,
    }
    claim.summary = (
        f"median {median:.3g} over {len(rows)} runs in scope (max {float(rel.max()):.3g}); "
        "per experiment: "
        + ", ".join(f"{k} {v['median']:.3g} (n={v['n_runs']})" for k, v in per.items())
        + "; "
        + skipped
    )
    worst = max(v["median"] for v in per.values())
    claim.verdict = "pass" if worst <= GAP_TOLERANCE else "fail"
    return claim


def _peak_series(sel: pd.DataFrame, metric: str) -> dict:
    """argmax of the mean over seeds, and the one-sided Welch test of the peak."""
    rows = sel[np.isfinite(sel[metric].astype(float))]
    means = rows.groupby("alpha")[metric].mean()
    best = float(means.idxmax())
    out = {
        "argmax_alpha": best,
        "mean_by_alpha": {f"{a:g}": float(v) for a, v in means.items()},
        "seeds_by_alpha": {f"{a:g}": int(n) for a, n in rows.groupby("alpha").size().items()},
        "own_set_argmax_alpha": float(sel.groupby("alpha")["r2_hz"].mean().idxmax()),
    }
    if 2.0 not in means.index or len(means) < 2:
        return out | {"shown": "not measured"}
    # At alpha = 2: is it above the runner-up? Elsewhere: is the peak above alpha = 2?
    rival = float(means.drop(2.0).idxmax()) if best == 2.0 else best
    top, other = (2.0, rival) if best == 2.0 else (best, 2.0)
    test = welch(rows.loc[rows["alpha"] == top, metric], rows.loc[rows["alpha"] == other, metric])
    out |= {"compared_with_alpha": other if best == 2.0 else 2.0, "p_one_sided": test.p_greater}
    significant = math.isfinite(test.p_greater) and test.p_greater < PEAK_LEVEL
    if not significant:
        return out | {"shown": "not shown"}
    return out | {"shown": "peak at 2" if best == 2.0 else "peak elsewhere"}


def claim_gaussian_peak(frame: pd.DataFrame) -> Claim:
    metric = "grid_r2_hz"
    claim = Claim(
        id="gaussian_peak",
        text="R²(h → z) peaks at the Gaussian, α = 2 (SIGReg, per mixing)",
        metric=f"{metric}: R²(h → z) on the fixed 100 × 100 grid over [−3, 3]² "
        "(law-independent; own-set r2_hz is reported, not judged)",
        filter="finished runs, law gennorm, objective lejepa, experiments sweeping α; "
        "one series per experiment and mixing",
        statistic="argmax over α of the mean over seeds; one-sided Welch t-test of the peak "
        "against the runner-up (or of the peak against α = 2)",
        rule=f"pass: every series peaks at α = 2, above the runner-up at p < {PEAK_LEVEL}; "
        f"fail: some series peaks elsewhere, above α = 2 at p < {PEAK_LEVEL}; "
        "not shown: otherwise (too few seeds or differences within noise)",
        values={},
        verdict="not measured",
    )
    claim.declare(
        Premise("scope", "law gennorm, objective lejepa, a sweep over α that includes α = 2")
    )
    series = {}
    for experiment, rows in gennorm_runs(frame).items():
        rows = rows[rows["mode"] == "lejepa"]
        for label, sel in rows.groupby("label"):
            if np.isfinite(sel[metric].astype(float)).any():
                series[f"{experiment}/{label}"] = _peak_series(sel, metric)
    claim.values = {"series": series}
    shown = [s["shown"] for s in series.values()]
    if not series or "not measured" in shown:
        claim.summary = "no gennorm sweep over α including α = 2 with lejepa grid metrics"
        return claim
    claim.summary = "; ".join(
        f"{k}: peak α={v['argmax_alpha']:g} (p={v['p_one_sided']:.2g}; own-set peak "
        f"α={v['own_set_argmax_alpha']:g})"
        for k, v in series.items()
    )
    if "peak elsewhere" in shown:
        claim.verdict = "fail"
    else:
        claim.verdict = "pass" if set(shown) == {"peak at 2"} else "not shown"
    return claim


UNCENTERED = "procrustes_mse"  # the published code's error: h and z not centered
BOUND_SCOPE = Premise("scope", THEOREM_FILTER)


def claim_bound(frame: pd.DataFrame) -> Claim:
    claim = Claim(
        id="theorem3_bound",
        text="Centered Procrustes error ≤ Theorem-3 bound on every run the theorem covers",
        metric=f"{ERROR} against approx_bound = D + (ε + D)²; the published code's uncentered "
        f"{UNCENTERED} reported beside",
        filter=THEOREM_FILTER,
        statistic=f"count of runs with error ≤ bound × (1 + {BOUND_SLACK:g}); vacuous bounds "
        "(bound ≥ n, no better than an error of n) counted apart",
        rule="pass: every counted run with a non-vacuous bound below; fail: any counted run "
        "above; runs outside the filter are listed, never counted",
        values={},
        verdict="not measured",
    )
    claim.declare(BOUND_SCOPE)
    if frame.empty:
        claim.summary = "no finished runs"
        return claim
    inside, outside = split_scope(frame)

    def below(rows: pd.DataFrame, error: str = ERROR) -> pd.Series:
        return rows[error] <= rows["approx_bound"] * (1 + BOUND_SLACK) + 1e-12

    ok = below(inside)
    ratio = inside[ERROR] / inside["approx_bound"].clip(lower=1e-300)
    vacuous = inside["approx_bound"] >= inside["dim"]
    informative = inside[~vacuous]
    uncentered = {}
    if UNCENTERED in inside.columns and len(inside):
        above = ~below(inside, UNCENTERED)
        u_ratio = inside[UNCENTERED] / inside["approx_bound"].clip(lower=1e-300)
        uncentered = {
            "n_above": int(above.sum()),
            "max_error_over_bound": float(u_ratio.max()),
            "above_by_mode": {
                str(m): int(n) for m, n in inside[above].groupby("mode").size().items()
            },
        }
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
            "n_below": int(below(outside).sum()),
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
        f"; {len(outside)} runs outside the scope, uncounted ({int(below(outside).sum())} of "
        "them below)"
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


SCALING_SCOPE = Premise(
    "scope",
    f"the claim is about N up to {SCALING_TARGET_N}: InfoNCE's degradation is judged only "
    f"when the largest N measured is ≥ {SCALING_TARGET_N} (the floor of SIGReg and VICReg "
    "is judged at every N measured, all inside the claim's range)",
    SCALING_TARGET_N,
)


PAPER_INITS, PAPER_INITS_MAX_DIM = 3, 32  # the paper: best of 3 initializations for N <= 32
SCALING_PROTOCOL = Premise(
    "protocol",
    f"every run at N ≤ {PAPER_INITS_MAX_DIM} is the best of the paper's {PAPER_INITS} "
    "initializations (one initialization can stall in a poor optimum, so a floor broken "
    "by such runs is not a counterexample)",
    PAPER_INITS,
)


def _scaling_rows(frame: pd.DataFrame) -> pd.DataFrame:
    rows = paper_worlds(frame)
    return rows[rows["experiment"].isin(sweeping(rows, "dim"))] if not rows.empty else rows


def claim_scaling(frame: pd.DataFrame) -> Claim:
    claim = Claim(
        id="scaling",
        text=f"SIGReg and VICReg stay > {SCALING_FLOOR} up to N = {SCALING_TARGET_N} "
        "while InfoNCE degrades",
        metric="r2_hz: R²(h → z) on the evaluation set",
        filter="finished runs of experiments sweeping N (dim)",
        statistic="mean over seeds per objective and N; min over N; InfoNCE at the largest N",
        rule=f"fail: SIGReg or VICReg min ≤ {SCALING_FLOOR} at some N measured (with the "
        f"paper's best of {PAPER_INITS} at N ≤ {PAPER_INITS_MAX_DIM}), or (largest N ≥ "
        f"{SCALING_TARGET_N}) InfoNCE not at least {DEGRADE_MARGIN} below them there; "
        f"pass: neither, with largest N ≥ {SCALING_TARGET_N}; not shown (premise): the "
        "floor holds but the largest N is below the claim's, or the floor is broken by "
        "runs with fewer initializations than the paper's",
        values={},
        verdict="not measured",
    )
    claim.declare(SCALING_SCOPE, SCALING_PROTOCOL)
    rows = _scaling_rows(frame)
    if rows.empty or not {"lejepa", "whiten", "infonce"} <= set(rows["mode"]):
        claim.summary = "no sweep over N with all three objectives"
        return claim
    means = rows.groupby(["mode", "dim"])["r2_hz"].mean()
    top = int(rows["dim"].max())
    reached = top >= SCALING_TARGET_N
    v: dict[str, Any] = {
        "min_sigreg": float(means["lejepa"].min()),
        "min_vicreg": float(means["whiten"].min()),
        "largest_n": top,
        "infonce_at_largest_n": float(means["infonce"].get(top, np.nan)),
        "regularized_at_largest_n": min(
            float(means["lejepa"].get(top, np.nan)), float(means["whiten"].get(top, np.nan))
        ),
    }
    small = rows[rows["dim"] <= PAPER_INITS_MAX_DIM]
    # A table without the column (fabricated rows) is taken as the paper's protocol.
    fewest = int(small["inits"].min()) if "inits" in small and not small.empty else PAPER_INITS
    protocol = fewest >= PAPER_INITS
    v["premises"] = {
        "scope": check(SCALING_SCOPE, top, reached),
        "protocol": check(SCALING_PROTOCOL, fewest, protocol),
    }
    claim.values = v
    claim.summary = (
        f"min over N of mean R²: SIGReg {v['min_sigreg']:.6f}, VICReg {v['min_vicreg']:.6f}; "
        f"at N = {top}: InfoNCE {v['infonce_at_largest_n']:.6f} vs regularized "
        f"{v['regularized_at_largest_n']:.6f}"
    )
    floor = v["min_sigreg"] > SCALING_FLOOR and v["min_vicreg"] > SCALING_FLOOR
    degrades = v["infonce_at_largest_n"] < v["regularized_at_largest_n"] - DEGRADE_MARGIN
    if not floor and not protocol:
        claim.premise_unmet(
            f"the floor is broken by runs of {fewest} initialization(s) at N ≤ "
            f"{PAPER_INITS_MAX_DIM}; the paper takes the best of {PAPER_INITS}"
        )
    elif not floor:
        claim.verdict = "fail"
    elif not reached:
        claim.premise_unmet(f"largest N is {top}, the claim is about N = {SCALING_TARGET_N}")
    else:
        claim.verdict = "pass" if degrades else "fail"
    return claim


PAPER_SEEDS = 5  # the paper's table: mean and std over 5 seeds
REPRODUCE_MARGIN = 0.01  # |R^2 here - paper| per N and objective: the scaling claim's resolution
SCALING_MODES = {"lejepa": "sigreg", "whiten": "vicreg", "infonce": "infonce"}


def claim_scaling_table(frame: pd.DataFrame) -> Claim:
    """The run reproduces the paper's table at every N it measured (equivalence, not
    non-rejection)."""
    from lejepa_id.analysis.scaling import paper_table
    from lejepa_id.analysis.stats import tost_summary

    claim = Claim(
        id="scaling_reproduces_table",
        text="At every N measured, each objective's mean R²(h → z) equals the paper's table "
        f"within ±{REPRODUCE_MARGIN}",
        metric="r2_hz: R²(h → z) on the evaluation set",
        filter="finished runs of experiments sweeping N (dim), N in the paper's table",
        statistic=f"per objective and N, Welch TOST of the mean here (its seeds) against the "
        f"paper's mean ± std ({PAPER_SEEDS} seeds), margin ±{REPRODUCE_MARGIN}: the 90% "
        "interval of the difference",
        rule=f"pass: every cell's 90% interval inside ±{REPRODUCE_MARGIN} (equivalent); fail: "
        f"some cell's interval wholly beyond ±{REPRODUCE_MARGIN}; not shown: otherwise "
        "(undetermined cells, e.g. one seed or a spread too wide for the margin)",
        values={},
        verdict="not measured",
    )
    rows = _scaling_rows(frame)
    paper = paper_table().set_index("N")
    rows = rows[rows["dim"].isin(paper.index)] if not rows.empty else rows
    if rows.empty:
        claim.summary = "no sweep over N at the paper's N"
        return claim
    cells = {}
    for (mode, dim), sel in rows[rows["mode"].isin(SCALING_MODES)].groupby(["mode", "dim"]):
        col = SCALING_MODES[mode]
        x = sel["r2_hz"].astype(float)
        ref_mean = float(paper.loc[dim, f"{col}_r2_hz_mean"])
        ref_sd = float(paper.loc[dim, f"{col}_r2_hz_std"])
        test = tost_summary(
            float(x.mean()), float(x.std()), len(x), ref_mean, ref_sd, PAPER_SEEDS,
            REPRODUCE_MARGIN,
        )  # fmt: skip
        cells[f"{mode}/N={int(dim)}"] = {
            "here": float(x.mean()),
            "seeds": len(x),
            "paper": ref_mean,
            **test,
        }
    results = [c["result"] for c in cells.values()]
    claim.values = {"margin": REPRODUCE_MARGIN, "cells": cells}
    claim.summary = (
        f"{results.count('equivalent')} of {len(cells)} cells equivalent within "
        f"±{REPRODUCE_MARGIN}, {results.count('outside')} outside, "
        f"{results.count('undetermined')} undetermined"
        + (
            " (" + ", ".join(k for k, c in cells.items() if c["result"] != "equivalent") + ")"
            if set(results) != {"equivalent"}
            else ""
        )
    )
    if "outside" in results:
        claim.verdict = "fail"
    else:
        claim.verdict = "pass" if set(results) == {"equivalent"} else "not shown"
    return claim


def claim_published_2d(frame: pd.DataFrame) -> Claim:
    claim = Claim(
        id="published_2d",
        text="The 2d runs reproduce the published code's R²(h → z) (seed 1337)",
        metric="r2_hz: R²(h → z) on the evaluation set",
        filter="finished runs with N = 2, Gaussian latents, ρ = 0.95, 20,000 steps, seed "
        "1337, λ = 1e-3 (lejepa) or 0.5 (whiten), for which a published value exists",
        statistic="max over matched runs of |R² here − R² published| (one seed on each side: "
        "a direct comparison, no test)",
        rule=f"pass: max ≤ {AGREE_MARGIN}; fail: some run differs by more than "
        f"{DISAGREE_MARGIN}; not shown: in between. The sign of every difference, in seed "
        "standard deviations of its setting, is reported beside (a systematic offset)",
        values={},
        verdict="not measured",
    )
    claim.declare(Premise("scope", "the published setting: seed 1337, 20,000 steps, N = 2"))
    rows = frame if frame.empty else with_labels(frame)
    matched: dict[str, dict[str, Any]] = {}
    for (label, mode), published in PUBLISHED_2D.items():
        if rows.empty:
            break
        sel = rows[
            (rows["label"] == label) & (rows["mode"] == mode) & (rows["dim"] == 2)
            & (rows["law"] == "gaussian") & (rows["rho"] == 0.95) & (rows["steps"] == 20000)
            & (rows["seed"] == 1337) & np.isclose(rows["lam"], PUBLISHED_LAM[mode])
        ]  # fmt: skip
        for run in sel.itertuples():
            matched[f"{run.experiment}/{label}_{mode}"] = {
                "here": float(run.r2_hz),
                "published": published,
                "difference": float(run.r2_hz) - published,
            }
    claim.values = {"runs": matched, "margin": AGREE_MARGIN}
    if not matched:
        claim.summary = "no full-length 2d run at seed 1337"
        return claim
    for key, v in matched.items():
        v["seed_sd"] = _seed_sd(rows, key)
        sd = v["seed_sd"]
        v["difference_in_seed_sd"] = v["difference"] / sd if sd and sd > 0 else None
    worst = max(abs(v["difference"]) for v in matched.values())
    claim.values["max_abs_difference"] = worst
    signs = [np.sign(v["difference"]) for v in matched.values()]
    negative = int(sum(sg < 0 for sg in signs))
    claim.values["n_negative"] = negative
    # Beyond OFFSET_SD seed standard deviations a difference is not seed noise; several
    # such, all of one sign, are an offset of the runs here, whatever the verdict.
    beyond = [
        np.sign(v["difference"])
        for v in matched.values()
        if v["difference_in_seed_sd"] is not None and abs(v["difference_in_seed_sd"]) >= OFFSET_SD
    ]
    claim.values["n_beyond_seed_noise"] = len(beyond)
    claim.values["systematic_offset"] = len(beyond) >= 3 and len(set(beyond)) == 1
    claim.summary = "; ".join(
        f"{k}: {v['here']:.5f} vs {v['published']:.5f}"
        + (
            f" ({v['difference_in_seed_sd']:+.1f} seed sd)"
            if v["difference_in_seed_sd"] is not None
            else ""
        )
        for k, v in matched.items()
    )
    claim.summary += f"; {negative} of {len(signs)} differences negative"
    if claim.values["systematic_offset"]:
        side = "below" if beyond[0] < 0 else "above"
        claim.summary += (
            f"; systematic offset: {len(beyond)} differences beyond {OFFSET_SD:g} seed sd, "
            f"all {side} the published values"
        )
        claim.notes.append(
            f"systematic offset: the runs here are {side} the published code's values in "
            f"{len(beyond)} settings by more than {OFFSET_SD:g} seed standard deviations, "
            "even where each is within the margin"
        )
    if worst <= AGREE_MARGIN:
        claim.verdict = "pass"
    else:
        claim.verdict = "fail" if worst > DISAGREE_MARGIN else "not shown"
    return claim


def _seed_sd(rows: pd.DataFrame, key: str) -> float | None:
    """The standard deviation over seeds of the matched run's setting (any seed)."""
    experiment, rest = key.split("/", 1)
    label, mode = rest.rsplit("_", 1)
    sel = rows[
        (rows["experiment"] == experiment) & (rows["label"] == label) & (rows["mode"] == mode)
        & (rows["dim"] == 2) & (rows["law"] == "gaussian") & (rows["rho"] == 0.95)
        & (rows["steps"] == 20000) & np.isclose(rows["lam"], PUBLISHED_LAM[mode])
    ]  # fmt: skip
    return float(sel["r2_hz"].std()) if sel["seed"].nunique() > 1 else None


PROVIDERS: list[ClaimProvider] = [
    claim_gap,
    claim_gaussian_peak,
    claim_bound,
    claim_scaling,
    claim_scaling_table,
    claim_published_2d,
    claim_anisotropic_boundary,
    claim_anisotropic,
    claim_codedim,
    claim_whitened_optimum,
    claim_action,
]
