"""The Reacher claims, judged from plan.json: printed lines, claims.json and tab_reacher.tex.

Pure functions of plan.json (and the datasets' statistics), so they sit with the other
claims; :mod:`lejepa_id.reacher.claims` is the command that rewrites a claims.json.

claims.json follows the report's schema (docs/sweeps.md, "claims.json"):
``{"schema": 2, "claims": [...]}``. The four claims are registered rules, one module each
under :mod:`lejepa_id.analysis.claims` (``reacher_*``); the functions here compute them
from plan.json for those rules (:func:`equivalence_claim`, :func:`worse_claim`,
:func:`lqr_claim`), and :func:`reacher_claims` judges every version. Verdicts: pass (the
rule is met), fail (the data contradict the claim), not shown (too weak either way:
failing to reject is never agreement), not measured (no runs of a kind the claim needs).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from lejepa_id.analysis import plan_statistics as st
from lejepa_id.analysis.claims.base import Claim
from lejepa_id.analysis.latex import float_lines, tabular
from lejepa_id.analysis.stats import fmt_interval, fmt_mean_std, fmt_p, fmt_sig
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


def _log_means(plan: dict, a: str, b: str) -> tuple[list[float], list[float]]:
    """Each run's mean log(J / J_oracle), for kinds a and b."""
    runs = plan["runs"]
    return (
        [r["log_ratio_mean"] for r in runs if r["kind"] == a],
        [r["log_ratio_mean"] for r in runs if r["kind"] == b],
    )


RUN_LEVEL = (
    "run level (one value per run): t interval; exact permutation interval (unbounded when "
    "no split of that many runs can reach p < 0.05); the two-level bootstrap only with ≥ "
    f"{st.BOOTSTRAP_MIN_RUNS} runs a group"
)
ONE_DATASET = (
    "every run of a kind trains on one rendered dataset, so the spread across its runs is "
    "training-seed variance only: it says nothing about another rendering of the data"
)
OWN_DATASET = (
    "every run of a kind trains on a dataset of its own (rendered with its seed), so the "
    "spread across its runs includes the data's variation, not only the training seed's"
)


def dataset_note(plan: dict, kinds: list[str]) -> str:
    """What the spread across a kind's runs includes: the data's variation when every run
    trained on its own rendering of one setting (datasets that differ in their seed only),
    training seeds only when they shared one dataset."""
    shared, own, other = [], [], []
    for kind in kinds:
        runs = [r for r in plan["runs"] if r["kind"] == kind]
        ids = [r.get("train_identity") or {} for r in runs]
        settings = {json.dumps({k: v for k, v in i.items() if k != "seed"}, sort_keys=True)
                    for i in ids}  # fmt: skip
        renders = {json.dumps(i, sort_keys=True) for i in ids}
        if len(renders) == 1:
            shared.append(kind)
        elif len(settings) == 1 and len(renders) == len(runs):
            own.append(kind)
        else:
            n = len(settings)
            other.append(f"{kind} ({len(renders)} datasets of {n} setting{'s' * (n > 1)} for "
                         f"{len(runs)} runs)")  # fmt: skip
    if not own and not other:
        return ONE_DATASET
    if not shared and not other:
        return OWN_DATASET
    parts = [f"one dataset a kind: {', '.join(shared)}"] if shared else []
    parts += [f"a rendering a run: {', '.join(own)}"] if own else []
    parts += other
    return "the runs' datasets: " + "; ".join(parts)


def identified_check(run: dict, r2_min: float, orth_max: float) -> dict:
    """Theorem 4's premise on one run: R²(h → z) ≥ r2_min and whitened orth ≤ orth_max."""
    r2, orth = run.get("r2_hz"), run.get("orth_err_whitened")
    ok = (
        r2 is not None and orth is not None and math.isfinite(r2) and math.isfinite(orth)
        and r2 >= r2_min and orth <= orth_max
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


def settings_of(plan: dict, kind: str) -> list[str]:
    """The distinct settings (data label and λ) of a kind's runs: runs of different
    settings are not replicates of one another."""
    return sorted(
        {f"{r.get('label', kind)} λ={r['lam']:g}" for r in plan["runs"] if r["kind"] == kind}
    )


def replicates(plan: dict, kinds: list[str]) -> str | None:
    """None when each kind's runs are replicates of one setting; else why not."""
    parts = []
    for kind in kinds:
        found = settings_of(plan, kind)
        if len(found) > 1:
            parts.append(f"kind {kind} pools {len(found)} settings ({', '.join(found)})")
    if not parts:
        return None
    return "; ".join(parts) + ": different settings are not replicates"


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


def welch_df(a, b) -> float | None:
    """Welch–Satterthwaite degrees of freedom of two samples (None: < 2 values a side)."""
    import numpy as np

    if min(len(a), len(b)) < 2:
        return None
    va, vb = np.var(a, ddof=1) / len(a), np.var(b, ddof=1) / len(b)
    den = va**2 / (len(a) - 1) + vb**2 / (len(b) - 1)
    return float((va + vb) ** 2 / den) if den > 0 else None


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
        "welch_df": welch_df(a, b),
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


def _power_line(r: dict, with_df: bool = False) -> str:
    p = r.get("power")
    if not p:
        return "no power statement (fewer than 2 runs a side)"
    m, o = p["at_margin"], p["at_observed_difference"]
    if with_df:
        df = r.get("welch_df")
        # The run SD behind a sample-size figure rests on this many degrees of freedom:
        # with 2 + 2 runs it is too loose to size a study, so no run counts are stated.
        return (
            f"power with {r['n'][0]} + {r['n'][1]} runs (run SD estimated on Welch df "
            f"{_fmt(df)}): {m['power_now']:.2f} to detect the margin {m['effect']:.3g}, "
            f"{o['power_now']:.2f} for the observed difference {o['effect']:.3g}"
        )
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


def _check_replicates(rule, claim: Claim, plan: dict, kinds: list[str]) -> bool:
    """v2 and later: the replicates premise (True when it holds) and the dataset note."""
    if rule.version < 2:
        return True
    claim.notes.append(dataset_note(plan, kinds))
    claim.values["settings"] = {k: settings_of(plan, k) for k in kinds}
    why = replicates(plan, kinds)
    if why is not None:
        claim.premise_unmet(why)
        return False
    return True


def equivalence_claim(rule, plan: dict) -> Claim:
    """reacher_ou_plans_like_oracle: TOST of the identified OU runs against the read-out."""
    claim = rule.start()
    g = plan["kinds"].get("ou")
    if g is None:
        claim.summary = "no runs of kind ou"
        return claim
    ou_runs = [r for r in plan["runs"] if r["kind"] == "ou"]
    checks = [identified_check(r, rule.t("r2"), rule.t("orth")) for r in ou_runs]
    a = g["vs_reference"]
    margin = plan["margin_log"] if rule.version < 2 else rule.t("margin_log")
    claim.values = {
        "premises": {"identified": checks},
        "run_means": a["run_means"],
        "mean": a["mean"],
        "run_level": _run_level_one(a["run_means"]),
        "p_tost_all_runs": a["tost"]["p_tost"],
        "p_t_all_runs": a["t_test"]["p"],
        "direction": a["t_test"]["direction"],
        "regret_median_of_runs": g["regret_median_of_runs"],
        "margin_log": margin,
    }
    good = [r["log_ratio_vs_reference_mean"] for r, c in zip(ou_runs, checks) if c["held"]]
    claim.count(judged=len(good), premise_unmet=len(ou_runs) - len(good))
    rl = claim.values["run_level"]
    claim.summary = (
        f"{g['runs']} OU runs: mean {_fmt(a['mean'])}, t 95% CI {_ci(rl['t_ci95'])}, "
        f"permutation {_perm_text(rl['permutation_ci95'])}; TOST p={_fmt(a['tost']['p_tost'])}, "
        f"t-test p={_fmt(a['t_test']['p'])} ({a['t_test']['direction']})"
    )
    if not _check_replicates(rule, claim, plan, ["ou"]):
        return claim
    if not good:
        claim.premise_unmet(_premise_text(checks))
        return claim
    tost = st.tost_one_sample(good, margin)
    test = st.t_test_zero(good, "costs more than the reference", "costs less than the reference")
    claim.values |= {"identified_runs": len(good), "p_tost": tost["p_tost"], "p_t": test["p"]}
    claim.summary += (
        f"; judged on the {len(good)} identified: mean {_fmt(sum(good) / len(good))}, TOST "
        f"p={_fmt(tost['p_tost'])}, t-test p={_fmt(test['p'])} ({test['direction']})"
    )
    claim.verdict = {"equivalent": "pass", "different": "fail"}.get(
        st.verdict(tost["p_tost"], test["p"]), "not shown"
    )
    return claim


def worse_claim(rule, plan: dict, worse: str, differences: str) -> Claim:
    """reacher_traj_plans_worse / reacher_gap_not_coverage: OU against another kind."""
    claim = rule.start()
    c = plan["comparisons"].get(f"ou_vs_{worse}")
    if c is None:
        claim.summary = f"no runs of kind ou, {worse}"
        return claim
    a, b = _log_means(plan, "ou", worse)
    claim.count(judged=len(a) + len(b))
    if rule.version >= 2:
        c = c | st.compare_two(a, b, ("ou", worse), rule.t("margin_log"))
    expected = f"ou costs less than {worse}"
    if c["p_tost"] is not None and c["p_tost"] < 0.05:
        verdict = "fail"
    elif c["p_welch"] is not None and c["p_welch"] < 0.05:
        verdict = "pass" if c["direction"] == expected else "fail"
    else:
        verdict = "not shown"
    keys = ("n", "difference", "p_welch", "p_mannwhitney", "p_tost", "direction")
    margin = plan["margin_log"] if rule.version < 2 else rule.t("margin_log")
    rl = _run_level_two(a, b, margin)
    enough = min(len(a), len(b)) >= st.BOOTSTRAP_MIN_RUNS
    claim.values = {k: c.get(k) for k in keys} | {
        "run_level": rl,
        "bootstrap_ci95": c.get("ci95") if enough else None,
        "bootstrap_note": ""
        if enough
        else f"not computed: fewer than {st.BOOTSTRAP_MIN_RUNS} runs a group",
        "dataset_differences": differences,
    }
    claim.summary = (
        f"runs {len(a)} vs {len(b)}: difference {_fmt(c.get('difference'))}, Welch 95% "
        f"CI {_ci(rl['welch_ci95'])}, permutation {_perm_text(rl['permutation_ci95'])}; Welch "
        f"p={_fmt(c['p_welch'])}, Mann-Whitney p={_fmt(c['p_mannwhitney'])} "
        f"({c.get('direction', 'n/a')}); {_power_line(rl, with_df=rule.version >= 2)}"
    )
    if differences:
        claim.summary += f". {differences}"
    claim.verdict = verdict
    _check_replicates(rule, claim, plan, ["ou", worse])
    return claim


def lqr_claim(rule, plan: dict) -> Claim:
    """reacher_ou_lqr_values_match: the identified OU runs' LQR value error."""
    claim = rule.start()
    margin = plan["config"].get("equiv_margin", 0.05) if rule.version < 2 else rule.t("margin")
    g = plan["kinds"].get("ou")
    if g is None:
        claim.summary = "no runs of kind ou"
        return claim
    ou_runs = [r for r in plan["runs"] if r["kind"] == "ou"]
    checks = [identified_check(r, rule.t("r2"), rule.t("orth")) for r in ou_runs]
    meds = [m if m is not None else math.inf for m in g["lqr_rel_err_run_medians"]]
    claim.values = {
        "premises": {"identified": checks},
        "run_medians": g["lqr_rel_err_run_medians"],
        "margin": margin,
    }
    claim.summary = (
        f"{len(meds)} OU runs: median relative error {_fmt(min(meds))} to {_fmt(max(meds))}"
    )
    good = [m for m, c in zip(meds, checks) if c["held"]]
    claim.count(judged=len(good), premise_unmet=len(ou_runs) - len(good))
    if not _check_replicates(rule, claim, plan, ["ou"]):
        return claim
    if not good:
        claim.premise_unmet(_premise_text(checks))
        return claim
    claim.verdict = "pass" if max(good) < margin else "fail" if min(good) > margin else "not shown"
    return claim


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
    """The Reacher claims of plan.json judged by their registered rules
    (:mod:`lejepa_id.analysis.claims`), in the report's claims schema; ``datasets`` maps
    kinds to their render metadata (datasets/<kind>.json) for the conclusions."""
    from lejepa_id.analysis.claims.registry import Evidence, judge_all

    evidence = Evidence(plan=plan, datasets=datasets or {})
    return [claim.to_json() for claim in judge_all(evidence, source="reacher")]


def comparison_differences(datasets: dict[str, dict], worse: str) -> str:
    """The sentence naming what differs between the ou data and ``worse``'s, or ''."""
    if "ou" not in datasets or worse not in datasets:
        return ""
    return dataset_differences(datasets["ou"], datasets[worse], ("ou", worse))


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
    from lejepa_id.analysis.claims.files import SCHEMA_VERSION
    from lejepa_id.records.io import atomic_write_json

    claims = reacher_claims(plan, datasets)
    atomic_write_json(path, {"schema": SCHEMA_VERSION, "claims": claims})


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
