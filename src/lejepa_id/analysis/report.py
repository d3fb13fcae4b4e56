"""One self-contained HTML report and ``claims.json``: claims, runs, tables, figures.

Claims are the registered rules of :mod:`lejepa_id.analysis.claims` (each judged under
every version, every run counted) and the claims files of other pipelines
(``DIR/reacher/claims.json``);
the page and ``claims.json`` show the same claims. Reacher figures are included when the
Reacher commands wrote ``DIR/reacher/figures/figures_index.json``.
"""

from __future__ import annotations

import base64
import html
import json
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.colors import to_hex

from lejepa_id import __version__
from lejepa_id.analysis.budget import (
    NOT_JUDGED,
    annotate,
    cell_mark,
    claim_experiments,
    header_html,
    read_budget,
    table_note,
)
from lejepa_id.analysis.claims import VERDICTS, Claim, collect_claims, version_line, write_claims
from lejepa_id.analysis.claims.base import counts_text
from lejepa_id.analysis.curves import curves_svg, run_curves
from lejepa_id.analysis.figures import make_figures
from lejepa_id.analysis.plotting import (
    MODE_COLORS,
    MODE_LABELS,
    Figures,
    finished,
    paper_worlds,
    plural,
    sweeping,
)
from lejepa_id.analysis.scaling import scaling_table
from lejepa_id.analysis.stats import fmt_sig
from lejepa_id.analysis.table import CONFIG_COLUMNS, collect, of_kind
from lejepa_id.config import components
from lejepa_id.errors import UsageError
from lejepa_id.metrics.registry import metric_infos
from lejepa_id.records.io import atomic_write_bytes
from lejepa_id.records.layout import ensure_writable
from lejepa_id.sweeps.state import read_manifest, rerun_commands


def _objective_has(key: str) -> Callable[[Any], bool]:
    """Whether a row's objective has hyperparameter ``key``: what the objective declares
    (lejepa_action's lam, a plugin's), never a list of objective names."""
    return lambda r: (
        isinstance(r["mode"], str) and key in components.namespaces().get(r["mode"], {})
    )


# Hyperparameters and the runs they apply to (blank elsewhere).
APPLIES = {
    "alpha": lambda r: r["law"] == "gennorm",  # the law's shape, read by gennorm only
    "lam": _objective_has("lam"),
    "sigma": _objective_has("sigma"),
}
SETTING = ["experiment", "run", "mode", "law", "alpha", "dim", "lam", "rho", "sigma"]
# Reacher figure folders with the figures shown from each (None: all): the lambda x
# seed grid's, and from the rho/delta sweeps (`lejepa-id paper`) only their own two.
REACHER_FIGURES = (
    ("reacher/figures", None),
    ("reacher/sweep/figures", ("reacher_r2_vs_rho", "reacher_r2_vs_delta")),
)
HEADER = ["experiment", "run", "objective", "law", "α", "N", "λ", "ρ", "σ", "seeds"]


@dataclass
class Report:
    path: Path
    claims_path: Path
    claims: list[Claim] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    reasons: dict[Path, str] = field(default_factory=dict)
    budget: dict | None = None  # DIR/budget.json, when `lejepa-id paper` wrote the folder
    command: str = ""  # the command that wrote the page (shown with the sweeps' commands)
    made: str = ""  # when the page was written (UTC)


def html_table(header: list[str], rows: list[list[str]], classes: list[str] | None = None) -> str:
    """A table with one header row; cells are escaped text."""
    h = html.escape
    out = ["<table><thead><tr>", *(f"<th>{h(c)}</th>" for c in header), "</tr></thead><tbody>"]
    for i, row in enumerate(rows):
        cls = f' class="{classes[i]}"' if classes else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{h(str(v))}</td>" for v in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _cell(value: object) -> str:
    """A setting's value (α, λ, ρ, σ): as short as it reads exactly (1e-3, 0.95)."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def mean_cell(values: pd.Series) -> str:
    """The mean over seeds rounded by their spread: to the decimal place of the std's first
    significant digit (the digits the seeds support); one seed, or no spread, at three
    significant digits. Blank when no seed has the metric."""
    x = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
    x = x[np.isfinite(x)]
    if not x.size:
        return ""
    mean = float(x.mean())
    std = float(x.std(ddof=1)) if x.size > 1 else math.nan
    if not math.isfinite(std) or std <= 1e-12 * max(1.0, abs(mean)):
        return fmt_sig(mean)
    places = -math.floor(math.log10(std))
    if round(std, places) >= 10.0 ** (1 - places):  # 0.0096 shows as 0.01
        places -= 1
    return f"{mean:.{max(places, 0)}f}" if places > 0 else f"{round(mean, places):.0f}"


def run_summary(frame: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Per run setting (seeds averaged): settings, seed count, mean metrics (rounded by
    the seeds' spread: :func:`mean_cell`); blanks where a hyperparameter does not apply
    to the run (e.g. α for Gaussian latents)."""
    rows = frame.copy()
    for key, applies in APPLIES.items():
        rows[key] = [v if applies(r) else None for v, (_, r) in zip(rows[key], rows.iterrows())]
    labels = {name: info.label for name, info in metric_infos().items() if info.report}
    metrics = [m for m in labels if m in rows.columns]
    grouped = rows.groupby(SETTING, dropna=False, sort=True)
    body = []
    for key, sel in grouped:
        setting = dict(zip(SETTING, key))
        line = [
            setting["experiment"],
            setting["run"],
            MODE_LABELS.get(setting["mode"], setting["mode"]),
            setting["law"],
            *(_cell(setting[k]) for k in ("alpha", "dim", "lam", "rho", "sigma")),
            str(len(sel)),
        ]
        line += [mean_cell(sel[m]) for m in metrics]
        body.append(line)
    return HEADER + [labels[m] for m in metrics], body


def _premises_html(c: Claim) -> str:
    """The claim's premises under its rule, and its notes (disclosed choices)."""
    h = html.escape
    items = [f"<li><b>{h(p['name'])}</b>: {h(p['statement'])}</li>" for p in c.premises]
    items += [f"<li>{h(n)}</li>" for n in c.notes]
    return f"<br><small>premises and notes:<ul>{''.join(items)}</ul></small>" if items else ""


def rounded(value: Any) -> Any:
    """JSON values for people: every float at three significant digits (claims.json keeps
    them whole)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        return float(fmt_sig(value)) if value != 0 else 0.0
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(v) for v in value]
    return value


def counts_line(c: Claim) -> str:
    """Where every run of the claim's input went: ``44 runs: 28 judged, 2 collapsed, ...``."""
    return counts_text(c.counts)


def _versions_html(c: Claim) -> str:
    """The verdicts under earlier versions of the rule that differ, and the changelog."""
    h = html.escape
    out = ""
    line = version_line(c)
    if line:
        out += f"<br><small class='versions'>{h(line)}</small>"
    if c.changelog:
        items = "".join(
            f"<li>v{e['version']} ({h(e['date'])}, <code>{h(e['fingerprint'])}</code>): "
            f"{h(e['reason'])}</li>"
            for e in c.changelog
        )
        out += f"<details><summary>rule v{c.version} changelog</summary><ul>{items}</ul></details>"
    return out


def _verdict_html(c: Claim, budget: dict | None) -> str:
    """The verdict cell's text: the verdict (``not judged (budget)`` where the budget
    withheld it, with the rule's reading in grey), the dagger of a claim judged below the
    paper's sizes (:func:`~lejepa_id.analysis.budget.cell_mark`; the table's note says by
    how much), the rule's versions."""
    h = html.escape
    if c.verdict == NOT_JUDGED:
        text = f"{NOT_JUDGED} (budget)" + (
            f"<br><small class='rule-reading'>the rule reads {h(c.rule_verdict)}</small>"
            if c.rule_verdict
            else ""
        )
    else:
        text = h(c.verdict)
    mark = cell_mark(c, budget)
    if mark:
        text += f"<br><small class='note'>{h(mark)}</small>"
    return text + _versions_html(c)


def _claim_rows(claims: list[Claim], budget: dict | None = None) -> list[str]:
    """One row per claim: the claim, what was measured, the verdict; how it is judged
    (metric, filter, statistic, rule, premises, values) folded under the claim."""
    h = html.escape
    rows = []
    for c in claims:
        values = json.dumps(rounded(c.values), default=str, ensure_ascii=False)
        rows.append(
            f"<tr><td><code>{h(c.id)}</code> <small>({h(c.source)})</small><br>{h(c.text)}"
            "<details><summary>how it is judged</summary><dl>"
            f"<dt>metric</dt><dd>{h(c.metric)}</dd><dt>filter</dt><dd>{h(c.filter)}</dd>"
            f"<dt>statistic</dt><dd>{h(c.statistic)}</dd>"
            + (f"<dt>rule</dt><dd>{h(c.rule)}</dd>" if c.rule else "")
            + f"</dl>{_premises_html(c)}</details></td>"
            f"<td>{h(c.summary)}"
            + (
                "<ul class='parts'>"
                + "".join(f"<li>{h(k)}: {h(v)}</li>" for k, v in c.parts.items())
                + "</ul>"
                if c.parts
                else ""
            )
            + (f"<br><small class='counts'>{h(counts_line(c))}</small>" if c.counts else "")
            + f"<details><summary>values</summary><code>{h(values)}</code>"
            + f'</details></td><td class="{h(c.verdict.replace(" ", "-"))}">'
            + f"{_verdict_html(c, budget)}</td></tr>"
        )
    return rows


CLAIMS_HEAD = (
    '<table class="claims"><thead><tr><th>claim</th><th>measured</th><th>verdict</th>'
    "</tr></thead><tbody>"
)


def _claims_html(claims: list[Claim], notes: list[str], budget: dict | None = None) -> list[str]:
    """Claims with a verdict first (pass, fail, not shown, not judged); those not
    measured (no data) folded into one <details> below them. What the budget means for
    the verdicts is said once, above the table
    (:func:`~lejepa_id.analysis.budget.table_note`), never in every cell."""
    h = html.escape
    judged = [c for c in claims if c.verdict != "not measured"]
    missing = [c for c in claims if c.verdict == "not measured"]
    parts = ["<h2>Claims</h2>"]
    note = table_note(judged, budget)
    if note:
        parts.append(f"<p class='budget-note'>{h(note)}</p>")
    if judged:
        parts += [CLAIMS_HEAD, *_claim_rows(judged, budget), "</tbody></table>"]
    else:
        parts.append("<p>No claim could be judged: no runs it needs.</p>")
    if missing:
        parts.append(
            f"<details class='missing'><summary>{len(missing)} claims not measured (no runs "
            f"of the kind they need): {h(', '.join(c.id for c in missing))}</summary>"
        )
        parts += [CLAIMS_HEAD, *_claim_rows(missing), "</tbody></table></details>"]
    if len(notes) > 3:  # many notes (a missing scatter per run) fold away
        parts.append(f"<details><summary>{len(notes)} notes</summary>")
        parts += [f"<p class='note'>{h(n)}</p>" for n in notes] + ["</details>"]
    else:
        parts += [f"<p class='note'>{h(n)}</p>" for n in notes]
    return parts


def _steps(rows: pd.DataFrame) -> str:
    """The training length of an experiment's runs: ``20,000 steps`` or a range."""
    for key, unit in (("steps", "steps"), ("epochs", "epochs")):
        if key in rows.columns:
            values = sorted({int(v) for v in pd.to_numeric(rows[key], errors="coerce").dropna()})
            if values:
                span = f"{values[0]:,}" if len(values) == 1 else f"{values[0]:,}–{values[-1]:,}"
                return f"{span} {unit}"
    return "length unknown"


def experiment_summaries(
    frame: pd.DataFrame, claims: list[Claim], budget: dict | None
) -> list[dict[str, str]]:
    """Per experiment: its runs by status, its budget (steps, seeds, settings, and the
    budget's name when `lejepa-id paper` made the folder) and the verdicts of the claims
    judged on it (by :func:`lejepa_id.analysis.budget.claim_experiments`)."""
    names = sorted(set(frame["experiment"])) if not frame.empty else []
    if any(c.source == "reacher" for c in claims) and "reacher" not in names:
        names.append("reacher")
    record: dict[str, Any] = {"experiments": {name: {} for name in names}}
    verdicts: dict[str, Counter] = {name: Counter() for name in names}
    for claim in claims:
        # A claim not measured had no runs: it counts against no experiment (the claims
        # section lists it).
        if claim.verdict == "not measured" or not names:
            continue
        for name in claim_experiments(claim, record):
            verdicts[name][claim.verdict] += 1
    out = []
    for name in names:
        rows = frame[frame["experiment"] == name] if not frame.empty else frame
        if rows.empty:
            runs, size = "runs: see the Reacher section", ""
        else:
            counts = rows["status"].value_counts()
            runs = (
                f"{plural(len(rows), 'run')} ("
                + ", ".join(
                    f"{int(counts[s])} {s}"
                    for s in ("finished", "diverged", "failed")
                    if s in counts
                )
                + ")"
            )
            size = (
                f"{_steps(rows)}, {plural(int(rows['seed'].nunique()), 'seed')}, "
                f"{plural(int(rows['run'].nunique()), 'setting')}"
            )
        if budget is not None and name in budget.get("experiments", {}):
            short = budget["experiments"][name].get("shortfalls") or []
            size += f"; {budget.get('budget')} budget" + (
                f" (below the paper: {', '.join(short)})" if short else " (the paper's sizes)"
            )
        count = verdicts[name]
        judged = ", ".join(f"{count[v]} {v}" for v in VERDICTS if count[v]) or "none"
        out.append({"experiment": name, "runs": runs, "budget": size, "claims": judged})
    return out


def _summary_html(frame: pd.DataFrame, report: Report) -> list[str]:
    h = html.escape
    lines = experiment_summaries(frame, report.claims, report.budget)
    if not lines:
        return ["<h2>Summary</h2><p>No runs and no claims files found.</p>"]
    items = [
        f"<li><b>{h(e['experiment'])}</b>: {h(e['runs'])}"
        + (f"; {h(e['budget'])}" if e["budget"] else "")
        + f"; claims judged on it: {h(e['claims'])}</li>"
        for e in lines
    ]
    missing = sum(c.verdict == "not measured" for c in report.claims)
    if missing:
        items.append(f"<li>{plural(missing, 'claim')} not measured (no runs of the kind "
                     "they need; listed under Claims)</li>")  # fmt: skip
    return ["<h2>Summary</h2>", "<ul class='summary'>", *items, "</ul>"]


def commands(directory: Path, frame: pd.DataFrame, report: Report) -> list[str]:
    """The commands that made this folder and page: ``lejepa-id paper`` when it wrote
    budget.json, else per experiment the sweeps its sweep.json recorded (config, every
    ``--set`` as given, ``--plugin`` and ``--logger``: given again with ``--out`` this
    folder, they train the same runs), then the report's own command. A folder from before
    sweeps recorded their commands gets one rebuilt from its overrides and seeds."""
    out = []
    if report.budget is not None:
        out.append(f"lejepa-id paper --budget {report.budget.get('budget')} --out {directory}")
    else:
        for name in sorted(set(frame["experiment"])) if not frame.empty else []:
            manifest = read_manifest(directory / name) or {}
            recorded = rerun_commands(manifest, directory)
            out += recorded or [_rebuilt_command(directory, name, manifest)]
    out.append(report.command or f"lejepa-id report {directory}")
    return out


def _rebuilt_command(directory: Path, name: str, manifest: dict[str, Any]) -> str:
    sets = [
        f"{k}={v if isinstance(v, str) else json.dumps(v)}"
        for k, v in (manifest.get("overrides") or {}).items()
    ]
    seeds = (manifest.get("axes") or {}).get("seeds")
    if seeds:
        sets.append(f"seeds=[{', '.join(str(s) for s in seeds)}]")
    quoted = "".join(f" --set '{s}'" for s in sets)
    return f"lejepa-id sweep configs/{name}.yaml --out {directory}{quoted}"


def _meta_html(directory: Path, frame: pd.DataFrame, report: Report) -> list[str]:
    h = html.escape
    made = (
        f"<p class='meta'>Written {h(report.made)} by lejepa-id {h(__version__)} from "
        f"<code>{h(str(directory))}</code>; the claims are also in "
        f"<code>{h(report.claims_path.name)}</code>.</p>"
    )
    cmds = "\n".join(commands(directory, frame, report))
    return [
        made,
        "<details class='commands' open><summary>Commands that made it</summary>"
        f"<pre>{h(cmds)}</pre></details>",
    ]


def _curves_html(frame: pd.DataFrame) -> list[str]:
    """Per experiment, the training curves of its finished runs (inline SVG), coloured by
    objective."""
    done = finished(frame)
    parts = []
    for experiment, rows in done.groupby("experiment") if not done.empty else []:
        paths = {str(r.run_id): Path(str(r.path)) for r in rows.itertuples()}
        runs = run_curves(paths)
        if not runs:
            continue
        mode = dict(zip(rows["run_id"].astype(str), rows["mode"]))
        colours = {name: MODE_COLORS.get(str(mode.get(name)), "0.4") for name in runs}
        svg = curves_svg(runs, colours, salt=str(experiment))
        if not svg:
            continue
        modes = sorted({str(mode[n]) for n in runs}, key=str)
        legend = ", ".join(
            # CSS knows no matplotlib names (tab:olive): the colour as hex.
            f"<span style='color:{to_hex(MODE_COLORS.get(m, '#666'))}'>■</span> "
            f"{html.escape(MODE_LABELS.get(m, m))}"
            for m in modes
        )
        parts.append(
            f"<figure class='curves'>{svg}<figcaption>{html.escape(str(experiment))}: "
            f"{plural(len(runs), 'run')}, one line each (x: optimizer step); {legend}."
            "</figcaption></figure>"
        )
    return (["<h2>Training curves</h2>", *parts]) if parts else []


def _runs_html(
    frame: pd.DataFrame, skipped: list[Path], reasons: dict[Path, str] | None = None
) -> list[str]:
    h = html.escape
    parts = ["<h2>Runs</h2>"]
    if frame.empty:
        return parts + ["<p>No runs found.</p>"] + _skipped_html(skipped, reasons or {})
    statuses = ["finished", "diverged", "failed"]
    counts = [
        [exp, *(str(int((sel["status"] == s).sum())) for s in statuses)]
        for exp, sel in frame.groupby("experiment")
    ]
    parts.append(html_table(["experiment", *statuses], counts))
    bad = frame[frame["status"] != "finished"]
    if not bad.empty:
        parts.append("<p>Runs not finished:</p><ul>")
        parts += [
            f"<li><code>{h(r.run_id)}</code> ({h(r.experiment)}): {h(r.status)}</li>"
            for r in bad.itertuples()
        ]
        parts.append("</ul>")
    parts += _skipped_html(skipped, reasons or {})
    done = finished(frame)
    if not done.empty:
        parts.append("<h2>Final metrics per run setting (mean over seeds)</h2>")
        # Many metric columns: the table scrolls inside its box, never the page.
        parts.append(f"<div class='scroll'>{html_table(*run_summary(done))}</div>")
        for experiment in sweeping(paper_worlds(done), "dim"):
            table = scaling_table(done, experiment)
            parts.append(
                f"<h2>Scaling table: {h(experiment)} (R²(h → z), mean ± std over seeds, "
                "next to the paper's)</h2>"
            )
            body = html_table(list(table.columns), table.astype(str).values.tolist())
            parts.append(f"<div class='scroll'>{body}</div>")
    return parts


def _skipped_html(skipped: list[Path], reasons: dict[Path, str]) -> list[str]:
    """The result files left out, each with why (a failed check, a hand edit)."""
    if not skipped:
        return []
    h = html.escape
    parts = [f"<p>Skipped ({len(skipped)} result files that failed their check, not counted):</p>"]
    parts.append("<ul>")
    for p in skipped:
        why = f": {h(reasons[p])}" if p in reasons else ""
        parts.append(f"<li><code>{h(str(p))}</code>{why}</li>")
    return parts + ["</ul>"]


def _img(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode()
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(path.stem)}">'


def _figure_html(index_path: Path, names: tuple[str, ...] | None = None) -> list[str]:
    """<figure> blocks for every PNG listed in a figures_index.json (or those ``names``)."""
    try:
        index = json.loads(index_path.read_text())
    except (OSError, ValueError):
        return []
    parts = []
    for entry in index.get("figures", []):
        png = index_path.parent / str(entry.get("png", ""))
        if names is not None and entry.get("name") not in names:
            continue
        if not entry.get("png") or not png.is_file():
            continue
        parts.append(
            f"<figure>{_img(png)}<figcaption>"
            f"{html.escape(str(entry.get('caption', '')))}</figcaption></figure>"
        )
    return parts


CSS = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; }
table { border-collapse: collapse; margin: 1em 0; font-size: .85em; max-width: 100%; }
th, td { border: 1px solid #ccc; padding: .25em .5em; text-align: left; vertical-align: top;
         overflow-wrap: anywhere; }
th { background: #f4f4f4; }
table.claims td:first-child { width: 45%; } table.claims td:last-child { width: 9em; }
.scroll { overflow-x: auto; max-width: 100%; }
.scroll td, .scroll th { white-space: nowrap; overflow-wrap: normal; }
figure { margin: 1.5em 0; } figure img, figure svg { max-width: 100%; height: auto; }
figcaption { font-size: .9em; color: #444; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f7f7f7; padding: .5em; }
code { overflow-wrap: anywhere; } dl { margin: .3em 0; } dt { font-weight: bold; }
dd { margin: 0 0 .3em 1em; }
.meta { color: #444; } ul.summary li { margin: .2em 0; }
.pass { color: #176b1d; font-weight: bold; } .fail { color: #b00020; font-weight: bold; }
.not-shown { color: #9a6700; font-weight: bold; } .not-measured { color: #777; }
.note { color: #9a6700; font-size: .9em; } details code { font-size: .8em; }
details.missing > summary { color: #555; cursor: pointer; }
.not-judged { color: #777; font-weight: bold; } .rule-reading { color: #777; font-weight: normal; }
.budget-note { color: #555; font-size: .9em; }
.wide { overflow-x: auto; max-width: 100%; } .wide table { min-width: 46em; }
/* A phone (390 px): each claim is a block of its three cells, each under its column's
   name, full width; never three columns a few letters wide. */
@media (max-width: 640px) {
  body { margin: 1em auto; padding: 0 .6em; }
  table.claims, table.claims tbody, table.claims tr, table.claims td { display: block; }
  table.claims td, table.claims td:first-child, table.claims td:last-child { width: auto; }
  table.claims thead { display: none; }
  table.claims tr { border: 1px solid #ccc; margin: 0 0 1em; }
  table.claims td { border: none; border-top: 1px solid #eee; overflow-wrap: break-word; }
  table.claims td code { overflow-wrap: anywhere; }
  table.claims td::before { display: block; color: #555; font-size: .8em; font-weight: normal; }
  table.claims td:nth-child(1)::before { content: "claim"; }
  table.claims td:nth-child(2)::before { content: "measured"; }
  table.claims td:nth-child(3)::before { content: "verdict"; }
}
"""


def render(directory: Path, figures_dir: Path, frame: pd.DataFrame, report: Report) -> str:
    """The HTML page as a string."""
    h = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        # A phone lays the page out at its own width (the narrow layout in CSS), not
        # at a desktop's 980 px shrunk to fit.
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>LeJEPA identifiability: sweep report</title>",
        f"<style>{CSS}</style></head><body>",
        "<h1>LeJEPA identifiability: sweep report</h1>",
    ]
    parts += _meta_html(directory, frame, report)
    parts += _summary_html(frame, report)
    parts += header_html(report.budget)
    parts += _claims_html(report.claims, report.notes, report.budget)
    parts += _curves_html(frame)
    parts += _runs_html(frame, report.skipped, report.reasons)
    figs = _figure_html(figures_dir / "figures_index.json")
    if figs:
        parts.append("<h2>Figures</h2>")
        parts += figs
    reacher = []
    for sub, names in REACHER_FIGURES:
        reacher += _figure_html(directory / sub / "figures_index.json", names)
    if reacher:
        parts.append("<h2>Reacher (pixels and planning)</h2>")
        parts += reacher
    labels = ", ".join(f"{k} = {v}" for k, v in MODE_LABELS.items())
    parts.append(f"<p><small>Objectives: {h(labels)}.</small></p>")
    # Marks how many images decoded and how wide the page lays out, so a headless
    # browser's DOM dump can prove both (no sideways scroll: scroll width <= window).
    parts.append(
        "<script>window.addEventListener('load', function () {"
        "var ok = Array.from(document.images).filter(function (i) {"
        "return i.complete && i.naturalWidth > 0; }).length;"
        "document.body.setAttribute('data-images-loaded', String(ok));"
        "document.body.setAttribute('data-scroll-width',"
        " String(document.documentElement.scrollWidth));"
        "document.body.setAttribute('data-window-width', String(window.innerWidth));"
        # The narrowest claims cell on screen (a folded table's are not): a column a few
        # letters wide is the squeeze a phone must not see.
        "var least = Infinity; Array.from(document.querySelectorAll('table.claims td'))"
        ".forEach(function (c) { var w = c.getBoundingClientRect().width;"
        " if (c.getClientRects().length) { least = Math.min(least, w); } });"
        "document.body.setAttribute('data-claims-min-cell',"
        " String(isFinite(least) ? Math.round(least) : -1)); });"
        "</script>"
    )
    parts.append("</body></html>")
    return "\n".join(parts)


def table_frame(directory: Path) -> pd.DataFrame:
    """The committed runs table of ``directory`` (runs.parquet, else runs.csv), for results
    kept without their weights; ``loss_plateau``, ``loss_plateau_mean`` and ``loss_end``
    filled from each run's result.json curves when the table predates the column."""
    import json

    from lejepa_id.analysis.convergence import end_loss, loss_plateau, mean_loss_plateau

    parquet, csv = directory / "runs.parquet", directory / "runs.csv"
    if parquet.is_file():
        frame = pd.read_parquet(parquet)
    elif csv.is_file():
        frame = pd.read_csv(csv)
    else:
        raise UsageError(f"--from-table: {str(directory)!r} holds no runs.parquet or runs.csv")
    for column, measure in (
        ("loss_plateau", loss_plateau),
        ("loss_plateau_mean", mean_loss_plateau),
        ("loss_end", end_loss),
    ):
        if column in frame.columns and not frame[column].isna().all():
            continue
        values = []
        for rel in frame.get("path", pd.Series([None] * len(frame))):
            path = Path(str(rel)) / "result.json" if rel else None
            if path is not None and not path.is_absolute() and not path.is_file():
                path = directory.parent.parent / path  # a path relative to the checkout
            try:
                curves = json.loads(path.read_text()).get("curves") if path else None
            except (OSError, ValueError):
                curves = None
            values.append(measure(curves))
        frame = frame.assign(**{column: values})
    return frame


# What makes two rows the same run: the device aside, the same configuration draws the
# same worlds and initializations, so a second copy is not a second seed.
SAME_RUN_COLUMNS = ["experiment", "run_id", "rho_list"] + [
    c for c in CONFIG_COLUMNS if c != "device"
]


def _key_part(value: Any) -> str:
    """A config value as text that a folder's column types cannot change: a key one
    folder leaves unset is None there and NaN beside another folder's numbers, and 2
    and 2.0 are one value."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        return repr(float(value))
    return str(value)


def with_runs(
    frame: pd.DataFrame, with_dirs: Sequence[str | Path]
) -> tuple[pd.DataFrame, list[str]]:
    """``frame`` and the runs of every results root in ``with_dirs`` as one table, and a
    note for each folder whose runs repeat ones already taken. A run held by more than
    one folder (same experiment, run id and configuration, the device aside: a folder
    named twice, or a run copied or retrained into a second folder) is counted once, from
    the first folder that holds it, so a repeat never passes for more seeds."""
    notes: list[str] = []
    combined = frame
    for other in with_dirs:
        extra = collect(other).frame
        if extra.empty:
            continue
        if combined.empty:
            combined = extra
            continue
        both = pd.concat([combined, extra], ignore_index=True, sort=False)
        keys = both.reindex(columns=SAME_RUN_COLUMNS).map(_key_part).agg("|".join, axis=1)
        repeated = keys.duplicated().to_numpy()[len(combined) :]
        if repeated.any():
            notes.append(
                f"--with {other}: {int(repeated.sum())} of its {len(extra)} runs repeat "
                "runs already taken (same experiment, run id and configuration) and are "
                "counted once"
            )
        combined = both[~keys.duplicated().to_numpy()].reset_index(drop=True)
    return combined, notes


def judge_folder(
    directory: Path, frame: pd.DataFrame
) -> tuple[list[Claim], list[str], dict[str, Any] | None]:
    """The claims of a results folder as its report states them: every registered claim on
    the synthetic runs of ``frame`` (another kind's rows are judged by their own files),
    the external claim files, and the folder's budget note on each."""
    claims, notes = collect_claims(directory, of_kind(frame, "synthetic"))
    budget = read_budget(directory)
    annotate(claims, budget)
    return claims, notes, budget


def write_report(
    directory: str | Path,
    out: str | Path | None = None,
    command: str = "",
    from_table: bool = False,
    with_dirs: Sequence[str | Path] = (),
) -> Report:
    """Write the HTML report (default DIR/report.html), claims.json and figures/ beside it.
    ``command``: the command line that asked for it, shown on the page (default
    ``lejepa-id report DIR``). ``from_table``: judge the committed runs table instead of
    the result files, and keep the figures already beside the page (results kept without
    their weights: the claims judged again, nothing retrained or redrawn). ``with_dirs``:
    other results roots whose runs are judged beside DIR's (a claim that pairs a new sweep
    with the runs of an earlier one); the figures stay DIR's own."""
    directory = Path(directory)
    for other in with_dirs:
        if not Path(other).is_dir():
            raise UsageError(f"--with {str(other)!r}: not a results folder (no such directory)")
    path = Path(out) if out is not None else directory / "report.html"
    if path.is_dir():
        raise UsageError(f"--out {str(path)!r} is a directory; give the HTML file's path")
    ensure_writable(path.parent)
    # Figures and claims.json go beside the page, so --out leaves DIR untouched.
    figures_dir = path.parent / "figures"
    if from_table:
        frame = table_frame(directory)
        made = Figures()
    else:
        made = make_figures(directory, figures_dir, formats=("png", "pdf"))
        frame = collect(directory).frame
    frame, repeats = with_runs(frame, with_dirs)
    claims, notes, budget = judge_folder(directory, frame)
    notes = repeats + notes
    report = Report(
        path,
        path.parent / "claims.json",
        claims,
        made.skipped,
        notes + made.notes,
        reasons=made.reasons,
        budget=budget,
        command=command,
        made=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    )
    write_claims(report.claims_path, claims)
    atomic_write_bytes(path, render(directory, figures_dir, frame, report).encode())
    return report
