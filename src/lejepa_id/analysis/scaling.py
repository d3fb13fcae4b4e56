"""The scaling experiment: R^2(h -> z) and orthogonality against the latent dimension N."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from lejepa_id.analysis.latex import to_latex, to_markdown
from lejepa_id.analysis.plotting import (
    MODE_COLORS,
    MODE_LABELS,
    Figures,
    legend_outside,
    named,
    ordered_modes,
    paper_worlds,
    save,
    sweeping,
)
from lejepa_id.analysis.stats import fmt_mean_std
from lejepa_id.records.io import atomic_write_bytes

# Paper table columns per objective mode.
PAPER_COLUMNS = {"lejepa": "sigreg", "whiten": "vicreg", "infonce": "infonce"}


def paper_table() -> pd.DataFrame:
    """The paper's scaling table (mean and std over 5 seeds), shipped as package data."""
    with resources.files("lejepa_id.analysis").joinpath("paper_scaling_table.csv").open() as f:
        return pd.read_csv(f)


def _curves(ax_r2, ax_orth, sel: pd.DataFrame, mode: str) -> None:
    # Log axes cannot show mean +- std when std > mean: draw every seed as a dot and the
    # mean over seeds as the line.
    means = sel.groupby("dim")[["r2_hz", "orth_err_normalized"]].mean()
    color, label = MODE_COLORS.get(mode, "0.4"), MODE_LABELS.get(mode, mode)
    ax_r2.plot(means.index, 1 - means["r2_hz"], marker="o", ms=3, color=color, label=label)
    ax_r2.scatter(sel["dim"], 1 - sel["r2_hz"], s=6, color=color, alpha=0.4)
    ax_orth.plot(means.index, means["orth_err_normalized"], marker="o", ms=3, color=color)
    ax_orth.scatter(sel["dim"], sel["orth_err_normalized"], s=6, color=color, alpha=0.4)


PAPER_WORLD = {"mixing": "coupling", "layers": 4, "encoder": "matched", "law": "gaussian"}
"""The world of the paper's scaling table: its values stand beside runs of this world
only (a sweep over N of another mixing, a plugin's, gets no paper column or curve)."""


def in_paper_world(rows: pd.DataFrame) -> bool:
    """Whether every run is of :data:`PAPER_WORLD` (coupling L = 4, matched encoder,
    Gaussian latents)."""
    for key, value in PAPER_WORLD.items():
        if key not in rows.columns:
            return False
        column = pd.to_numeric(rows[key], errors="coerce") if key == "layers" else rows[key]
        if not (column == value).all():
            return False
    return True


def world_text(rows: pd.DataFrame) -> str:
    """``mixing shear`` (or ``mixing coupling, encoder mlp``): where the runs' world is
    not the paper's, for a caption."""
    parts = []
    for key in ("mixing", "encoder", "law"):
        if key in rows.columns:
            values = sorted({str(v) for v in rows[key].dropna()})
            if values and values != [str(PAPER_WORLD[key])]:
                parts.append(f"{key} {', '.join(values)}")
    return "; ".join(parts) or "another world"


def _no_paper(rows: pd.DataFrame) -> str:
    return (
        f" No paper values beside them: the runs' world ({world_text(rows)}) is not the "
        "paper's (coupling L = 4, matched encoder, Gaussian latents)."
    )


def fig_scaling(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    """1 - R^2(h -> z) and normalized orthogonality error against N, per objective."""
    paper = paper_table()
    experiments = sweeping(paper_worlds(frame), "dim")
    for experiment in experiments:
        rows = frame[frame["experiment"] == experiment]
        compared = in_paper_world(rows)
        fig, (ax_r2, ax_orth) = plt.subplots(1, 2, figsize=(8.4, 3.4))
        for mode in ordered_modes(rows["mode"]):
            sel = rows[rows["mode"] == mode]
            if sel.empty:
                continue
            _curves(ax_r2, ax_orth, sel, mode)
            # The paper's curve over the measured range only, for a like-for-like view.
            ref = paper[paper["N"] <= rows["dim"].max()]
            if mode not in PAPER_COLUMNS or not compared:  # not what the paper trained
                continue
            ax_r2.plot(ref["N"], 1 - ref[f"{PAPER_COLUMNS[mode]}_r2_hz_mean"], ls="--",
                       color=MODE_COLORS.get(mode, "0.4"), alpha=0.5, lw=1)  # fmt: skip
        base = rows.groupby("dim")["r2_xz"].mean()
        ax_r2.plot(base.index, 1 - base.values, marker="s", ms=3, color="grey",
                   label="mixing alone R²(x → z)")  # fmt: skip
        if compared:
            ax_r2.plot([], [], ls="--", color="k", alpha=0.5, label="paper (dashed)")
        for ax in (ax_r2, ax_orth):
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("latent dimension N")
        ax_r2.set_ylabel("1 − R²(h → z)  (lower is better)")
        ax_orth.set_ylabel("orthogonality error / √N")
        legend_outside(fig, ax_r2)
        fig.tight_layout()
        save(
            fig,
            out,
            named("scaling_r2_vs_n", experiment, experiments, "scaling"),
            f"{experiment}: unexplained variance 1 − R²(h → z) and the normalized "
            "orthogonality error |AᵀA − I|_F / √N against N (line: mean over seeds, dots: "
            "seeds)" + ("; dashed: the paper's values." if compared else "." + _no_paper(rows)),
            formats,
            made,
        )


def _paper(paper: pd.DataFrame, dim: int, prefix: str) -> str:
    if dim not in paper.index:
        return "–"
    mean, std = float(paper.loc[dim, f"{prefix}_mean"]), float(paper.loc[dim, f"{prefix}_std"])
    return fmt_mean_std(mean, std, 6)


def _stat(values: pd.Series, digits: int = 6) -> str:
    if not len(values):
        return "–"
    return fmt_mean_std(float(values.mean()), float(values.std()), digits)


def scaling_table(frame: pd.DataFrame, experiment: str) -> pd.DataFrame:
    """Mean ± std over seeds of R^2(h -> z) per N and objective, beside the paper's."""
    rows = frame[frame["experiment"] == experiment]
    paper = paper_table().set_index("N")
    compared = in_paper_world(rows)
    out = []
    for dim in sorted(rows["dim"].unique()):
        at = rows[rows["dim"] == dim]
        # The mixing baseline depends on (N, seed) only; count each seed once.
        line = {"N": int(dim), "mixing R²(x→z)": _stat(at.drop_duplicates("seed")["r2_xz"], 4)}
        if compared:
            line["mixing (paper)"] = _paper(paper, dim, "mixing_r2_xz")
        # In the paper's world its objectives always (beside its numbers), any other one
        # run here too; in another world the objectives run here only.
        shown = {*PAPER_COLUMNS, *rows["mode"]} if compared else set(rows["mode"])
        for mode in ordered_modes(shown):
            name = MODE_LABELS.get(mode, mode).split(" ")[0]
            line[name] = _stat(at[at["mode"] == mode]["r2_hz"])
            if mode in PAPER_COLUMNS and compared:
                line[f"{name} (paper)"] = _paper(paper, dim, f"{PAPER_COLUMNS[mode]}_r2_hz")
        out.append(line)
    return pd.DataFrame(out)


def objective_table(rows: pd.DataFrame, mode: str) -> pd.DataFrame:
    """One objective's rows per N: measured R^2 and orthogonality, the paper's R^2 (in
    the paper's world only)."""
    paper = paper_table().set_index("N")
    compared = in_paper_world(rows)
    out = []
    for dim in sorted(rows["dim"].unique()):
        at = rows[rows["dim"] == dim]
        line = {"N": int(dim), "seeds": int(at["seed"].nunique()), "R²(h→z)": _stat(at["r2_hz"])}
        if compared:
            line["R²(h→z),\npaper"] = (
                _paper(paper, dim, f"{PAPER_COLUMNS[mode]}_r2_hz") if mode in PAPER_COLUMNS else "–"
            )
        line["orth. error\n/ √N"] = _stat(at["orth_err_normalized"])
        # One world per seed: runs sharing a seed repeat its value, not a spread.
        line["mixing\nR²(x→z)"] = _stat(at.drop_duplicates("seed")["r2_xz"], 4)
        out.append(line)
    return pd.DataFrame(out)


def write_scaling_tables(frame: pd.DataFrame, out: Path, made: Figures) -> None:
    """``<exp>_table.md`` (all objectives) and ``tab_scaling_<objective>.tex`` per objective."""
    experiments = sweeping(paper_worlds(frame), "dim")
    for experiment in experiments:
        md = out / f"{experiment}_table.md"
        atomic_write_bytes(md, to_markdown(scaling_table(frame, experiment)).encode())
        made.written.append(md)
        rows = frame[frame["experiment"] == experiment]
        for mode in ordered_modes(rows["mode"]):
            sel = rows[(rows["mode"] == mode) & np.isfinite(rows["r2_hz"])]
            if sel.empty:
                continue
            name = named(f"tab_scaling_{mode}", experiment, experiments, "scaling")
            caption = (
                f"{experiment}, {MODE_LABELS.get(mode, mode)}: R²(h → z) and orthogonality error, "
                "mean ± std over seeds, next to the paper's R² (5 seeds, 20,000 steps)."
                if in_paper_world(rows)
                else f"{experiment}, {MODE_LABELS.get(mode, mode)}: R²(h → z) and "
                "orthogonality error, mean ± std over seeds." + _no_paper(rows)
            )
            path = out / f"{name}.tex"
            label = f"tab:{name.replace('_', '-')}"
            atomic_write_bytes(path, to_latex(objective_table(sel, mode), caption, label).encode())
            made.written.append(path)
            made.tables.append({"name": name, "caption": caption, "tex": path.name})
