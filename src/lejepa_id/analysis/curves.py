"""Training curves of a run or of every run under a folder, drawn into one PNG, PDF or
SVG (the ``--out`` suffix; and, for
the report, small inline SVGs per experiment: :func:`curves_svg`).

``lejepa-id curves DIR`` reads each finished run's ``result.json`` (its ``curves``)
and, for a run still training, the ``curves.csv`` that ``--logger csv`` keeps up to
date. DIR may be one run's folder, an experiment's folder or a whole results root.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless; must precede the pyplot import
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from lejepa_id.errors import UsageError  # noqa: E402
from lejepa_id.records.io import atomic_write_bytes  # noqa: E402
from lejepa_id.records.result import RESULT_FILE, curves_frame  # noqa: E402

DEFAULT_METRICS = ("loss", "r2_hz", "orth_err", "alignment", "sigreg", "lr")
"""Panels drawn when ``--metrics`` is not given (those the runs have)."""
CURVES_CSV = "curves.csv"
MAX_LEGEND = 12
FORMATS = ("png", "pdf", "svg")
"""Files ``curves --out`` writes, chosen by the suffix (matplotlib's format names)."""
"""More runs than this are drawn without a legend (one colour per run still)."""


@dataclass
class Curves:
    """The runs found under a folder: name -> curves as a DataFrame (one row per
    evaluation, or per epoch of a Reacher run)."""

    runs: dict[str, pd.DataFrame] = field(default_factory=dict)
    running: set[str] = field(default_factory=set)
    skipped: list[Path] = field(default_factory=list)


def collect_curves(directory: str | Path) -> Curves:
    """Every run's curves under ``directory`` (a run folder, or any folder above runs);
    corrupt files are listed in ``skipped``."""
    root = Path(directory)
    if not root.is_dir():
        raise UsageError(f"results directory {str(directory)!r} does not exist")
    found = Curves()
    results = sorted(root.rglob(RESULT_FILE))
    finished = {p.parent for p in results}
    for path in results:
        frame = _result_curves(path)
        if frame is None:
            found.skipped.append(path)
            continue
        if not frame.empty:
            found.runs[_name(root, path.parent)] = frame
    for path in sorted(root.rglob(CURVES_CSV)):
        if path.parent in finished:
            continue
        try:
            frame = pd.read_csv(path)
        except (OSError, ValueError):
            found.skipped.append(path)
            continue
        if not frame.empty:
            name = _name(root, path.parent)
            found.runs[name] = frame
            found.running.add(name)
    return found


def _result_curves(path: Path) -> pd.DataFrame | None:
    """The curves of a result file, or None where it is unreadable or its ``curves`` is
    not a table (``null``, a list, columns that are not lists)."""
    try:
        data = json.loads(path.read_text())
        curves = data["curves"]
        if not isinstance(curves, dict) or not all(isinstance(v, list) for v in curves.values()):
            return None
        return curves_frame(curves)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _name(root: Path, run: Path) -> str:
    rel = run.relative_to(root)
    return str(rel) if rel.parts else run.name


def plot_curves(
    directory: str | Path,
    out: str | Path | None = None,
    metrics: list[str] | None = None,
) -> tuple[Path, Curves]:
    """Draw one panel per metric (x: optimizer step), one line per run; returns the
    figure's path (default ``DIR/curves.png``; a ``.pdf`` or ``.svg`` ``out`` is written
    in that format) and what was read."""
    path = Path(out) if out is not None else Path(directory) / "curves.png"
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise UsageError(
            f"--out {str(path)!r}: the suffix must be one of "
            f"{', '.join('.' + f for f in FORMATS)} (the figure's format)"
        )
    found = collect_curves(directory)
    if not found.runs:
        raise UsageError(
            f"no training curves under {str(directory)!r}: it holds no {RESULT_FILE} "
            f"with curves and no {CURVES_CSV}"
        )
    available = sorted({c for f in found.runs.values() for c in f.columns if c != "step"})
    if metrics:
        unknown = [m for m in metrics if m not in available]
        if unknown:
            raise UsageError(
                f"--metrics {unknown[0]!r} is not in these curves; allowed: {', '.join(available)}"
            )
        panels = list(dict.fromkeys(metrics))
    else:
        panels = [m for m in DEFAULT_METRICS if m in available] or available[:4]
    fig = _figure(found, panels)
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=120)
    plt.close(fig)
    atomic_write_bytes(path, buffer.getvalue())
    return path, found


def _figure(found: Curves, panels: list[str]) -> plt.Figure:
    cols = min(3, len(panels))
    rows = -(-len(panels) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    colours = plt.get_cmap("viridis" if len(found.runs) > 10 else "tab10")
    names = sorted(found.runs)
    for ax, metric in zip(axes.flat, panels):
        for i, name in enumerate(names):
            frame = found.runs[name]
            if metric not in frame.columns:
                continue
            x = frame["step"] if "step" in frame.columns else np.arange(1, len(frame) + 1)
            y = pd.to_numeric(frame[metric], errors="coerce")
            keep = np.isfinite(y.to_numpy(dtype=float))
            label = f"{name} (running)" if name in found.running else name
            colour = colours(i / max(len(names) - 1, 1)) if len(names) > 10 else colours(i % 10)
            # Metrics computed only at the end are a single point: draw it visibly.
            ax.plot(
                x[keep],
                y[keep],
                marker="o" if keep.sum() == 1 else None,
                color=colour,
                label=label,
                lw=1.2,
                ms=4,
            )
        ax.set_title(metric)
        ax.set_xlabel("step")
        if metric in ("loss", "sigreg", "alignment") and _positive(found, metric):
            ax.set_yscale("log")
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    count = f"{len(names)} run" + ("s" if len(names) != 1 else "")
    if len(names) <= MAX_LEGEND:
        handles, labels = axes.flat[0].get_legend_handles_labels()
        fig.legend(
            handles, labels, loc="lower center", ncol=min(len(names), 3), fontsize=8, frameon=False
        )
        fig.suptitle(f"training curves, {count}")
        fig.tight_layout(rect=(0, 0.04 + 0.03 * -(-len(names) // 3), 1, 1))
    else:
        fig.suptitle(f"training curves, {count} (one colour per run, no legend)")
        fig.tight_layout()
    return fig


def _positive(found: Curves, metric: str) -> bool:
    values = np.concatenate(
        [
            pd.to_numeric(f[metric], errors="coerce").to_numpy(dtype=float)
            for f in found.runs.values()
            if metric in f.columns
        ]
    )
    values = values[np.isfinite(values)]
    return values.size > 0 and bool((values > 0).all())


REPORT_PANELS = (("loss", "training loss", True), ("r2_hz", "R²(h → z)", False))
"""The report's curve panels: (metric, label, log scale)."""


def run_curves(paths: dict[str, Path]) -> dict[str, pd.DataFrame]:
    """The curves of the runs at ``paths`` (name -> run folder); a run whose result file
    is unreadable or holds no curves is left out."""
    out = {}
    for name, folder in paths.items():
        frame = _result_curves(Path(folder) / RESULT_FILE)
        if frame is not None and not frame.empty and "step" in frame.columns:
            out[name] = frame
    return out


def curves_svg(runs: dict[str, pd.DataFrame], colours: dict[str, str], salt: str) -> str:
    """A small inline SVG of training curves for the report: one panel per metric of
    :data:`REPORT_PANELS` the runs have, one thin line per run coloured by ``colours``
    (run name -> colour). ``salt`` makes the SVG's element ids unique on the page."""
    panels = [p for p in REPORT_PANELS if any(p[0] in f.columns for f in runs.values())]
    if not panels:
        return ""
    with plt.rc_context({"svg.hashsalt": salt, "svg.fonttype": "none", "font.size": 8}):
        fig, axes = plt.subplots(1, len(panels), figsize=(3.2 * len(panels), 2.1), squeeze=False)
        for ax, (metric, label, log) in zip(axes[0], panels):
            positive = True
            for name, frame in sorted(runs.items()):
                if metric not in frame.columns:
                    continue
                y = pd.to_numeric(frame[metric], errors="coerce").to_numpy(dtype=float)
                keep = np.isfinite(y)
                positive &= bool((y[keep] > 0).all())
                ax.plot(frame["step"].to_numpy()[keep], y[keep], lw=0.8, alpha=0.7,
                        color=colours.get(name, "0.4"))  # fmt: skip
            if log and positive:
                ax.set_yscale("log")
            ax.set_xlabel("step")
            ax.set_ylabel(label)
        fig.tight_layout()
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None})
        plt.close(fig)
    text = buffer.getvalue()
    # Inline: drop the XML prolog and doctype; the page's CSS sizes the <svg>.
    return text[text.index("<svg") :]
