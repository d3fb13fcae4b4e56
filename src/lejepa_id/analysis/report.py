"""One self-contained HTML report: figures (embedded), tables and a claims checklist.

Each claim is one empirical prediction of the paper, checked on whatever runs the
results directory holds: it shows the measured number and ``pass``, ``fail``,
``partial`` (holds on the measured range, which is smaller than the claim's) or
``not measured`` (the data is absent). Reacher figures are included when the Reacher
commands wrote ``DIR/reacher/figures/figures_index.json``.
"""

from __future__ import annotations

import base64
import html
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from lejepa_id.analysis.figures import (
    MODE_LABELS,
    _sweeping,
    make_figures,
    mixing_label,
    scaling_table,
)
from lejepa_id.analysis.table import collect
from lejepa_id.io import atomic_write_bytes

# Thresholds of the checklist (documented in docs/sweeps.md).
GAP_TOLERANCE = 0.05  # median relative alignment gap delta / (2 (1 - rho) tr Cov)
SCALING_FLOOR = 0.999  # SIGReg and VICReg R^2(h -> z) must stay above this
SCALING_TARGET_N = 1024  # the largest N of the paper's claim
DEGRADE_MARGIN = 0.01  # InfoNCE must end at least this far below the regularized objectives


@dataclass
class Claim:
    """One line of the checklist."""

    text: str
    measured: str
    verdict: str  # pass, fail, partial, not measured


@dataclass
class Report:
    path: Path
    claims: list[Claim] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)


def claim_gap(frame: pd.DataFrame) -> Claim:
    text = "Alignment gap δ near 0 (LeJEPA and whitening runs)"
    rows = frame[frame["mode"].isin(["lejepa", "whiten"])]
    rows = rows[np.isfinite(rows["delta"]) & (rows["trace_cov"] > 0)]
    if rows.empty:
        return Claim(text, "no lejepa or whiten runs", "not measured")
    rel = rows["delta"] / (2 * (1 - rows["rho"]) * rows["trace_cov"])
    median = float(rel.median())
    measured = (
        f"median δ / (2(1−ρ) tr Cov h) = {median:.3g} over {len(rows)} runs "
        f"(max {float(rel.max()):.3g}); threshold {GAP_TOLERANCE}"
    )
    return Claim(text, measured, "pass" if median <= GAP_TOLERANCE else "fail")


def claim_alpha_peak(frame: pd.DataFrame) -> Claim:
    text = "R²(h → z) peaks at the Gaussian, α = 2 (SIGReg, per mixing)"
    experiments = _sweeping(frame, "alpha")
    rows = frame[frame["experiment"].isin(experiments) & (frame["mode"] == "lejepa")]
    if rows.empty:
        return Claim(text, "no sweep over α with lejepa runs", "not measured")
    rows = rows.assign(label=rows.apply(mixing_label, axis=1))
    peaks = {}
    for (experiment, label), sel in rows.groupby(["experiment", "label"]):
        means = sel.groupby("alpha")["r2_hz"].mean()
        peaks[f"{experiment}/{label}"] = float(means.idxmax())
    hits = sum(1 for v in peaks.values() if v == 2.0)
    detail = ", ".join(f"{k}: α={v:g}" for k, v in peaks.items())
    has_two = bool((rows["alpha"] == 2.0).any())
    measured = f"{hits} of {len(peaks)} series peak at α = 2 (argmax {detail})"
    if not has_two:
        return Claim(text, measured + "; α = 2 not in the sweep", "not measured")
    return Claim(text, measured, "pass" if hits == len(peaks) else "fail")


def claim_bound(frame: pd.DataFrame) -> Claim:
    text = "Procrustes error ≤ Theorem-3 bound on every run"
    rows = frame[np.isfinite(frame["approx_bound"]) & np.isfinite(frame["procrustes_mse_centered"])]
    if rows.empty:
        return Claim(text, "no finished runs with bound quantities", "not measured")
    # A relative slack of 1e-9 absorbs float rounding when both sides are ~0.
    ok = rows["procrustes_mse_centered"] <= rows["approx_bound"] * (1 + 1e-9) + 1e-12
    worst = (rows["procrustes_mse_centered"] / rows["approx_bound"].clip(lower=1e-300)).max()
    measured = (
        f"{int(ok.sum())} of {len(rows)} runs below the bound (largest error / bound = {worst:.3g})"
    )
    if not bool(ok.all()):
        # Name where violations sit: e.g. whitening leaves E[h] free, and the uncentered
        # Procrustes error then carries |E h|^2, which epsilon (a covariance) cannot see.
        by_mode = rows[~ok].groupby("mode").size()
        measured += "; above it: " + ", ".join(f"{n} {m}" for m, n in by_mode.items())
    return Claim(text, measured, "pass" if bool(ok.all()) else "fail")


def claim_scaling(frame: pd.DataFrame) -> Claim:
    text = (
        f"SIGReg and VICReg stay > {SCALING_FLOOR} up to N = {SCALING_TARGET_N} "
        "while InfoNCE degrades"
    )
    experiments = _sweeping(frame, "dim")
    rows = frame[frame["experiment"].isin(experiments)]
    modes = set(rows["mode"]) if not rows.empty else set()
    if not {"lejepa", "whiten", "infonce"} <= modes:
        return Claim(text, "no sweep over N with all three objectives", "not measured")
    means = rows.groupby(["mode", "dim"])["r2_hz"].mean()
    top = int(rows["dim"].max())
    low_sig = float(means["lejepa"].min())
    low_vic = float(means["whiten"].min())
    regs_at_top = min(
        float(means["lejepa"].get(top, np.nan)), float(means["whiten"].get(top, np.nan))
    )
    info_top = float(means["infonce"].get(top, np.nan))
    measured = (
        f"min over N of mean R²: SIGReg {low_sig:.6f}, VICReg {low_vic:.6f}; "
        f"at N = {top}: InfoNCE {info_top:.4f} vs regularized {regs_at_top:.6f}; "
        f"largest N measured {top}"
    )
    holds = (
        low_sig > SCALING_FLOOR
        and low_vic > SCALING_FLOOR
        and math.isfinite(info_top)
        and info_top < regs_at_top - DEGRADE_MARGIN
    )
    if not holds:
        return Claim(text, measured, "fail")
    return Claim(text, measured, "pass" if top >= SCALING_TARGET_N else "partial")


def claims(frame: pd.DataFrame) -> list[Claim]:
    return [claim_gap(frame), claim_alpha_peak(frame), claim_bound(frame), claim_scaling(frame)]


def _img(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode()
    return f'<img src="data:image/png;base64,{data}" alt="{html.escape(path.stem)}">'


def _figure_html(index_path: Path) -> list[str]:
    """<figure> blocks for every PNG listed in a figures_index.json."""
    try:
        index = json.loads(index_path.read_text())
    except (OSError, ValueError):
        return []
    parts = []
    for entry in index.get("figures", []):
        png = index_path.parent / str(entry.get("png", ""))
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
.partial { color: #9a6700; font-weight: bold; } .not-measured { color: #777; }
"""


def render(
    directory: Path,
    figures_dir: Path,
    frame: pd.DataFrame,
    skipped: list[Path],
    checklist: list[Claim],
) -> str:
    """The HTML page as a string."""
    h = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>LeJEPA identifiability: sweep report</title>",
        f"<style>{CSS}</style></head><body>",
        "<h1>LeJEPA identifiability: sweep report</h1>",
        f"<p>Results directory: <code>{h(str(directory))}</code>.</p>",
    ]
    parts.append(
        "<h2>Claims checklist</h2><table><tr><th>prediction</th><th>measured</th>"
        "<th>verdict</th></tr>"
    )
    for c in checklist:
        cls = c.verdict.replace(" ", "-")
        parts.append(
            f"<tr><td>{h(c.text)}</td><td>{h(c.measured)}</td>"
            f'<td class="{cls}">{h(c.verdict)}</td></tr>'
        )
    parts.append("</table>")
    parts.append("<h2>Runs</h2>")
    if frame.empty:
        parts.append("<p>No runs found.</p>")
    else:
        counts = frame.groupby(["experiment", "status"]).size().unstack(fill_value=0)
        parts.append(counts.to_html(border=0))
        bad = frame[frame["status"] != "finished"]
        if not bad.empty:
            parts.append("<p>Runs not finished:</p><ul>")
            parts += [
                f"<li><code>{h(r.run_id)}</code> ({h(r.experiment)}): {h(r.status)}</li>"
                for r in bad.itertuples()
            ]
            parts.append("</ul>")
    if skipped:
        parts.append("<p>Skipped (not valid result files, not counted):</p><ul>")
        parts += [f"<li><code>{h(str(p))}</code></li>" for p in skipped]
        parts.append("</ul>")
    finished = frame[frame["status"] == "finished"] if not frame.empty else frame
    if not finished.empty:
        parts.append("<h2>Final metrics per run (mean over seeds)</h2>")
        cols = [
            c
            for c in (
                "r2_hz",
                "r2_xz",
                "orth_err_normalized",
                "procrustes_mse_centered",
                "approx_bound",
            )
            if c in finished.columns
        ]
        keys = [
            k
            for k in ("experiment", "run", "dim", "alpha", "lam", "rho")
            if finished.groupby("experiment")[k].nunique().max() > 1 or k in ("experiment", "run")
        ]
        summary = finished.groupby(keys)[cols].mean().reset_index()
        parts.append(summary.to_html(index=False, border=0, float_format=lambda v: f"{v:.6g}"))
    for experiment in _sweeping(finished, "dim") if not finished.empty else []:
        parts.append(
            f"<h2>Scaling table: {h(experiment)} (R²(h → z), mean ± std over seeds,"
            " next to the paper's)</h2>"
        )
        parts.append(scaling_table(finished, experiment).to_html(index=False, border=0))
    figs = _figure_html(figures_dir / "figures_index.json")
    if figs:
        parts.append("<h2>Figures</h2>")
        parts += figs
    reacher = _figure_html(directory / "reacher" / "figures" / "figures_index.json")
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
    """Draw the figures (PNG) under DIR/figures and write the HTML report."""
    directory = Path(directory)
    figures_dir = directory / "figures"
    made = make_figures(directory, figures_dir, formats=("png", "pdf"))
    frame = collect(directory).frame
    finished = frame[frame["status"] == "finished"] if not frame.empty else frame
    checklist = (
        claims(finished)
        if not finished.empty
        else [
            Claim(text, "no finished runs", "not measured")
            for text in (
                "Alignment gap δ near 0",
                "R²(h → z) peaks at the Gaussian, α = 2",
                "Procrustes error ≤ Theorem-3 bound on every run",
                f"SIGReg and VICReg stay > {SCALING_FLOOR} up to N = {SCALING_TARGET_N} "
                "while InfoNCE degrades",
            )
        ]
    )
    path = Path(out) if out is not None else directory / "report.html"
    page = render(directory, figures_dir, frame, made.skipped, checklist)
    atomic_write_bytes(path, page.encode())
    return Report(path, checklist, made.skipped)
