"""The paper's figures and tables, drawn from whatever a results directory holds.

Each figure is chosen by the data's shape, not by experiment name, so a user's own
sweep gets the figures that fit it: runs with a saved scatter get the 2D panel grid; an
experiment sweeping ``alpha`` gets R^2 vs alpha; one sweeping ``dim`` gets R^2 and
orthogonality vs N and the scaling table next to the paper's; every finished run is a
point of the empirical error vs Theorem-3 bound plot. ``figures_index.json`` lists what
was drawn, with captions, for the report.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless; must precede the pyplot import
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from lejepa_id.analysis.table import collect  # noqa: E402
from lejepa_id.io import atomic_write_bytes, atomic_write_json, load_tensors  # noqa: E402

MODE_LABELS = {"lejepa": "SIGReg (LeJEPA)", "whiten": "VICReg (whiten)", "infonce": "InfoNCE"}
MODE_COLORS = {"lejepa": "tab:blue", "whiten": "tab:green", "infonce": "tab:red"}
MODE_ORDER = ("lejepa", "whiten", "infonce")
# Paper table columns per objective mode.
PAPER_COLUMNS = {"lejepa": "sigreg", "whiten": "vicreg", "infonce": "infonce"}
MIXING_ORDER = ("spiral", "banana", "sinusoid", "nvp")
SCATTER_POINTS = 6000  # points drawn per panel (of the 100,000 saved): enough to see shape


@dataclass
class Figures:
    """What :func:`make_figures` produced."""

    entries: list[dict] = field(default_factory=list)
    tables: list[dict] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def mixing_label(row: pd.Series) -> str:
    """spiral, banana, sinusoid, or nvp / coupling-L for the coupling mixing."""
    if row["mixing"] == "coupling":
        return "nvp" if int(row["dim"]) == 2 else f"coupling L={int(row['layers'])}"
    return str(row["mixing"])


def _save(fig, out: Path, name: str, caption: str, formats: tuple[str, ...], made: Figures):
    entry = {"name": name, "caption": caption}
    for fmt in formats:
        path = out / f"{name}.{fmt}"
        fig.savefig(path, dpi=110, bbox_inches="tight")
        entry[fmt] = path.name
        made.written.append(path)
    plt.close(fig)
    made.entries.append(entry)


def _ordered_labels(rows: pd.DataFrame) -> list[str]:
    """Mixing labels in the paper's order (spiral, banana, sinusoid, nvp), others after."""
    labels = sorted(set(rows["label"]))
    rank = {name: i for i, name in enumerate(MIXING_ORDER)}
    return sorted(labels, key=lambda x: (rank.get(x, len(rank)), x))


def _finished(frame: pd.DataFrame) -> pd.DataFrame:
    if frame.empty:
        return frame
    return frame[frame["status"] == "finished"].copy()


def _sweeping(frame: pd.DataFrame, column: str) -> list[str]:
    """Experiments whose finished runs take more than one value of ``column``."""
    if frame.empty:
        return []
    counts = frame.groupby("experiment")[column].nunique()
    return sorted(counts[counts > 1].index)


# --- 2D panel grid ----------------------------------------------------------------------


def fig_panels(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    """Per experiment with scatters: rows = mixings, columns = z, x, then h per objective."""
    rows = frame[(frame["dim"] == 2) & (frame["scatter"] > 0)]
    for experiment, exp_rows in rows.groupby("experiment"):
        exp_rows = exp_rows.assign(label=exp_rows.apply(mixing_label, axis=1))
        labels = _ordered_labels(exp_rows)
        modes = [m for m in MODE_ORDER if m in set(exp_rows["mode"])]
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
                ax.set_xticks([])
                ax.set_yticks([])
                if pick.empty:
                    ax.set_axis_off()
                    continue
                run = pick.sort_values(["seed", "law", "alpha"]).iloc[0]
                try:
                    data = load_tensors(Path(run["path"]) / "scatter.safetensors")
                except (OSError, ValueError, RuntimeError):
                    made.notes.append(f"no readable scatter in {run['path']}")
                    continue
                z, x, h = (data[k].numpy()[:SCATTER_POINTS] for k in ("z", "x", "h"))
                color = np.arctan2(z[:, 1], z[:, 0])
                if j == 0:
                    for k, (arr, name) in enumerate(((z, "latents z"), (x, "observations x"))):
                        axes[i, k].scatter(
                            arr[:, 0], arr[:, 1], c=color, s=1, cmap="hsv", rasterized=True
                        )
                        axes[i, k].set_xticks([])
                        axes[i, k].set_yticks([])
                        if i == 0:
                            axes[i, k].set_title(name, fontsize=9)
                    axes[i, 0].set_ylabel(label)
                ax.scatter(h[:, 0], h[:, 1], c=color, s=1, cmap="hsv", rasterized=True)
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
        _save(
            fig,
            out,
            f"{experiment}_panels",
            f"{experiment}: for each mixing, the latents z, the observations x = g(z) and "
            "the codes h(x) of each objective (first seed), coloured by the latent angle. "
            "Identifiability means h is a rotation of z.",
            formats,
            made,
        )


# --- R^2 vs alpha -----------------------------------------------------------------------


def fig_alpha(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    """R^2(h -> z) against the gennorm shape alpha, per mixing and objective."""
    for experiment in _sweeping(frame, "alpha"):
        rows = frame[frame["experiment"] == experiment]
        rows = rows.assign(label=rows.apply(mixing_label, axis=1))
        labels = _ordered_labels(rows)
        fig, axes = plt.subplots(
            1, len(labels), figsize=(3.4 * len(labels), 3.2), squeeze=False, sharey=True
        )
        for ax, label in zip(axes[0], labels):
            for mode in MODE_ORDER:
                sel = rows[(rows["label"] == label) & (rows["mode"] == mode)]
                if sel.empty:
                    continue
                stats = sel.groupby("alpha")["r2_hz"].agg(["mean", "std"]).sort_index()
                ax.errorbar(
                    stats.index,
                    stats["mean"],
                    yerr=stats["std"].fillna(0),
                    marker="o",
                    ms=3,
                    capsize=2,
                    color=MODE_COLORS[mode],
                    label=MODE_LABELS[mode],
                )
            ax.axvline(2.0, color="grey", ls=":", lw=1)
            ax.set_xscale("log", base=2)
            ax.set_title(label)
            ax.set_xlabel("gennorm shape α (2 = Gaussian)")
        axes[0, 0].set_ylabel("R²(h → z)")
        axes[0, -1].legend(fontsize=7)
        fig.tight_layout()
        _save(
            fig,
            out,
            f"{experiment}_r2_vs_alpha",
            f"{experiment}: R²(h → z) against the latent law's shape α (mean ± std over "
            "seeds). The theory predicts the peak at the Gaussian, α = 2 (dotted).",
            formats,
            made,
        )


# --- scaling ----------------------------------------------------------------------------


def paper_table() -> pd.DataFrame:
    """The paper's scaling table (mean and std over 5 seeds), shipped as package data."""
    with resources.files("lejepa_id.analysis").joinpath("paper_scaling_table.csv").open() as f:
        return pd.read_csv(f)


def fig_scaling(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    """R^2(h -> z) and normalized orthogonality error against N, per objective."""
    paper = paper_table()
    for experiment in _sweeping(frame, "dim"):
        rows = frame[frame["experiment"] == experiment]
        fig, (ax_r2, ax_orth) = plt.subplots(1, 2, figsize=(9, 3.4))
        for mode in MODE_ORDER:
            sel = rows[rows["mode"] == mode]
            if sel.empty:
                continue
            # Log axes cannot show mean +- std when std > mean: draw every seed as a dot
            # and the mean over seeds as the line.
            means = sel.groupby("dim")[["r2_hz", "orth_err_normalized"]].mean()
            color = MODE_COLORS[mode]
            ax_r2.plot(
                means.index,
                1 - means["r2_hz"],
                marker="o",
                ms=3,
                color=color,
                label=MODE_LABELS[mode],
            )
            ax_r2.scatter(sel["dim"], 1 - sel["r2_hz"], s=6, color=color, alpha=0.4)
            ax_orth.plot(
                means.index,
                means["orth_err_normalized"],
                marker="o",
                ms=3,
                color=color,
                label=MODE_LABELS[mode],
            )
            ax_orth.scatter(sel["dim"], sel["orth_err_normalized"], s=6, color=color, alpha=0.4)
            # The paper's curve over the measured range only, for a like-for-like view.
            ref = paper[paper["N"] <= rows["dim"].max()]
            ax_r2.plot(
                ref["N"],
                1 - ref[f"{PAPER_COLUMNS[mode]}_r2_hz_mean"],
                ls="--",
                color=color,
                alpha=0.5,
                lw=1,
            )
        base = rows.groupby("dim")["r2_xz"].mean()
        ax_r2.plot(
            base.index,
            1 - base.values,
            marker="s",
            ms=3,
            color="grey",
            label="mixing alone R²(x → z)",
        )
        ax_r2.plot([], [], ls="--", color="k", alpha=0.5, label="paper (dashed)")
        for ax in (ax_r2, ax_orth):
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("latent dimension N")
        ax_r2.set_ylabel("1 − R²(h → z)  (lower is better)")
        ax_orth.set_ylabel("orthogonality error / √N")
        ax_r2.legend(fontsize=7)
        fig.tight_layout()
        _save(
            fig,
            out,
            f"{experiment}_r2_vs_n",
            f"{experiment}: unexplained variance 1 − R²(h → z) and the normalized "
            "orthogonality error |AᵀA − I|_F / √N against N (line: mean over seeds, dots: "
            "seeds); "
            "dashed: the paper's values.",
            formats,
            made,
        )


def _fmt(mean: float, std: float) -> str:
    if not math.isfinite(mean):
        return "–"
    return f"{mean:.6f} ± {std:.2g}" if math.isfinite(std) else f"{mean:.6f}"


def scaling_table(frame: pd.DataFrame, experiment: str) -> pd.DataFrame:
    """Mean ± std over seeds of R^2(h -> z) per N and objective, beside the paper's."""
    rows = frame[frame["experiment"] == experiment]
    paper = paper_table().set_index("N")
    out = []
    for dim in sorted(rows["dim"].unique()):
        at = rows[rows["dim"] == dim]
        # The mixing baseline depends on (N, seed) only; count each seed once.
        base = at.drop_duplicates("seed")["r2_xz"]
        line = {
            "N": int(dim),
            "mixing R²(x→z)": _fmt(base.mean(), base.std()),
            "mixing (paper)": _paper(paper, dim, "mixing_r2_xz"),
        }
        for mode, col in PAPER_COLUMNS.items():
            sel = at[at["mode"] == mode]["r2_hz"]
            name = MODE_LABELS[mode].split(" ")[0]
            line[name] = _fmt(sel.mean(), sel.std()) if len(sel) else "–"
            line[f"{name} (paper)"] = _paper(paper, dim, f"{col}_r2_hz")
        out.append(line)
    return pd.DataFrame(out)


def _paper(paper: pd.DataFrame, dim: int, prefix: str) -> str:
    if dim not in paper.index:
        return "–"
    return _fmt(float(paper.loc[dim, f"{prefix}_mean"]), float(paper.loc[dim, f"{prefix}_std"]))


def to_markdown(table: pd.DataFrame) -> str:
    head = "| " + " | ".join(table.columns) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    body = ["| " + " | ".join(str(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join([head, rule, *body]) + "\n"


def to_latex(table: pd.DataFrame, caption: str) -> str:
    def cell(v: object) -> str:
        s = str(v).replace("±", r"$\pm$").replace("R²", r"$R^2$").replace("→", r"$\to$")
        return s.replace("–", "--")

    cols = "r" + "l" * (len(table.columns) - 1)
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
        rf"\begin{{tabular}}{{{cols}}}",
        r"\toprule",
        " & ".join(cell(c) for c in table.columns) + r" \\",
        r"\midrule",
    ]
    lines += [" & ".join(cell(v) for v in row) + r" \\" for row in table.itertuples(index=False)]
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{caption}}}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def write_scaling_tables(frame: pd.DataFrame, out: Path, made: Figures) -> None:
    for experiment in _sweeping(frame, "dim"):
        table = scaling_table(frame, experiment)
        caption = (
            f"{experiment}: R^2(h -> z), mean ± std over seeds, next to the paper's "
            "(5 seeds, 20,000 steps)."
        )
        md, tex = out / f"{experiment}_table.md", out / f"{experiment}_table.tex"
        atomic_write_bytes(md, to_markdown(table).encode())
        atomic_write_bytes(tex, to_latex(table, caption.replace("->", r"$\to$")).encode())
        made.written += [md, tex]
        made.tables.append(
            {"name": f"{experiment}_table", "caption": caption, "md": md.name, "tex": tex.name}
        )


# --- Theorem-3 bound --------------------------------------------------------------------


def fig_bound(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    """Empirical Procrustes error against the Theorem-3 bound, every finished run."""
    rows = frame[np.isfinite(frame["approx_bound"]) & np.isfinite(frame["procrustes_mse_centered"])]
    if rows.empty:
        return
    fig, ax = plt.subplots(figsize=(4.6, 4.2))
    floor = 1e-8  # log axes: exact zeros are drawn at the floor
    markers = {"lejepa": "o", "whiten": "s", "infonce": "^"}
    for k, (experiment, sel) in enumerate(rows.groupby("experiment")):
        color = f"C{k % 10}"
        for mode, part in sel.groupby("mode"):
            ax.scatter(
                np.maximum(part["approx_bound"], floor),
                np.maximum(part["procrustes_mse_centered"], floor),
                s=10,
                alpha=0.7,
                color=color,
                marker=markers.get(str(mode), "o"),
                label=f"{experiment} {mode} ({len(part)})",
            )
    lo = max(floor, min(rows["approx_bound"].min(), rows["procrustes_mse_centered"].min()) / 2)
    hi = max(rows["approx_bound"].max(), rows["procrustes_mse_centered"].max()) * 2
    ax.plot([lo, hi], [lo, hi], color="k", lw=1, label="error = bound")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("Theorem-3 bound  D + (ε + D)²")
    ax.set_ylabel("Procrustes error  min_Q mean |h − Qz|²")
    below = int((rows["procrustes_mse_centered"] <= rows["approx_bound"]).sum())
    ax.set_title(f"{below} of {len(rows)} runs below the bound", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    _save(
        fig,
        out,
        "bound",
        "Empirical Procrustes error against the Theorem-3 bound for every finished run; "
        "the theory puts every point below the diagonal.",
        formats,
        made,
    )


def make_figures(
    directory: str | Path, out: str | Path | None = None, formats: tuple[str, ...] = ("png", "pdf")
) -> Figures:
    """Draw every figure and table the results under ``directory`` support."""
    table = collect(directory)
    out_dir = Path(out) if out is not None else Path(directory) / "figures"
    out_dir.mkdir(parents=True, exist_ok=True)
    made = Figures(skipped=list(table.skipped))
    frame = _finished(table.frame)
    if frame.empty:
        made.notes.append(f"no finished runs under {directory}; nothing to draw")
    else:
        fig_panels(frame, out_dir, formats, made)
        fig_alpha(frame, out_dir, formats, made)
        fig_scaling(frame, out_dir, formats, made)
        write_scaling_tables(frame, out_dir, made)
        fig_bound(frame, out_dir, formats, made)
    index = out_dir / "figures_index.json"
    atomic_write_json(index, {"figures": made.entries, "tables": made.tables})
    made.written.append(index)
    return made
