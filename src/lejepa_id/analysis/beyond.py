"""Worlds beyond the paper, judged against the spectral predictions (docs/spectral.md).

- ``anisotropic_<run>``: heatmaps over (rho_first, rho_rest) of R^2(h -> z) and of the
  predicted-feature R^2, the cells where linear identifiability is predicted
  (min rho > max rho^2) outlined: experiments whose runs take several values of both.
- ``codedim_r2_vs_m``: R^2 both ways against the code size m, with the predicted values:
  runs with ``code_dim`` set.

The claims judged on these families live one per module in lejepa_id.analysis.claims
(anisotropic_r2, anisotropic_boundary, code_size, whitened_optimum, action_lqr); this
module holds the rows they read and the per-setting table with the predictions.

An experiment named ``<name>_x2`` holds runs of experiment ``<name>`` trained again with
the whole schedule twice as long (same config, seed and run id otherwise): no claim
judges them as settings; each paper-length run gets ``loss_doubling``, the relative
change of its end loss at twice the schedule (:func:`lejepa_id.analysis.convergence.
doubling_change`), from the run of the same id in ``<name>_x2`` where there is one.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from lejepa_id.analysis.plotting import Figures, annotate_cells, save
from lejepa_id.theory.spectral import (
    linear_identifiability_predicted,
    predicted_features,
    predicted_r2,
)

GAUSSIAN = ("gaussian",)
DOUBLED = "_x2"
"""Suffix of the experiment that trains runs of another twice as long."""


def is_doubled(experiment: object) -> bool:
    """Whether ``experiment`` names runs trained twice as long as another experiment's."""
    return isinstance(experiment, str) and experiment.endswith(DOUBLED) and len(experiment) > 3


def with_doubling(frame: pd.DataFrame) -> pd.DataFrame:
    """The paper-length runs of ``frame`` (doubled experiments left out), each with
    ``loss_doubling``: how far its end loss moves when the same run (experiment, run id)
    is trained with twice the steps, from the doubled experiment's run; NaN where there is
    none, where either end loss is missing, or where the steps are not exactly doubled. A
    ``loss_doubling`` already in ``frame`` is kept where no doubled run is found."""
    from lejepa_id.analysis.convergence import doubling_change

    if frame.empty or "experiment" not in frame.columns:
        return frame
    doubled = frame["experiment"].map(is_doubled)
    rows, long = frame[~doubled], frame[doubled]
    given = pd.to_numeric(
        rows["loss_doubling"] if "loss_doubling" in rows.columns else pd.Series(np.nan, rows.index),
        errors="coerce",
    )
    if long.empty or "run_id" not in frame.columns:
        return rows.assign(loss_doubling=given)

    def numbers(part: pd.DataFrame, column: str) -> np.ndarray:
        if column not in part.columns:
            return np.full(len(part), np.nan)
        return pd.to_numeric(part[column], errors="coerce").to_numpy(float)

    base = [str(e)[: -len(DOUBLED)] for e in long["experiment"]]
    ends = dict(
        zip(zip(base, long["run_id"]), zip(numbers(long, "loss_end"), numbers(long, "steps")))
    )
    values = []
    for key, short, steps, before in zip(
        zip(rows["experiment"], rows["run_id"]),
        numbers(rows, "loss_end"),
        numbers(rows, "steps"),
        given,
    ):
        if key not in ends:
            values.append(before)
            continue
        end, long_steps = ends[key]
        # Only the same run with exactly twice the steps is its doubled run.
        values.append(doubling_change(short, end) if long_steps == 2 * steps else np.nan)
    return rows.assign(loss_doubling=values)


def _rhos(row: pd.Series) -> list[float]:
    n = int(row["dim"])
    return [float(row["rho_first"])] + [float(row["rho_rest"])] * (n - 1)


def _code_size(row: pd.Series) -> int:
    return int(row["dim"]) if pd.isna(row.get("code_dim")) else int(row["code_dim"])


def anisotropic_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Gaussian runs of experiments sweeping both rho_first and rho_rest, with m = n (with
    :func:`with_doubling`'s column)."""
    if frame.empty or "rho_list" not in frame.columns:
        return frame.iloc[0:0]
    frame = with_doubling(frame)
    rows = frame[frame["law"].isin(GAUSSIAN) & frame["rho_list"].notna()]
    if "code_dim" in rows.columns:
        rows = rows[rows["code_dim"].isna()]
    counts = rows.groupby("experiment")[["rho_first", "rho_rest"]].nunique()
    keep = counts[(counts > 1).all(axis=1)].index
    return rows[rows["experiment"].isin(keep)]


def codedim_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Gaussian isotropic runs with code_dim set (with :func:`with_doubling`'s column)."""
    if frame.empty or "code_dim" not in frame.columns:
        return frame.iloc[0:0]
    frame = with_doubling(frame)
    rows = frame[frame["law"].isin(GAUSSIAN) & frame["code_dim"].notna()]
    return rows[np.isfinite(pd.to_numeric(rows["rho"], errors="coerce"))]


def with_predictions(rows: pd.DataFrame) -> pd.DataFrame:
    """Per setting (mean over seeds): measured and predicted R^2 both ways, and the
    quantities the premises are judged on."""
    if rows.empty:
        return rows
    keys = ["experiment", "run", "dim", "rho_first", "rho_rest", "m"]
    rows = rows.assign(
        m=rows.apply(_code_size, axis=1),
        r2_zh_white=r2_zh_whitened(rows),
        relative_gap=relative_gap(rows),
        epsilon=pd.to_numeric(rows.get("epsilon", np.nan), errors="coerce"),
        steps=pd.to_numeric(rows.get("steps", np.nan), errors="coerce"),
        loss_plateau=pd.to_numeric(rows.get("loss_plateau", np.nan), errors="coerce"),
        loss_plateau_mean=pd.to_numeric(rows.get("loss_plateau_mean", np.nan), errors="coerce"),
        loss_doubling=pd.to_numeric(rows.get("loss_doubling", np.nan), errors="coerce"),
    )
    cols = ["r2_hz", "r2_zh", "r2_zh_white", "relative_gap", "epsilon", "steps"]
    grouped = rows.groupby(keys, dropna=False)
    means = grouped[cols].mean().reset_index()
    # The plateau of the slowest seed: a setting has converged when every seed has.
    means["loss_plateau"] = grouped["loss_plateau"].max().to_numpy()
    # A seed without it (recorded before loss_mean) leaves the setting unmeasured.
    means["loss_plateau_mean"] = (
        grouped["loss_plateau_mean"].agg(lambda s: s.max(skipna=False)).to_numpy()
    )
    # Of the seeds trained again twice as long, the one whose end moved most; NaN when no
    # seed of the setting was.
    means["loss_doubling"] = grouped["loss_doubling"].max().to_numpy()
    means["doubled_seeds"] = grouped["loss_doubling"].count().to_numpy()
    means["modes"] = grouped["mode"].agg(lambda s: ",".join(sorted(set(s)))).to_numpy()
    seeds = grouped.size().to_numpy()
    preds = [predicted_r2(_rhos(r), int(r["m"])) for _, r in means.iterrows()]
    return means.assign(
        seeds=seeds,
        pred_r2_hz=[p[0] for p in preds],
        pred_r2_zh=[p[1] for p in preds],
        identifiable=[linear_identifiability_predicted(_rhos(r)) for _, r in means.iterrows()],
    )


def fig_anisotropic(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    rows = anisotropic_rows(frame)
    for (experiment, run), sel in rows.groupby(["experiment", "run"]):
        firsts = sorted(sel["rho_first"].unique())
        rests = sorted(sel["rho_rest"].unique())
        fig, axes = plt.subplots(
            1,
            2,
            figsize=(3 + 2.2 * len(firsts), 1.6 + 0.6 * len(rests)),
            constrained_layout=True,
        )
        for ax, metric, label in (
            (axes[0], "r2_hz", "R²(h → z)"),
            (axes[1], "predicted_feature_r2", "R²(predicted features → h)"),
        ):
            table = sel.pivot_table(index="rho_rest", columns="rho_first", values=metric)
            table = table.reindex(index=rests, columns=firsts)
            image = ax.imshow(table.to_numpy(float), vmin=0, vmax=1, origin="lower", aspect="auto")
            annotate_cells(ax, image, table.to_numpy(float), "{:.2f}")
            for (i, j), _ in np.ndenumerate(table.to_numpy(float)):
                n = int(sel["dim"].iloc[0])
                if linear_identifiability_predicted([firsts[j]] + [rests[i]] * (n - 1)):
                    ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, lw=1.6))
            ax.set_xticks(range(len(firsts)), [f"{v:g}" for v in firsts])
            ax.set_yticks(range(len(rests)), [f"{v:g}" for v in rests])
            ax.set_xlabel("ρ of z₁")
            if ax is axes[0]:
                ax.set_ylabel("ρ of the other coordinates")
            ax.set_title(label, fontsize=9)
            fig.colorbar(image, ax=ax, fraction=0.05)
        fig.suptitle(f"{experiment}: {run} (N = {int(sel['dim'].iloc[0])})", fontsize=9)
        caption = (
            f"{experiment}, {run}: mean over seeds of R²(h → z) and of the R² of the code "
            "from its predicted optimal Hermite features. Outlined: cells where linear "
            "identifiability is predicted (min ρ > max ρ²)."
        )
        save(fig, out, f"anisotropic_{run}", caption, formats, made)


def fig_codedim(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    table = with_predictions(codedim_rows(frame))
    if table.empty:
        return
    dims = sorted(table["dim"].unique())
    fig, axes = plt.subplots(1, len(dims), figsize=(3.6 * len(dims), 3.0), squeeze=False)
    for ax, n in zip(axes[0], dims):
        sel = table[table["dim"] == n].sort_values("m")
        for col, colour, label in (("r2_hz", "tab:blue", "h → z"), ("r2_zh", "tab:red", "z → h")):
            ax.plot(sel["m"], sel[col], "o", color=colour, label=f"R²({label}) measured")
            ax.plot(sel["m"], sel[f"pred_{col}"], "--", color=colour, label="predicted")
        ax.axvline(n, color="grey", lw=0.8)
        ax.set_xlabel("code size m")
        ax.set_ylabel("R²")
        ax.set_title(f"n = {int(n)}", fontsize=9)
        ax.set_ylim(0, 1.05)
    axes[0][-1].legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
    caption = (
        "R² both ways against the code size m (mean over seeds), with the prediction for "
        "the optimal whitened code: L / n and L / m, L the linear features among the top m."
    )
    save(fig, out, "codedim_r2_vs_m", caption, formats, made)


def l_min(rhos: list[float], m: int) -> float:
    """1 − mean of the top-m eigenvalues: the whitened one-step alignment's minimum."""
    return 1.0 - float(np.mean(predicted_features(rhos, m).eigenvalues))


def relative_gap(rows: pd.DataFrame) -> pd.Series:
    """predicted_alignment_gap / L_min per run (NaN where either is missing)."""
    if "predicted_alignment_gap" not in rows.columns:
        return pd.Series(np.nan, index=rows.index)
    lmin = [l_min(_rhos(r), _code_size(r)) for _, r in rows.iterrows()]
    return pd.to_numeric(rows["predicted_alignment_gap"], errors="coerce") / np.array(lmin)


def r2_zh_whitened(rows: pd.DataFrame) -> pd.Series:
    """R²(z → h) of the self-whitened code Cov(h)^(-1/2) h per run.

    The column ``r2_zh_white`` where a run recorded it; otherwise (n / m) r2_hz, which is
    the same number when the evaluation latents' covariance is I: both are the sum of the
    squared canonical correlations of z and h, over m and over n.
    """
    derived = rows["r2_hz"] * rows["dim"] / rows.apply(_code_size, axis=1)
    if "r2_zh_white" in rows.columns:
        return pd.to_numeric(rows["r2_zh_white"], errors="coerce").fillna(derived)
    return derived


def action_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Finished runs of action-driven worlds that report the LQR comparison (with
    :func:`with_doubling`'s column)."""
    if frame.empty or "lqr_cost_ratio" not in frame.columns:
        return frame.iloc[0:0]
    frame = with_doubling(frame)
    return frame[frame["transition"] == "linear_action"]


def fig_action(frame: pd.DataFrame, out: Path, formats, made: Figures) -> None:
    rows = action_rows(frame)
    if rows.empty:
        return
    fig, ax = plt.subplots(figsize=(4.6, 3.2))
    for run, sel in rows.groupby("run"):
        ax.scatter(sel["predictor_err"], sel["lqr_cost_ratio"], label=run, s=18)
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_xlabel("predictor error (relative to (QAQᵀ, QB))")
    ax.set_ylabel("LQR cost ratio (learned / optimal)")
    ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
    caption = (
        "Action-driven worlds, one point per run: the learned predictor's error against the "
        "true system in the code's coordinates, and the true cost of LQR planned in the "
        "learned space over the optimal cost (1 = Theorem 4's invariance)."
    )
    save(fig, out, "action_lqr", caption, formats, made)
