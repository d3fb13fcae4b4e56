"""The paper's figures and tables, drawn from whatever a results directory holds.

Each figure is chosen by the data's shape, not only by experiment name, so a partial
or a user's own sweep gets the figures that fit it. Names are fixed so scripts can find
them (the paper's sweep gets the plain name, another experiment of the same shape gets
``<name>_<experiment>``):

- ``<exp>_panels``: runs with a saved scatter (N = 2);
- ``gennorm_r2_vs_alpha``, ``gennorm_orth_vs_alpha``: experiments sweeping alpha;
- ``ablation_<mixing>`` and ``tab_ablation.tex``: settings run under several laws;
- ``grid_heatmap_r2_hz``, ``grid_heatmap_orth_err``: experiments sweeping lambda and rho;
- ``bound``, ``bound_decomposition``: every run with bound quantities (Theorem 3);
- ``scaling_r2_vs_n``, ``tab_scaling_<objective>.tex``: experiments sweeping N;
- ``scatter_losses_r2``: every finished run;
- ``anisotropic_<run>``, ``codedim_r2_vs_m``, ``action_lqr``: the beyond-the-paper worlds
  (:mod:`lejepa_id.analysis.beyond`).

``figures_index.json`` lists what was drawn, with captions, for the report.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator
from safetensors import SafetensorError

from lejepa_id.analysis.ablation import ablation_runs, fig_ablation, write_ablation_table
from lejepa_id.analysis.beyond import fig_action, fig_anisotropic, fig_codedim
from lejepa_id.analysis.bound import fig_bound, fig_bound_decomposition, fig_grid_heatmaps
from lejepa_id.analysis.gennorm import fig_vs_alpha
from lejepa_id.analysis.plotting import (
    MODE_LABELS,
    Figures,
    finished,
    ordered_labels,
    ordered_modes,
    save,
    with_labels,
)
from lejepa_id.analysis.scaling import fig_scaling, write_scaling_tables
from lejepa_id.analysis.table import collect
from lejepa_id.errors import UsageError
from lejepa_id.records.io import atomic_write_json, load_tensors
from lejepa_id.records.layout import ensure_writable

SCATTER_POINTS = 6000  # points drawn per panel (of the 100,000 saved): enough to see shape


def read_scatter(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(z, x, h) of a run's scatter file, or None when it is missing, corrupt or not
    three (n, 2) arrays (a truncated or foreign file is skipped with a note)."""
    try:
        data = load_tensors(path)
        z, x, h = (data[k].float().numpy() for k in ("z", "x", "h"))
        arrays = (z, x, h)
    except (OSError, KeyError, SafetensorError):
        return None
    n = arrays[0].shape[0] if arrays[0].ndim == 2 else -1
    if n < 1 or any(a.shape != (n, 2) for a in arrays):
        return None
    return arrays


def square_panel(ax) -> None:
    """One unit on x as long as one on y, with a few labelled ticks: a code that is a
    rotation of the latents must look round, not stretched by the axes' box."""
    ax.set_aspect("equal", adjustable="datalim")
    ax.xaxis.set_major_locator(MaxNLocator(3))
    ax.yaxis.set_major_locator(MaxNLocator(3))
    ax.tick_params(labelsize=7)


def fig_panels(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    """Per experiment with scatters: rows = mixings, columns = z, x, then h per objective."""
    rows = frame[(frame["dim"] == 2) & (frame["scatter"] > 0)]
    for experiment, exp_rows in rows.groupby("experiment"):
        exp_rows = with_labels(exp_rows)
        labels = ordered_labels(exp_rows)
        modes = ordered_modes(exp_rows["mode"])
        fig, axes = plt.subplots(
            len(labels),
            2 + len(modes),
            figsize=(2.3 * (2 + len(modes)), 2.3 * len(labels)),
            squeeze=False,
        )
        for i, label in enumerate(labels):
            for j, mode in enumerate(modes):
                pick = exp_rows[(exp_rows["label"] == label) & (exp_rows["mode"] == mode)]
                ax = axes[i, 2 + j]
                if pick.empty:
                    ax.set_axis_off()
                    continue
                run = pick.sort_values(["seed", "law", "alpha"]).iloc[0]
                scatter = read_scatter(Path(run["path"]) / "scatter.safetensors")
                if scatter is None:
                    made.notes.append(f"no readable scatter in {run['path']}")
                    continue
                z, x, h = (a[:SCATTER_POINTS] for a in scatter)
                color = np.arctan2(z[:, 1], z[:, 0])
                if j == 0:
                    for k, (arr, name) in enumerate(((z, "latents z"), (x, "observations x"))):
                        axes[i, k].scatter(
                            arr[:, 0], arr[:, 1], c=color, s=1, cmap="hsv", rasterized=True
                        )
                        square_panel(axes[i, k])
                        if i == 0:
                            axes[i, k].set_title(name, fontsize=9)
                    axes[i, 0].set_ylabel(label)
                ax.scatter(h[:, 0], h[:, 1], c=color, s=1, cmap="hsv", rasterized=True)
                square_panel(ax)
                ax.set_title(
                    f"{MODE_LABELS.get(mode, mode)}\nR² = {run['r2_hz']:.4f}"
                    if i == 0
                    else f"R² = {run['r2_hz']:.4f}",
                    fontsize=8,
                )
        fig.suptitle(
            f"{experiment}: latents, observations and learned codes (colour = latent angle)",
            fontsize=10,
        )
        fig.tight_layout()
        save(
            fig,
            out,
            f"{experiment}_panels",
            f"{experiment}: for each mixing, the latents z, the observations x = g(z) and "
            "the codes h(x) of each objective (first seed), coloured by the latent angle. "
            "Identifiability means h is a rotation of z.",
            formats,
            made,
        )


# --- final losses against R^2 ------------------------------------------------------------


def fig_losses(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    """Rows = objectives, columns = the loss and its terms, y = R^2(h -> z), every run."""
    modes = ordered_modes(frame["mode"])
    terms = {
        m: [
            c
            for c in frame.columns
            if c.startswith("final_")
            and c != "final_loss_last100"
            and np.isfinite(frame.loc[frame["mode"] == m, c].astype(float)).any()
        ]
        for m in modes
    }
    width = max((len(t) for t in terms.values()), default=0)
    if not modes or width == 0:
        return
    fig, axes = plt.subplots(
        len(modes), width, figsize=(2.8 * width, 2.5 * len(modes)), squeeze=False
    )
    colors = {exp: f"C{k % 10}" for k, exp in enumerate(sorted(set(frame["experiment"])))}
    for i, mode in enumerate(modes):
        rows = frame[frame["mode"] == mode]
        for j in range(width):
            ax = axes[i, j]
            if j >= len(terms[mode]):
                ax.set_axis_off()
                continue
            col = terms[mode][j]
            for exp, sel in rows.groupby("experiment"):
                ax.scatter(sel[col], sel["r2_hz"], s=8, color=colors[exp], alpha=0.7, label=exp)
            ax.xaxis.set_major_locator(MaxNLocator(4))
            ax.set_xlabel(f"final {col.removeprefix('final_')}")
            ax.set_ylabel(f"R²(h → z), {MODE_LABELS.get(mode, mode).split(' ')[0]}")
    fig.tight_layout()
    handles = [plt.Line2D([], [], ls="", marker="o", color=c, label=e) for e, c in colors.items()]
    fig.legend(handles=handles, title="experiment", loc="center left",
               bbox_to_anchor=(1.0, 0.5), frameon=False)  # fmt: skip
    save(
        fig,
        out,
        "scatter_losses_r2",
        "Final training loss and each of its terms (last evaluation) against R²(h → z), "
        "one point per finished run, coloured by experiment; one row per objective.",
        formats,
        made,
    )


# File types the figures are written in (matplotlib's vector and raster backends).
FORMATS = ("png", "pdf", "svg")


def check_formats(formats: tuple[str, ...]) -> tuple[str, ...]:
    """The figure file types asked for, or a one-line UsageError naming the bad one."""
    chosen = tuple(f.strip().lower() for f in formats)
    bad = [f for f in chosen if f not in FORMATS]
    if bad or not chosen:
        raise UsageError(
            f"--formats {','.join(formats)!r}: choose one or more of {', '.join(FORMATS)}, "
            "comma-separated"
        )
    return tuple(dict.fromkeys(chosen))


def make_figures(
    directory: str | Path, out: str | Path | None = None, formats: tuple[str, ...] = ("png", "pdf")
) -> Figures:
    """Draw every figure and table the results under ``directory`` support."""
    formats = check_formats(formats)
    table = collect(directory)
    out_dir = ensure_writable(Path(out) if out is not None else Path(directory) / "figures")
    made = Figures(skipped=list(table.skipped), reasons=dict(table.reasons))
    frame = finished(table.frame)
    if frame.empty:
        made.notes.append(f"no finished runs under {directory}; nothing to draw")
    else:
        fig_panels(frame, out_dir, formats, made)
        fig_vs_alpha(frame, out_dir, formats, made)
        ablation = ablation_runs(frame)
        fig_ablation(ablation, out_dir, formats, made)
        write_ablation_table(ablation, out_dir, made)
        fig_grid_heatmaps(frame, out_dir, formats, made)
        fig_bound(frame, out_dir, formats, made)
        fig_bound_decomposition(frame, out_dir, formats, made)
        fig_scaling(frame, out_dir, formats, made)
        write_scaling_tables(frame, out_dir, made)
        fig_losses(frame, out_dir, formats, made)
        fig_anisotropic(frame, out_dir, formats, made)
        fig_codedim(frame, out_dir, formats, made)
        fig_action(frame, out_dir, formats, made)
    index = out_dir / "figures_index.json"
    atomic_write_json(index, {"figures": made.entries, "tables": made.tables})
    made.written.append(index)
    return made
