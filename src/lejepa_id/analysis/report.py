"""One self-contained HTML report and ``claims.json``: claims, runs, tables, figures.

Claims come from :mod:`lejepa_id.analysis.synthetic_claims` and from the claims files
of other pipelines (``DIR/reacher/claims.json``, see :mod:`lejepa_id.analysis.claims`);
the page and ``claims.json`` show the same claims. Reacher figures are included when the
Reacher commands wrote ``DIR/reacher/figures/figures_index.json``.
"""

from __future__ import annotations

import base64
import html
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from lejepa_id.analysis.budget import annotate, header_html, read_budget
from lejepa_id.analysis.claims import Claim, collect_claims, write_claims
from lejepa_id.analysis.figures import make_figures
from lejepa_id.analysis.plotting import MODE_LABELS, finished, paper_worlds, sweeping
from lejepa_id.analysis.scaling import scaling_table
from lejepa_id.analysis.synthetic_claims import PROVIDERS
from lejepa_id.analysis.table import collect
from lejepa_id.errors import UsageError
from lejepa_id.metrics.registry import metric_infos
from lejepa_id.records.io import atomic_write_bytes
from lejepa_id.records.layout import ensure_writable

# Hyperparameters and the runs they apply to (blank elsewhere).
APPLIES = {
    "alpha": lambda r: r["law"] == "gennorm",
    "lam": lambda r: r["mode"] in ("lejepa", "whiten"),
    "sigma": lambda r: r["mode"] == "infonce",
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


def html_table(header: list[str], rows: list[list[str]], classes: list[str] | None = None) -> str:
    """A table with one header row; cells are escaped text."""
    h = html.escape
    out = ["<table><thead><tr>", *(f"<th>{h(c)}</th>" for c in header), "</tr></thead><tbody>"]
    for i, row in enumerate(rows):
        cls = f' class="{classes[i]}"' if classes else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{h(str(v))}</td>" for v in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _cell(value: object, digits: int = 6) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}g}"
    return str(value)


def run_summary(frame: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """Per run setting (seeds averaged): settings, seed count, mean metrics; blanks where
    a hyperparameter does not apply to the run (e.g. α for Gaussian latents)."""
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
        line += [_cell(float(sel[m].mean())) for m in metrics]
        body.append(line)
    return HEADER + [labels[m] for m in metrics], body


def _premises_html(c: Claim) -> str:
    """The claim's premises under its rule, and its notes (disclosed choices)."""
    h = html.escape
    items = [f"<li><b>{h(p['name'])}</b>: {h(p['statement'])}</li>" for p in c.premises]
    items += [f"<li>{h(n)}</li>" for n in c.notes]
    return f"<br><small>premises and notes:<ul>{''.join(items)}</ul></small>" if items else ""


def _claims_html(claims: list[Claim], notes: list[str]) -> list[str]:
    h = html.escape
    parts = [
        "<h2>Claims</h2><table><thead><tr><th>id</th><th>claim</th><th>metric</th>"
        "<th>filter</th><th>statistic and rule</th><th>measured</th><th>verdict</th>"
        "</tr></thead><tbody>"
    ]
    for c in claims:
        values = json.dumps(c.values, default=str)
        parts.append(
            f"<tr><td><code>{h(c.id)}</code><br><small>{h(c.source)}</small></td>"
            f"<td>{h(c.text)}</td><td>{h(c.metric)}</td><td>{h(c.filter)}</td>"
            f"<td>{h(c.statistic)}<br><small>{h(c.rule)}</small>{_premises_html(c)}</td>"
            f"<td>{h(c.summary)}<details><summary>values</summary><code>{h(values)}</code>"
            f'</details></td><td class="{h(c.verdict.replace(" ", "-"))}">{h(c.verdict)}'
            + (f"<br><small class='note'>{h(c.budget)}</small>" if c.budget else "")
            + "</td></tr>"
        )
    parts.append("</tbody></table>")
    parts += [f"<p class='note'>{h(n)}</p>" for n in notes]
    return parts


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
        parts.append(html_table(*run_summary(done)))
        for experiment in sweeping(paper_worlds(done), "dim"):
            table = scaling_table(done, experiment)
            parts.append(
                f"<h2>Scaling table: {h(experiment)} (R²(h → z), mean ± std over seeds, "
                "next to the paper's)</h2>"
            )
            parts.append(html_table(list(table.columns), table.astype(str).values.tolist()))
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
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; color: #222; }
h1 { font-size: 1.5em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; }
table { border-collapse: collapse; margin: 1em 0; font-size: .85em; }
th, td { border: 1px solid #ccc; padding: .25em .5em; text-align: left; }
th { background: #f4f4f4; }
figure { margin: 1.5em 0; } figure img { max-width: 100%; }
figcaption { font-size: .9em; color: #444; }
.pass { color: #176b1d; font-weight: bold; } .fail { color: #b00020; font-weight: bold; }
.not-shown { color: #9a6700; font-weight: bold; } .not-measured { color: #777; }
.note { color: #9a6700; font-size: .9em; } details code { font-size: .8em; }
"""


def render(directory: Path, figures_dir: Path, frame: pd.DataFrame, report: Report) -> str:
    """The HTML page as a string."""
    h = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>LeJEPA identifiability: sweep report</title>",
        f"<style>{CSS}</style></head><body>",
        "<h1>LeJEPA identifiability: sweep report</h1>",
        f"<p>Results directory: <code>{h(str(directory))}</code>. Claims also in "
        f"<code>{h(report.claims_path.name)}</code>.</p>",
    ]
    parts += header_html(report.budget)
    parts += _claims_html(report.claims, report.notes)
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
    # Marks how many images decoded, so a headless browser's DOM dump can prove it.
    parts.append(
        "<script>window.addEventListener('load', function () {"
        "var ok = Array.from(document.images).filter(function (i) {"
        "return i.complete && i.naturalWidth > 0; }).length;"
        "document.body.setAttribute('data-images-loaded', String(ok)); });</script>"
    )
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(directory: str | Path, out: str | Path | None = None) -> Report:
    """Write the HTML report (default DIR/report.html), claims.json and figures/ beside it."""
    directory = Path(directory)
    path = Path(out) if out is not None else directory / "report.html"
    if path.is_dir():
        raise UsageError(f"--out {str(path)!r} is a directory; give the HTML file's path")
    ensure_writable(path.parent)
    # Figures and claims.json go beside the page, so --out leaves DIR untouched.
    figures_dir = path.parent / "figures"
    made = make_figures(directory, figures_dir, formats=("png", "pdf"))
    frame = collect(directory).frame
    claims, notes = collect_claims(directory, finished(frame), PROVIDERS)
    budget = read_budget(directory)
    annotate(claims, budget)
    report = Report(
        path,
        path.parent / "claims.json",
        claims,
        made.skipped,
        notes + made.notes,
        reasons=made.reasons,
        budget=budget,
    )
    write_claims(report.claims_path, claims)
    atomic_write_bytes(path, render(directory, figures_dir, frame, report).encode())
    return report
