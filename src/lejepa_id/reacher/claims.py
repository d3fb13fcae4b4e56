"""The Reacher claims, judged from plan.json: printed lines, claims.json and tab_reacher.tex.

claims.json follows the report's schema (docs/sweeps.md, "claims.json"):
``{"schema": 1, "claims": [...]}``, each claim with id, text, metric, filter, statistic,
rule, values, verdict and summary. Verdicts: pass (the rule is met), fail (the data
contradict the claim), not shown (too weak either way: failing to reject is never
agreement), not measured (no runs of a kind the claim needs).
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from lejepa_id.analysis.latex import float_lines, tabular
from lejepa_id.analysis.stats import fmt_interval, fmt_mean_std, fmt_p, fmt_sig
from lejepa_id.reacher import statistics as st
from lejepa_id.records.io import atomic_write_bytes

NAMES = {
    "ou": "OU pairs",
    "traj": "trajectory pairs",
    "trajmatch": "coverage-matched trajectory pairs",
}


def _fmt(x, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "n/a"
    return f"{x:.{digits}g}"


def _ci(ci) -> str:
    return "n/a" if ci is None else f"[{ci[0]:.3g}, {ci[1]:.3g}]"


def _against_line(name: str, a: dict) -> str:
    t, test = a["tost"], a["t_test"]
    ci = _ci(st.t_interval(a["run_means"]))
    return (
        f"  {name}: mean log ratio {_fmt(a['mean'])} t 95% CI {ci}; "
        f"TOST p={_fmt(t['p_tost'])} (margin +-{_fmt(t['margin'])}); t-test p={_fmt(test['p'])} "
        f"({test['direction']}) -> {a['verdict']}"
    )


def plan_lines(plan: dict) -> list[str]:
    """Human-readable summary of plan.json: every test with its direction."""
    lines = []
    for r in plan["runs"]:
        vo, vr = r["vs_oracle"], r["vs_reference"]
        lines.append(
            f"{r['label']} lam={r['lam']:g} seed={r['seed']}: median J/J_oracle "
            f"{r['ratio_median']:.3f}, median regret {r['regret_median']:.3f}; Wilcoxon vs "
            f"oracle p={_fmt(vo['p'])} ({vo['direction']}), vs reference p={_fmt(vr['p'])} "
            f"({vr['direction']})"
        )
    for kind, g in plan["kinds"].items():
        lines.append(
            f"{kind}: runs={g['runs']} J/J_oracle geomean={g['ratio_geomean']:.3f} "
            f"median={g['ratio_median_of_runs']:.3f} regret vs J-optimal "
            f"median={g['regret_median_of_runs']:.3f} early arrivals (J < J_oracle) "
            f"{g['early_fraction_mean']:.0%} LQR median rel err="
            f"{_fmt(g['lqr_rel_err_median_of_runs'])}"
        )
        lines.append(_against_line("vs oracle", g["vs_oracle"]))
        lines.append(_against_line("vs reference", g["vs_reference"]))
    for name, c in plan["comparisons"].items():
        if "ci95_welch" not in c and "runs" in plan:  # a plan.json from before run-level CIs
            a, b = name.split("_vs_")
            c = c | {"ci95_welch": st.welch_interval(*_log_means(plan, a, b))}
        lines.append(
            f"{name} ({c['metric']}): difference {_fmt(c.get('difference'))} 95% CI "
            f"(Welch) {_ci(c.get('ci95_welch'))}; Welch p={_fmt(c['p_welch'])}, Mann-Whitney "
            f"p={_fmt(c['p_mannwhitney'])}, TOST p={_fmt(c['p_tost'])}; "
            f"{c.get('direction', 'n/a')} -> {c['verdict']}"
        )
    return lines


SCHEMA_VERSION = 1


def _log_means(plan: dict, a: str, b: str) -> tuple[list[float], list[float]]:
    """Each run's mean log(J / J_oracle), for kinds a and b."""
    runs = plan["runs"]
    return (
        [r["log_ratio_mean"] for r in runs if r["kind"] == a],
        [r["log_ratio_mean"] for r in runs if r["kind"] == b],
    )


def _claim(cid, text, metric, filt, stat, rule, values, verdict, summary) -> dict:
    return {
        "id": cid,
        "text": text,
        "metric": metric,
        "filter": filt,
        "statistic": stat,
        "rule": rule,
        "values": values,
        "verdict": verdict,
        "summary": summary,
        "source": "reacher",
        "notes": [],
        # Declared premises (analysis.claims.Premise schema); only the Theorem-4 claims
        # have one, and they list per run whether it held in values["premises"].
        "premises": [IDENTIFIED] if "premises" in values else [],
        "reason": "",
    }


def _missing(cid: str, text: str, metric: str, filt: str, stat: str, rule: str, kinds) -> dict:
    why = f"no runs of kind {', '.join(kinds)}"
    return _claim(cid, text, metric, filt, stat, rule, {}, "not measured", why)


# Theorem 4's premise, checked per run before planning is judged (same thresholds as the
# synthetic action worlds, lejepa_id.analysis.beyond.IDENTIFIED).
IDENT_R2 = 0.95
IDENT_ORTH = 0.2
IDENTIFIED = {
    "name": "identified",
    "statement": f"Theorem 4 assumes a code that is a rotation of the true state: per run "
    f"R²(h → z) ≥ {IDENT_R2:g} and orthogonality error of the whitened fit ≤ {IDENT_ORTH:g}",
    "threshold": None,
}
RUN_LEVEL = (
    "run level (one value per run): t interval; exact permutation interval (unbounded when "
    "no split of that many runs can reach p < 0.05); the two-level bootstrap only with ≥ "
    f"{st.BOOTSTRAP_MIN_RUNS} runs a group"
)


def _identified(run: dict) -> dict:
    r2, orth = run.get("r2_hz"), run.get("orth_err_whitened")
    ok = (
        r2 is not None and orth is not None and math.isfinite(r2) and math.isfinite(orth)
        and r2 >= IDENT_R2 and orth <= IDENT_ORTH
    )  # fmt: skip
    return {"run": run["run"], "seed": run["seed"], "r2_hz": r2, "orth_err_whitened": orth,
            "held": bool(ok)}  # fmt: skip


def _premise_text(checks: list[dict]) -> str:
    return "identified in 0 of {} runs ({})".format(
        len(checks),
        ", ".join(
            f"seed {c['seed']}: R² {_fmt(c['r2_hz'])}, orth {_fmt(c['orth_err_whitened'])}"
            for c in checks
        ),
    )


def _interval(d: dict) -> dict:
    """JSON form of a permutation interval: null bounds when unbounded."""
    iv = d.get("interval")
    unbounded = iv is not None and not all(math.isfinite(v) for v in iv)
    return {"interval": None if unbounded else iv, "unbounded": unbounded, "min_p": d["min_p"]}


def _run_level_one(values) -> dict:
    return {
        "n": len(values),
        "t_ci95": st.t_interval(values),
        "permutation_ci95": _interval(st.sign_flip_interval(values)),
    }


def _run_level_two(a, b, margin: float) -> dict:
    import numpy as np

    sd = (
        float(np.sqrt((np.var(a, ddof=1) + np.var(b, ddof=1)) / 2))
        if min(len(a), len(b)) > 1
        else None
    )
    diff = float(np.mean(a) - np.mean(b))
    out = {
        "n": [len(a), len(b)],
        "welch_ci95": st.welch_interval(a, b),
        "permutation_ci95": _interval(st.permutation_interval_two(a, b)),
        "pooled_run_sd": sd,
    }
    if sd:
        out["power"] = {
            "at_margin": {
                "effect": margin,
                "power_now": st.welch_power(len(a), len(b), sd, margin),
                "runs_per_group_for_80pct": st.runs_for_power(sd, margin),
            },
            "at_observed_difference": {
                "effect": abs(diff),
                "power_now": st.welch_power(len(a), len(b), sd, abs(diff)),
                "runs_per_group_for_80pct": st.runs_for_power(sd, abs(diff)),
            },
        }
    return out


def _power_line(r: dict) -> str:
    p = r.get("power")
    if not p:
        return "no power statement (fewer than 2 runs a side)"
    m, o = p["at_margin"], p["at_observed_difference"]
    return (
        f"power with {r['n'][0]} + {r['n'][1]} runs: {m['power_now']:.2f} to detect the margin "
        f"{m['effect']:.3g} ({m['runs_per_group_for_80pct'] or '>10000'} runs a side for 80%), "
        f"{o['power_now']:.2f} for the observed difference {o['effect']:.3g} "
        f"({o['runs_per_group_for_80pct'] or '>10000'} a side)"
    )


def _perm_text(d: dict) -> str:
    if d["unbounded"]:
        return f"unbounded (smallest attainable p {d['min_p']:.2g})"
    return _ci(d["interval"])


def _equivalence_claim(plan: dict) -> dict:
    cid = "reacher_ou_plans_like_oracle"
    text = (
        "Straight-line planning in the OU encoder's code is as good as in the true angles "
        "(Theorem 4)"
    )
    metric = (
        "per-run mean over the K pairs of log(J/J_oracle) - log(J_ref/J_oracle), "
        "J_ref the k-NN read-out of the true angles"
    )
    filt = "kind = ou; all lambdas and seeds; one value per run; runs whose code is identified"
    m = math.exp(plan["margin_log"]) - 1
    stat = (
        f"TOST across runs with margin +-log(1 + {m:g}) = +-{plan['margin_log']:.4f}; "
        f"two-sided one-sample t-test; {RUN_LEVEL}"
    )
    rule = (
        "runs whose code is not identified are not shown, never counted; pass: TOST p < 0.05 "
        "on the identified runs (equivalent within the margin); fail: t-test p < 0.05 "
        "(different); otherwise not shown"
    )
    g = plan["kinds"].get("ou")
    if g is None:
        return _missing(cid, text, metric, filt, stat, rule, ["ou"])
    ou_runs = [r for r in plan["runs"] if r["kind"] == "ou"]
    checks = [_identified(r) for r in ou_runs]
    a = g["vs_reference"]
    values = {
        "premises": {"identified": checks},
        "run_means": a["run_means"],
        "mean": a["mean"],
        "run_level": _run_level_one(a["run_means"]),
        "p_tost_all_runs": a["tost"]["p_tost"],
        "p_t_all_runs": a["t_test"]["p"],
        "direction": a["t_test"]["direction"],
        "regret_median_of_runs": g["regret_median_of_runs"],
    }
    good = [r["log_ratio_vs_reference_mean"] for r, c in zip(ou_runs, checks) if c["held"]]
    rl = values["run_level"]
    summary = (
        f"{g['runs']} OU runs: mean {_fmt(a['mean'])}, t 95% CI {_ci(rl['t_ci95'])}, "
        f"permutation {_perm_text(rl['permutation_ci95'])}; TOST p={_fmt(a['tost']['p_tost'])}, "
        f"t-test p={_fmt(a['t_test']['p'])} ({a['t_test']['direction']})"
    )
    if not good:
        c = _claim(cid, text, metric, filt, stat, rule, values, "not shown", summary)
        return _premise_unmet(c, _premise_text(checks))
    tost = st.tost_one_sample(good, plan["margin_log"])
    test = st.t_test_zero(good, "costs more than the reference", "costs less than the reference")
    values |= {"identified_runs": len(good), "p_tost": tost["p_tost"], "p_t": test["p"]}
    verdict = {"equivalent": "pass", "different": "fail"}.get(
        st.verdict(tost["p_tost"], test["p"]), "not shown"
    )
    return _claim(cid, text, metric, filt, stat, rule, values, verdict, summary)


def _premise_unmet(claim: dict, reason: str) -> dict:
    claim["verdict"] = "not shown"
    claim["reason"] = f"premise: {reason}"
    claim["summary"] = f"not shown (premise: {reason}); {claim['summary']}"
    return claim


def _worse_claim(plan: dict, cid: str, text: str, worse: str, differences: str) -> dict:
    metric = "per-run mean over the K pairs of log(J/J_oracle)"
    filt = f"kinds ou and {worse}; all lambdas and seeds; one value per run"
    stat = (
        "Welch t-test (two-sided) and exact Mann-Whitney across runs, with direction; "
        f"two-sample TOST with the plan's margin; {RUN_LEVEL}; power of the Welch test"
    )
    rule = (
        f"pass: Welch p < 0.05 with ou costing less than {worse}; fail: TOST p < 0.05 "
        "(equivalent) or Welch p < 0.05 the other way; otherwise not shown (non-rejection "
        "is never agreement)"
    )
    c = plan["comparisons"].get(f"ou_vs_{worse}")
    if c is None:
        return _missing(cid, text, metric, filt, stat, rule, ["ou", worse])
    expected = f"ou costs less than {worse}"
    if c["p_tost"] is not None and c["p_tost"] < 0.05:
        verdict = "fail"
    elif c["p_welch"] is not None and c["p_welch"] < 0.05:
        verdict = "pass" if c["direction"] == expected else "fail"
    else:
        verdict = "not shown"
    keys = ("n", "difference", "p_welch", "p_mannwhitney", "p_tost", "direction")
    values = {k: c.get(k) for k in keys}
    a, b = _log_means(plan, "ou", worse)
    rl = _run_level_two(a, b, plan["margin_log"])
    enough = min(len(a), len(b)) >= st.BOOTSTRAP_MIN_RUNS
    values |= {
        "run_level": rl,
        "bootstrap_ci95": c.get("ci95") if enough else None,
        "bootstrap_note": ""
        if enough
        else f"not computed: fewer than {st.BOOTSTRAP_MIN_RUNS} runs a group",
        "dataset_differences": differences,
    }
    summary = (
        f"runs {c['n'][0]} vs {c['n'][1]}: difference {_fmt(c.get('difference'))}, Welch 95% "
        f"CI {_ci(rl['welch_ci95'])}, permutation {_perm_text(rl['permutation_ci95'])}; Welch "
        f"p={_fmt(c['p_welch'])}, Mann-Whitney p={_fmt(c['p_mannwhitney'])} "
        f"({c.get('direction', 'n/a')}); {_power_line(rl)}"
    )
    if differences:
        summary += f". {differences}"
    return _claim(cid, text, metric, filt, stat, rule, values, verdict, summary)


def _lqr_claim(plan: dict, margin: float) -> dict:
    cid = "reacher_ou_lqr_values_match"
    text = "The optimal LQR value in the OU code equals the true value pointwise (Theorem 4)"
    metric = "per-run median over the eval set of |V_code - V_true| / V_true"
    filt = (
        "kind = ou; all lambdas and seeds; runs whose code is identified; a run without a "
        "stable Riccati solution counts as inf"
    )
    stat = "the largest and the smallest of the identified runs' medians"
    rule = (
        "runs whose code is not identified are not shown, never counted (an unmet premise is "
        f"not a counterexample); pass: every identified run's median < {margin:g}; fail: every "
        f"identified run's > {margin:g}; else not shown"
    )
    g = plan["kinds"].get("ou")
    if g is None:
        return _missing(cid, text, metric, filt, stat, rule, ["ou"])
    ou_runs = [r for r in plan["runs"] if r["kind"] == "ou"]
    checks = [_identified(r) for r in ou_runs]
    meds = [m if m is not None else math.inf for m in g["lqr_rel_err_run_medians"]]
    values = {
        "premises": {"identified": checks},
        "run_medians": g["lqr_rel_err_run_medians"],
        "margin": margin,
    }
    summary = f"{len(meds)} OU runs: median relative error {_fmt(min(meds))} to {_fmt(max(meds))}"
    good = [m for m, c in zip(meds, checks) if c["held"]]
    if not good:
        claim = _claim(cid, text, metric, filt, stat, rule, values, "not shown", summary)
        return _premise_unmet(claim, _premise_text(checks))
    verdict = "pass" if max(good) < margin else "fail" if min(good) > margin else "not shown"
    return _claim(cid, text, metric, filt, stat, rule, values, verdict, summary)


# What differs between two pair datasets, from their render metadata (datasets/<kind>.json):
# the conclusion of a comparison names every one, never only the one it was built to vary.
JOINTS = ("shoulder", "wrist")


def dataset_differences(a: dict, b: dict, names: tuple[str, str]) -> str:
    """One sentence naming every difference between two datasets: range, wrap, marginal
    shape, lag correlation (per joint, a's value then b's)."""
    cov_a, cov_b = a.get("coverage", []), b.get("coverage", [])
    diag_a = a.get("diagnostics", {}).get("per_joint", [])
    diag_b = b.get("diagnostics", {}).get("per_joint", [])
    parts = []
    for i, joint in enumerate(JOINTS):
        if i >= min(len(cov_a), len(cov_b)):
            break
        ca, cb = cov_a[i], cov_b[i]
        items = [
            f"range (circle fraction {ca['circle_fraction']:.2f} vs {cb['circle_fraction']:.2f})",
            f"wrap ({ca['wrap_fraction']:.3f} vs {cb['wrap_fraction']:.3f})",
        ]
        if i < min(len(diag_a), len(diag_b)):
            da, db = diag_a[i], diag_b[i]
            items += [
                f"marginal shape (excess kurtosis {da['excess_kurtosis']:.2f} vs "
                f"{db['excess_kurtosis']:.2f})",
                f"lag correlation ({da['lag_corr']:.2f} vs {db['lag_corr']:.2f})",
            ]
        parts.append(f"{joint}: " + ", ".join(items))
    if not parts:
        return ""
    return (
        f"{names[0]} and {names[1]} data differ in {'; '.join(parts)}; a planning difference "
        "between them cannot be attributed to any one of these"
    )


def reacher_claims(plan: dict, datasets: dict[str, dict] | None = None) -> list[dict]:
    """The Reacher claims of plan.json, in the report's claims schema; ``datasets`` maps
    kinds to their render metadata (datasets/<kind>.json) for the conclusions."""
    margin = plan["config"].get("equiv_margin", 0.05)
    datasets = datasets or {}

    def diff(worse: str) -> str:
        if "ou" not in datasets or worse not in datasets:
            return ""
        return dataset_differences(datasets["ou"], datasets[worse], ("ou", worse))

    return [
        _equivalence_claim(plan),
        _worse_claim(
            plan,
            "reacher_traj_plans_worse",
            "The trajectory encoder plans clearly worse than the OU encoder",
            "traj",
            diff("traj"),
        ),
        _worse_claim(
            plan,
            "reacher_gap_not_coverage",
            "Coverage-matched trajectory encoders (the OU data's angle range, no wrap-around, "
            "and with it marginals nearer Gaussian and a higher lag correlation than the "
            "trajectory pairs) still plan worse than OU encoders",
            "trajmatch",
            diff("trajmatch"),
        ),
        _lqr_claim(plan, margin),
    ]


def read_datasets(directory: Path | None) -> dict[str, dict]:
    """kind -> render metadata of the datasets/<kind>.json files in ``directory``."""
    import json

    if directory is None or not directory.is_dir():
        return {}
    out = {}
    for path in sorted(directory.glob("*.json")):
        try:
            meta = json.loads(path.read_text())
            out[meta["identity"]["kind"]] = meta
        except (OSError, ValueError, KeyError, TypeError):
            continue  # not a dataset's metadata: the conclusion names what it can
    return out


def write_claims(plan: dict, path: Path, datasets: dict[str, dict] | None = None) -> None:
    """claims.json in the report's schema (the report reads DIR/reacher/claims.json)."""
    from lejepa_id.records.io import atomic_write_json

    claims = reacher_claims(plan, datasets)
    atomic_write_json(path, {"schema": SCHEMA_VERSION, "claims": claims})


def main(argv: list[str] | None = None) -> int:
    """Rewrite claims.json beside an existing plan.json, without planning again.

    python -m lejepa_id.reacher.claims PLAN.json [DATASETS_DIR]
    """
    import json
    import sys

    args = sys.argv[1:] if argv is None else argv
    if not args or len(args) > 2:
        print("usage: python -m lejepa_id.reacher.claims PLAN.json [DATASETS_DIR]", file=sys.stderr)
        return 2
    plan_path = Path(args[0])
    try:
        plan = json.loads(plan_path.read_text())
    except (OSError, ValueError) as err:
        print(f"PLAN {str(plan_path)!r}: not a readable plan.json ({err})", file=sys.stderr)
        return 2
    if len(args) == 2 and not Path(args[1]).is_dir():
        print(f"DATASETS_DIR {args[1]!r} is not a directory", file=sys.stderr)
        return 2
    datasets = read_datasets(Path(args[1])) if len(args) == 2 else {}
    write_claims(plan, plan_path.parent / "claims.json", datasets)
    for line in plan_lines(plan):
        print(line)
    print(f"wrote {plan_path.parent / 'claims.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


# The table's short names for the training data (the caption says what each is).
SHORT_NAMES = {"ou": "OU", "traj": "trajectory", "trajmatch": "matched traj."}


def tab_reacher(plan: dict) -> str:
    """A LaTeX table of the planning results per kind and lambda, in two stacked parts that
    each fit a single-column page: (top) the code and the planning costs, (bottom) the
    equivalence test against the read-out reference. Numbers are rounded by their
    uncertainty (:mod:`lejepa_id.analysis.stats`)."""
    top, bottom = [], []
    for name, g in plan["groups"].items():
        kind, lam = name.split("/lam")
        r2 = [float(v) for v in g["r2_hz"]]
        mean = sum(r2) / len(r2)
        # One run has no spread: its R^2 is shown alone, never as "± 0".
        sd = (
            math.sqrt(sum((v - mean) ** 2 for v in r2) / (len(r2) - 1)) if len(r2) > 1 else math.nan
        )
        a = g["vs_reference"]
        ci = st.t_interval(a["run_means"])
        data = SHORT_NAMES.get(kind, kind)
        top.append(
            [
                data,
                lam,
                str(g["runs"]),
                fmt_mean_std(mean, sd, 3),
                fmt_sig(g["ratio_median_of_runs"]),
                fmt_sig(g["regret_median_of_runs"]),
                fmt_sig(g["lqr_rel_err_median_of_runs"]),
            ]
        )
        delta = fmt_sig(a["mean"]) if ci is None else fmt_interval(a["mean"], ci[0], ci[1])
        p = a["tost"]["p_tost"]
        bottom.append(
            [data, lam, str(g["runs"]), delta, fmt_p(math.nan if p is None else p), a["verdict"]]
        )
    m = math.exp(plan["margin_log"]) - 1
    top_header = [
        "data",
        r"$\lambda$",
        "runs",
        r"$R^2(h\to z)$",
        r"$J/J_{\mathrm{oracle}}$",
        "regret",
        "LQR err",
    ]
    bottom_header = [
        "data",
        r"$\lambda$",
        "runs",
        r"$\Delta\log J$ [95\% CI]",
        "TOST $p$",
        "verdict",
    ]
    columns = ["data", "lam", "runs", "a", "b", "c", "d"]
    body = tabular(pd.DataFrame(top, columns=columns), top_header)
    body += [r"\par\medskip"]
    body += tabular(pd.DataFrame(bottom, columns=columns[:6]), bottom_header)
    caption = (
        "Reacher planning per training data and $\\lambda$. Data: OU, pairs of the "
        "Ornstein-Uhlenbeck process; trajectory, pairs from the reaching controller's "
        "trajectories; matched traj., coverage-matched trajectory pairs (the coverage control). "
        "Top: $R^2(h\\to z)$, mean $\\pm$ sd over seeds (sd to its first significant "
        "digit); $J/J_{\\mathrm{oracle}}$ and regret $J/J^{*}-1$ against the exact "
        "$J$-optimal path, medians of the runs' medians; LQR err, median over runs of the "
        "median relative value error. Bottom: $\\Delta\\log J$, mean over runs of the "
        "per-run mean log cost ratio minus the read-out reference, with a t interval over "
        f"runs; TOST across runs with margin $\\pm\\log(1+{m:g})$."
    )
    return float_lines(body, caption, "tab:reacher")


def write_table(plan: dict, out: Path) -> str:
    """Write tab_reacher.tex into ``out``; returns its file name."""
    atomic_write_bytes(out / "tab_reacher.tex", tab_reacher(plan).encode())
    return "tab_reacher.tex"
