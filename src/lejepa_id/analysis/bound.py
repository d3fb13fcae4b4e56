"""Theorem 3: the centered Procrustes error against the bound, and the lambda x rho grid.

Only runs the theorem covers are counted (``plotting.theorem_scope``: Gaussian latents,
lejepa or whiten). Other runs are drawn in grey, outside the count, so a reader sees
them without mistaking them for evidence.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from lejepa_id.analysis.plotting import (
    THEOREM_FILTER,
    ColourScale,
    Figures,
    annotate_cells,
    discrete_colours,
    legend_outside,
    named,
    plural,
    save,
    sweeping,
    theorem_scope,
)

FLOOR = 1e-8  # log axes: exact zeros are drawn at the floor
ERROR = "procrustes_mse_centered"
ERROR_LABEL = "centered Procrustes error\nmin_Q mean |(h − E h) − Q(z − E z)|²"
MARKERS = {"lejepa": "o", "whiten": "s", "infonce": "^"}


def split_scope(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(runs the theorem covers, other runs with finite bound quantities)."""
    if frame.empty:
        return frame, frame
    finite = np.isfinite(frame["approx_bound"]) & np.isfinite(frame[ERROR])
    scope = theorem_scope(frame)
    return frame[scope], frame[finite & ~scope]


def _scatter(ax, rows: pd.DataFrame, x: str, scale: ColourScale | None) -> None:
    """The runs as points: coloured by ρ on ``scale`` (counted runs), or grey and hollow
    (``scale`` None: outside the theorem's scope)."""
    for mode, part in rows.groupby("mode"):
        kw = dict(s=12, marker=MARKERS.get(str(mode), "o"))
        if scale is not None:
            ax.scatter(np.maximum(part[x], FLOOR), np.maximum(part[ERROR], FLOOR),
                       c=scale.codes(part["rho"]), cmap=scale.cmap, norm=scale.norm,
                       label=f"{mode} (counted)", **kw)  # fmt: skip
        else:
            ax.scatter(np.maximum(part[x], FLOOR), np.maximum(part[ERROR], FLOOR),
                       facecolors="none", edgecolors="grey", label=f"{mode}, outside scope",
                       **kw)  # fmt: skip


def fig_bound(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    """Error against the bound: counted runs coloured by rho, the others grey."""
    inside, outside = split_scope(frame)
    if inside.empty and outside.empty:
        return
    both = pd.concat([inside, outside])
    fig, ax = plt.subplots(figsize=(4.6, 4.0))
    scale = discrete_colours(inside["rho"])
    _scatter(ax, inside, "approx_bound", scale)
    _scatter(ax, outside, "approx_bound", None)
    lo = max(FLOOR, min(both["approx_bound"].min(), both[ERROR].min()) / 2)
    hi = max(both["approx_bound"].max(), both[ERROR].max()) * 2
    ax.plot([lo, hi], [lo, hi], color="k", lw=1, label="error = bound")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("Theorem-3 bound  D + (ε + D)²")
    ax.set_ylabel(ERROR_LABEL)
    below = int((inside[ERROR] <= inside["approx_bound"]).sum())
    ax.set_title(f"{below} of {plural(len(inside), 'run')} in scope below the bound", fontsize=9)
    _colorbar(fig, ax, inside, scale)
    legend_outside(fig, ax)
    fig.tight_layout()
    save(
        fig,
        out,
        "bound",
        f"Centered Procrustes error against the Theorem-3 bound. Counted (coloured by ρ): "
        f"{THEOREM_FILTER}; the theory puts them below the diagonal. Grey hollow: "
        f"{plural(len(outside), 'run')} outside the theorem's scope, drawn but not counted.",
        formats,
        made,
    )


def _colorbar(fig, ax, inside: pd.DataFrame, scale: ColourScale) -> None:
    """ρ's colour bar: one band and tick per ρ the counted runs have (a sweep's few
    values), a continuous bar over [0, 1] only for many. One ρ gets no bar (a quarter of
    the width for one colour): the value is written in the axes' corner instead."""
    if inside.empty:
        return
    if scale.values is not None and len(scale.values) == 1:
        ax.text(0.03, 0.97, f"ρ = {scale.values[0]:g}", transform=ax.transAxes,
                ha="left", va="top", fontsize=8)  # fmt: skip
        return
    scale.colorbar(fig, ax, "ρ (view correlation)")


def fig_bound_decomposition(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    """The error against each term of the bound: ε (whitening) and δ (alignment gap)."""
    inside, outside = split_scope(frame)
    if inside.empty and outside.empty:
        return
    fig, axes = plt.subplots(1, 2, figsize=(8.0, 3.6), sharey=True)
    scale = discrete_colours(inside["rho"])
    for ax, x, xlabel in (
        (axes[0], "epsilon", "ε = |Cov h − I|_F"),
        (axes[1], "delta", "alignment gap δ"),
    ):
        _scatter(ax, inside, x, scale)
        _scatter(ax, outside, x, None)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(f"{xlabel}  (zeros drawn at {FLOOR:g})")
    both = pd.concat([inside, outside])
    eps = np.geomspace(max(FLOOR, both["epsilon"].min()), max(both["epsilon"].max(), FLOOR), 50)
    axes[0].plot(eps, eps**2, color="k", lw=1, ls="--", label="bound at δ = 0: ε²")
    axes[0].set_ylabel(ERROR_LABEL)
    _colorbar(fig, axes[1], inside, scale)
    fig.tight_layout()
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3,
               frameon=False)  # fmt: skip
    save(
        fig,
        out,
        "bound_decomposition",
        "Centered Procrustes error against the two quantities of the Theorem-3 bound: ε "
        "(distance of Cov h from I) and δ (alignment gap). Coloured by ρ: runs in the "
        "theorem's scope; grey hollow: other runs, not counted. Dashed: the bound when δ = 0.",
        formats,
        made,
    )


GRID_HEATMAPS = {
    "grid_heatmap_r2_hz": ("grid_r2_hz", "grid R²(h → z)", "viridis"),
    "grid_heatmap_orth_err": ("grid_orth_err", "grid orthogonality error |AᵀA − I|_F", "magma_r"),
}


def fig_grid_heatmaps(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    """lambda x rho heatmaps of the grid metrics, mean over seeds, per grid experiment."""
    experiments = sweeping(frame, "lam", "rho")
    for experiment in experiments:
        rows = frame[frame["experiment"] == experiment]
        for base, (metric, label, cmap) in GRID_HEATMAPS.items():
            table = rows.pivot_table(index="rho", columns="lam", values=metric, aggfunc="mean")
            if table.empty or not np.isfinite(table.to_numpy(float)).any():
                made.notes.append(f"{experiment}: no {metric} (N = 2 only); no {base}")
                continue
            fig, ax = plt.subplots(
                figsize=(1.4 + 0.7 * table.shape[1], 1.1 + 0.45 * table.shape[0])
            )
            image = ax.imshow(table.to_numpy(float), cmap=cmap, aspect="auto", origin="lower")
            annotate_cells(ax, image, table.to_numpy(float), "{:.3g}", fontsize=8)
            ax.set_xticks(range(table.shape[1]), [f"{v:g}" for v in table.columns], rotation=45)
            ax.set_yticks(range(table.shape[0]), [f"{v:g}" for v in table.index])
            ax.set_xlabel("regularizer weight λ")
            ax.set_ylabel("view correlation ρ")
            fig.colorbar(image, ax=ax, label=f"{label}\n(mean over seeds)")
            fig.tight_layout()
            save(
                fig,
                out,
                named(base, experiment, experiments, "grid"),
                f"{experiment}: {label} on the fixed 100 × 100 grid, for each λ and ρ "
                "(mean over seeds; the number in each cell).",
                formats,
                made,
            )
