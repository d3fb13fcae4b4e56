"""The docs' statements about committed results, generated from them.

Every verdict and number the docs state about ``results/`` (docs/results.md, once the
README's results sections) comes from one of the blocks below, written between
``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` markers by ``python scripts/sync_readme.py``
(``--check``: exit 1 when a page differs; a test runs it). Sources:
``results/claims.json``, ``results/beyond/claims.json``,
``results/reacher_control/claims.json`` and ``plan.json``, and the runs tables
``results/runs/runs.parquet`` and ``results/beyond/runs.parquet``. A block whose source
is missing says so in place of its numbers.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from lejepa_id.analysis.claims.base import Claim, counts_text
from lejepa_id.analysis.claims.published_2d import PUBLISHED_2D
from lejepa_id.analysis.claims.registry import version_line

RESULTS = Path("results")


def _claims(root: Path, rel: str) -> list[dict[str, Any]]:
    return json.loads((root / rel).read_text())["claims"]


def _versions(c: dict[str, Any]) -> str:
    """``fail under v2; pass under v1 (date, reason)`` when an earlier rule's verdict
    differs, else ''."""
    return version_line(Claim.from_json(c, c.get("source", "")))


def verdict_lines(claims: list[dict[str, Any]], ids: list[str] | None = None) -> str:
    """One bullet per claim: id, verdict (and the rule's version), the measured summary,
    where every run went, earlier versions' verdicts that differ, notes."""
    lines = []
    for c in claims:
        if ids is not None and c["id"] not in ids:
            continue
        summary = c["summary"]
        tag = f" (rule v{c['version']})" if c.get("version") else ""
        if summary.startswith("not shown (premise: "):  # the verdict says "not shown"
            summary = summary[len("not shown ") :]
            line = f"- `{c['id']}`{tag}: **not shown** {summary}."
        else:
            line = f"- `{c['id']}`{tag}: **{c['verdict']}**. {summary}."
        if c.get("counts") and c["verdict"] != "not measured":
            line += f" Runs: {counts_text(c['counts'])}."
        if _versions(c):
            line += f" Versions: {_versions(c)}."
        for note in c.get("notes", []):
            line += f" Note: {note}."
        lines.append(line)
    return "\n".join(lines)


def verdict_table(claims: list[dict[str, Any]]) -> str:
    """The measured claims as a short table: id, what it states, its verdict (with the
    premise that failed, for "not shown"); the numbers behind each are in claims.json."""
    rows = ["| claim | states | verdict | runs |", "|---|---|---|---|"]
    for c in claims:
        if c["verdict"] == "not measured":
            continue
        verdict = c["verdict"] + (f" ({c['reason']})" if c.get("reason") else "")
        if c.get("parts"):
            verdict += ": " + "; ".join(f"{k} {v}" for k, v in c["parts"].items())
        if _versions(c):
            verdict += f". Earlier rule: {_versions(c).split('; ', 1)[1]}"
        runs = counts_text(c.get("counts", {}))
        rows.append(f"| `{c['id']}` | {c['text']} | {verdict} | {runs} |")
    return "\n".join(rows)


def _mean_sd(values: pd.Series, digits: int) -> str:
    return f"{values.mean():.{digits}f} ± {values.std():.{digits}f}"


def table_2d(root: Path) -> str:
    """The 2d experiment per run: R^2 over seeds, seed 1337, the published value."""
    frame = pd.read_parquet(root / "runs" / "runs.parquet")
    rows = frame[(frame["experiment"] == "2d") & (frame["status"] == "finished")]
    order = [
        f"{m}_{o}" for o in ("lejepa", "whiten") for m in ("spiral", "banana", "sinusoid", "nvp")
    ]
    out = [
        "| run | R^2, mean ± sd over seeds | seeds | seed 1337 | published (seed 1337) | "
        "grid R^2, mean | orth_err, mean | Procrustes (centered) / bound, worst seed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for run in order:
        sel = rows[rows["run"] == run]
        if sel.empty:
            continue
        mixing, mode = run.split("_")
        first = sel[sel["seed"] == 1337]["r2_hz"]
        published = PUBLISHED_2D.get((mixing, mode))
        worst = sel.loc[(sel["procrustes_mse_centered"] / sel["approx_bound"]).idxmax()]
        out.append(
            f"| {run} | {_mean_sd(sel['r2_hz'], 5)} | {len(sel)} | "
            f"{first.iloc[0]:.5f} | {'-' if published is None else f'{published:g}'} | "
            f"{sel['grid_r2_hz'].mean():.4f} | {sel['orth_err'].mean():.3f} | "
            f"{worst['procrustes_mse_centered']:.3g} / {worst['approx_bound']:.3g} |"
            if len(first)
            else f"| {run} | {_mean_sd(sel['r2_hz'], 5)} | {len(sel)} | - | - | - | - | - |"
        )
    return "\n".join(out)


def table_gennorm(root: Path) -> str:
    """The spiral lejepa gennorm sweep: grid and own-set R^2 per alpha."""
    frame = pd.read_parquet(root / "runs" / "runs.parquet")
    rows = frame[
        (frame["experiment"] == "gennorm") & (frame["run"] == "spiral_lejepa")
        & (frame["status"] == "finished")
    ]  # fmt: skip
    alphas = sorted(rows["alpha"].unique())
    grid = rows.groupby("alpha")["grid_r2_hz"]
    own = rows.groupby("alpha")["r2_hz"].mean()
    seeds = rows.groupby("alpha")["seed"].nunique()

    def bold(alpha: float, text: str) -> str:
        return f"**{text}**" if alpha == 2.0 else text

    head = "| alpha | " + " | ".join(bold(a, f"{a:g}") for a in alphas) + " |"
    sep = "|---|" + "---|" * len(alphas)
    g = " | ".join(bold(a, f"{grid.mean()[a]:.3f} ± {grid.std()[a]:.3f}") for a in alphas)
    o = " | ".join(bold(a, f"{own[a]:.3f}") for a in alphas)
    n = " | ".join(str(int(seeds[a])) for a in alphas)
    return "\n".join(
        [head, sep, f"| grid R^2, mean ± sd | {g} |", f"| own-set R^2, mean | {o} |",
         f"| seeds | {n} |"]
    )  # fmt: skip


def _per_setting(claims: list[dict[str, Any]], cid: str) -> list[dict[str, Any]]:
    claim = next(c for c in claims if c["id"] == cid)
    return claim["values"].get("per_setting", [])


def _premise_cell(rec: dict[str, Any]) -> str:
    """The convergence premise's value under the claim's current rule, ✗ where unmet."""
    value = rec["premises"]["converged"]["value"]
    held = rec["premises"]["converged"]["held"]
    return ("not recorded" if value is None else f"{value:.3g}") + ("" if held else " ✗")


def table_anisotropic(root: Path) -> str:
    """Anisotropic cells as a grid per run: R^2(h -> z), the predicted-linear cells in
    bold, a dagger where the convergence premise of the claim's current rule fails."""
    recs = _per_setting(_claims(root, "beyond/claims.json"), "anisotropic_r2")
    if not recs:
        return "(no anisotropic runs)"
    runs = list(dict.fromkeys(r["run"] for r in recs))
    firsts = sorted({r["rho_first"] for r in recs})
    rests = sorted({r["rho_rest"] for r in recs}, reverse=True)
    cell = {(r["run"], r["rho_first"], r["rho_rest"]): r for r in recs}
    head = ["rest \\ z_1"] + [
        f"{run} {f:g}" if i == 0 else f"{f:g}" for run in runs for i, f in enumerate(firsts)
    ]
    out = ["| " + " | ".join(head) + " |", "|---|" + "---|" * (len(head) - 1)]
    for rest in rests:
        row = [f"{rest:g}"]
        for run in runs:
            for first in firsts:
                r = cell.get((run, first, rest))
                if r is None:
                    row.append("-")
                    continue
                text = f"{r['r2_hz']:.3f}"
                text = f"**{text}**" if r["pred_r2_hz"] == 1 else text
                row.append(text + ("" if r["premises"]["converged"]["held"] else " †"))
        out.append("| " + " | ".join(row) + " |")
    return "\n".join(out)


def table_codedim(root: Path) -> str:
    """Code sizes: R^2 both ways (z -> h raw and self-whitened) against the predictions."""
    recs = _per_setting(_claims(root, "beyond/claims.json"), "code_size")
    recs = sorted(recs, key=lambda r: (r["dim"], r["m"]))
    out = [
        "| n, m | R^2(h -> z) | predicted | R^2(z -> h), raw | self-whitened | predicted | "
        "convergence premise (≤ 0.02) | ε / √m | seeds |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in recs:
        out.append(
            f"| {int(r['dim'])}, {int(r['m'])} | {r['r2_hz']:.3f} | {r['pred_r2_hz']:.3g} | "
            f"{r['r2_zh']:.3f} | {r['r2_zh_white']:.3f} | {r['pred_r2_zh']:.3g} | "
            f"{_premise_cell(r)} | {r['premises']['whitened']['value']:.2f} | {r['seeds']} |"
        )
    return "\n".join(out)


def table_reacher_control(root: Path) -> str:
    """The coverage control per run, from plan.json."""
    plan = json.loads((root / "reacher_control" / "plan.json").read_text())
    names = {"ou": "OU pairs", "traj": "trajectory pairs", "trajmatch": "coverage-matched"}
    out = [
        "| data | seed | R^2(h->z) | orth err (whitened) | median J/J_oracle | "
        "LQR rel. err (median) |",
        "|---|---|---|---|---|---|",
    ]
    for r in plan["runs"]:
        lqr = r["lqr_rel_err"].get("median")
        out.append(
            f"| {names.get(r['kind'], r['kind'])} | {r['seed']} | {r['r2_hz']:.3f} | "
            f"{r['orth_err_whitened']:.3f} | {r['ratio_median']:.3f} | "
            f"{'-' if lqr is None or not math.isfinite(lqr) else f'{lqr:.3g}'} |"
        )
    return "\n".join(out)


REACHER_PLANS = (
    ("paper-cpu/reacher/plan.json", "paper-cpu grid (20 epochs)"),
    ("paper-cpu/reacher/sweep/plan.json", "paper-cpu sweep (20 epochs)"),
    ("reacher_control/plan.json", "coverage control (10 epochs)"),
)


def table_reacher_runs(root: Path) -> str:
    """Every committed Reacher run: where, data, setting, seed, R^2 and the median
    planning cost over the oracle's."""
    out = [
        "| results | data (setting) | seed | R^2(h->z) | median J/J_oracle |",
        "|---|---|---|---|---|",
    ]
    for rel, name in REACHER_PLANS:
        plan = json.loads((root / rel).read_text())
        for r in plan["runs"]:
            out.append(
                f"| {name} | {r['kind']} ({r.get('label', r['kind'])}, λ {r['lam']:g}) | "
                f"{r['seed']} | {r['r2_hz']:.3f} | {r['ratio_median']:.3f} |"
            )
    return "\n".join(out)


def claims_changelog(root: Path) -> str:
    """Every registered rule's versions: date, fingerprint and why (from the registry,
    not from results: it is the rules' own record)."""
    from lejepa_id.analysis.claims.registry import claim_ids, versions

    out = ["| claim | version | date | fingerprint | why |", "|---|---|---|---|---|"]
    for cid in claim_ids():
        for entry in versions(cid):
            r = entry.rule
            out.append(f"| `{cid}` | v{r.version} | {r.date} | `{r.fingerprint}` | {r.reason} |")
    return "\n".join(out)


def overnight_claims(root: Path) -> str:
    """The overnight budget's judged claims so far: the paper's experiments
    (``paper-overnight/claims.json``) and, once run, the beyond families
    (``paper-overnight/beyond/claims.json``), each table under its folder's name."""
    parts = []
    for rel, title in (("paper-overnight", "The paper's experiments"),
                       ("paper-overnight/beyond", "The beyond families")):  # fmt: skip
        path = root / rel / "claims.json"
        if not path.is_file():
            parts.append(f"{title} (`results/{rel}`): not run yet")
            continue
        parts.append(
            f"{title} (`results/{rel}`):\n\n{verdict_table(_claims(root, f'{rel}/claims.json'))}"
        )
    return "\n\n".join(parts)


BLOCKS: dict[str, Callable[[Path], str]] = {
    "claims-changelog": claims_changelog,
    "reacher-runs-table": table_reacher_runs,
    "results-2d-table": table_2d,
    "results-gennorm-table": table_gennorm,
    "results-claims": lambda root: verdict_lines(_claims(root, "claims.json")),
    "beyond-anisotropic-table": table_anisotropic,
    "beyond-codedim-table": table_codedim,
    "beyond-claims": lambda root: verdict_lines(
        _claims(root, "beyond/claims.json"),
        [
            "alignment_gap",
            "theorem3_bound",
            "anisotropic_boundary",
            "anisotropic_r2",
            "code_size",
            "whitened_optimum_reached",
            "action_lqr",
        ],
    ),  # fmt: skip
    "paper-cpu-claims": lambda root: verdict_table(_claims(root, "paper-cpu/claims.json")),
    "paper-overnight-claims": overnight_claims,
    "reacher-control-table": table_reacher_control,
    "reacher-control-claims": lambda root: verdict_lines(
        _claims(root, "reacher_control/claims.json")
    ),
}


def block(name: str, root: Path = RESULTS) -> str:
    """The text of one block; a one-line note when its source is missing."""
    try:
        return BLOCKS[name](root)
    except (OSError, KeyError, StopIteration, ValueError) as err:
        return f"(not generated: source for {name!r} missing or unreadable: {err})"
