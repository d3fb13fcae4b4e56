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
    return (
        f"  {name}: mean log ratio {_fmt(a['mean'])} 95% CI {_ci(a['ci95'])}; "
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
        lines.append(
            f"{name} ({c['metric']}): difference {_fmt(c.get('difference'))} 95% CI "
            f"{_ci(c['ci95'])}; Welch p={_fmt(c['p_welch'])}, Mann-Whitney "
            f"p={_fmt(c['p_mannwhitney'])}, TOST p={_fmt(c['p_tost'])}; "
            f"{c.get('direction', 'n/a')} -> {c['verdict']}"
        )
    return lines


SCHEMA_VERSION = 1


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
    }


def _missing(cid: str, text: str, metric: str, filt: str, stat: str, rule: str, kinds) -> dict:
    why = f"no runs of kind {', '.join(kinds)}"
    return _claim(cid, text, metric, filt, stat, rule, {}, "not measured", why)


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
    filt = "kind = ou; all lambdas and seeds; one value per run"
    m = math.exp(plan["margin_log"]) - 1
    stat = (
        f"TOST across runs with margin +-log(1 + {m:g}) = +-{plan['margin_log']:.4f}; "
        "two-sided one-sample t-test; two-level bootstrap 95% interval (runs and pairs)"
    )
    rule = (
        "pass: TOST p < 0.05 (equivalent within the margin); fail: t-test p < 0.05 "
        "(different); otherwise not shown (one run gives no across-seed test)"
    )
    g = plan["kinds"].get("ou")
    if g is None:
        return _missing(cid, text, metric, filt, stat, rule, ["ou"])
    a = g["vs_reference"]
    verdict = {"equivalent": "pass", "different": "fail"}.get(a["verdict"], "not shown")
    values = {
        "run_means": a["run_means"],
        "mean": a["mean"],
        "ci95": a["ci95"],
        "p_tost": a["tost"]["p_tost"],
        "p_t": a["t_test"]["p"],
        "direction": a["t_test"]["direction"],
        "vs_oracle_uncorrected": {
            "mean": g["vs_oracle"]["mean"],
            "ci95": g["vs_oracle"]["ci95"],
            "verdict": g["vs_oracle"]["verdict"],
        },
        "regret_median_of_runs": g["regret_median_of_runs"],
    }
    summary = (
        f"{g['runs']} OU runs: mean {_fmt(a['mean'])} 95% CI {_ci(a['ci95'])}, TOST "
        f"p={_fmt(a['tost']['p_tost'])}, t-test p={_fmt(a['t_test']['p'])} "
        f"({a['t_test']['direction']})"
    )
    return _claim(cid, text, metric, filt, stat, rule, values, verdict, summary)


def _worse_claim(plan: dict, cid: str, text: str, worse: str) -> dict:
    metric = "per-run mean over the K pairs of log(J/J_oracle)"
    filt = f"kinds ou and {worse}; all lambdas and seeds; one value per run"
    stat = (
        "Welch t-test (two-sided) and exact Mann-Whitney across runs, with direction; "
        "two-sample TOST with the plan's margin; two-level bootstrap 95% interval"
    )
    rule = (
        f"pass: Welch p < 0.05 with ou costing less than {worse}; fail: TOST p < 0.05 "
        "(equivalent) or Welch p < 0.05 the other way; otherwise not shown"
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
    keys = ("n", "difference", "ci95", "p_welch", "p_mannwhitney", "p_tost", "direction")
    values = {k: c.get(k) for k in keys}
    summary = (
        f"runs {c['n'][0]} vs {c['n'][1]}: difference {_fmt(c.get('difference'))} "
        f"{_ci(c['ci95'])}, Welch p={_fmt(c['p_welch'])}, Mann-Whitney "
        f"p={_fmt(c['p_mannwhitney'])} ({c.get('direction', 'n/a')})"
    )
    return _claim(cid, text, metric, filt, stat, rule, values, verdict, summary)


def _lqr_claim(plan: dict, margin: float) -> dict:
    cid = "reacher_ou_lqr_values_match"
    text = "The optimal LQR value in the OU code equals the true value pointwise (Theorem 4)"
    metric = "per-run median over the eval set of |V_code - V_true| / V_true"
    filt = "kind = ou; all lambdas and seeds; a run without a stable Riccati solution counts as inf"
    stat = "the largest and the smallest of the runs' medians"
    rule = f"pass: every run's median < {margin:g}; fail: every run's > {margin:g}; else not shown"
    g = plan["kinds"].get("ou")
    if g is None:
        return _missing(cid, text, metric, filt, stat, rule, ["ou"])
    meds = [m if m is not None else math.inf for m in g["lqr_rel_err_run_medians"]]
    verdict = "pass" if max(meds) < margin else "fail" if min(meds) > margin else "not shown"
    values = {"run_medians": g["lqr_rel_err_run_medians"], "margin": margin}
    summary = f"{len(meds)} OU runs: median relative error {_fmt(min(meds))} to {_fmt(max(meds))}"
    return _claim(cid, text, metric, filt, stat, rule, values, verdict, summary)


def reacher_claims(plan: dict) -> list[dict]:
    """The Reacher claims of plan.json, in the report's claims schema."""
    margin = plan["config"].get("equiv_margin", 0.05)
    return [
        _equivalence_claim(plan),
        _worse_claim(
            plan,
            "reacher_traj_plans_worse",
            "The trajectory encoder plans clearly worse than the OU encoder",
            "traj",
        ),
        _worse_claim(
            plan,
            "reacher_gap_not_coverage",
            "With the OU data's angle range (coverage-matched trajectories, no wrap-around) the "
            "trajectory encoder still plans worse than the OU encoder, so coverage and "
            "wrap-around alone do not explain the gap",
            "trajmatch",
        ),
        _lqr_claim(plan, margin),
    ]


def write_claims(plan: dict, path: Path) -> None:
    """claims.json in the report's schema (the report reads DIR/reacher/claims.json)."""
    from lejepa_id.records.io import atomic_write_json

    atomic_write_json(path, {"schema": SCHEMA_VERSION, "claims": reacher_claims(plan)})


def _tex(s: str) -> str:
    return s.replace("_", r"\_").replace("%", r"\%")


def tab_reacher(plan: dict) -> str:
    """A LaTeX table (tabular inside table) of the planning results per kind and lambda."""
    rows = []
    for name, g in plan["groups"].items():
        kind, lam = name.split("/lam")
        r2 = g["r2_hz"]
        mean = sum(r2) / len(r2)
        sd = math.sqrt(sum((v - mean) ** 2 for v in r2) / (len(r2) - 1)) if len(r2) > 1 else 0.0
        a = g["vs_reference"]
        rows.append(
            " & ".join(
                [
                    _tex(NAMES.get(kind, kind)),
                    lam,
                    str(g["runs"]),
                    f"{mean:.3f} $\\pm$ {sd:.3f}",
                    f"{g['ratio_median_of_runs']:.3f}",
                    f"{g['regret_median_of_runs']:.3f}",
                    f"{a['mean']:.3f} {_ci(a['ci95'])}",
                    _fmt(a["tost"]["p_tost"], 2),
                    a["verdict"],
                    _fmt(g["lqr_rel_err_median_of_runs"], 3),
                ]
            )
            + r" \\"
        )
    m = math.exp(plan["margin_log"]) - 1
    header = (
        r"data & $\lambda$ & runs & $R^2(h\to z)$ & $J/J_{\mathrm{oracle}}$ & regret & "
        r"$\Delta\log J$ [95\% CI] & TOST $p$ & verdict & LQR err \\"
    )
    caption = (
        "Reacher planning per training data and $\\lambda$ (mean $\\pm$ sd over seeds). "
        "$J/J_{\\mathrm{oracle}}$ and regret $J/J^{*}-1$ against the exact $J$-optimal path: "
        "medians of the runs' medians. $\\Delta\\log J$: mean over runs of the per-run mean "
        "log cost ratio minus the read-out reference, with a two-level bootstrap interval; "
        f"TOST across runs with margin $\\pm\\log(1+{m:g})$. LQR err: median over runs of the "
        "median relative value error."
    )
    lines = [
        r"\begin{table}[t]",
        r"\centering\small",
        r"\begin{tabular}{lrrrrrrrlr}",
        r"\hline",
        header,
        r"\hline",
        *rows,
        r"\hline",
        r"\end{tabular}",
        f"\\caption{{{caption}}}",
        r"\label{tab:reacher}",
        r"\end{table}",
    ]
    return "\n".join(lines) + "\n"


def write_table(plan: dict, out: Path) -> str:
    """Write tab_reacher.tex into ``out``; returns its file name."""
    atomic_write_bytes(out / "tab_reacher.tex", tab_reacher(plan).encode())
    return "tab_reacher.tex"
