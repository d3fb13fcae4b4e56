"""Reacher figures of the statistics: planning scatter, LQR error boxes, dataset
distributions and R^2 against the OU rho and the trajectory delta.

Sized for print: 7-inch-wide panels with 8-point text, legends outside the data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.typing import RcKeyType  # noqa: E402
from scipy import stats  # noqa: E402

from lejepa_id.analysis.plan_summary import KIND_ORDER  # noqa: E402
from lejepa_id.analysis.plotting import plural  # noqa: E402
from lejepa_id.reacher.controller import angle_coverage, wrap_angle  # noqa: E402
from lejepa_id.reacher.datasets import load_angles  # noqa: E402
from lejepa_id.records.io import read_json  # noqa: E402
from lejepa_id.records.result import RESULT_FILE  # noqa: E402

KIND_COLORS = {"ou": "tab:blue", "traj": "tab:orange", "trajmatch": "tab:green", "eval": "0.4"}
KIND_NAMES = {
    "ou": "OU pairs",
    "traj": "trajectory pairs",
    "trajmatch": "coverage-matched traj.",
    "eval": "eval gallery",
}
PRINT: dict[RcKeyType, Any] = {
    "font.size": 8,
    "axes.titlesize": 8,
    "axes.labelsize": 8,
    "legend.fontsize": 7,
}


def _identity_line(ax, x, y) -> None:
    both = np.concatenate([x, y])
    both = both[np.isfinite(both) & (both > 0)]
    if both.size:
        lim = [both.min() * 0.8, both.max() * 1.25]
        ax.plot(lim, lim, "k:", lw=0.8)


def fig_planning_scatter(plan: dict) -> plt.Figure:
    """Rows OU / coverage-matched / trajectory (those with runs); columns the straight-line plan
    against the oracle line, against the read-out reference, and the J-optimal plan in the
    code against the exact optimum J*. One point per (run, pair), coloured by lambda."""
    J_o = np.asarray(plan["J_oracle"])
    J_opt = np.asarray(plan["J_opt"])
    J_ref = np.asarray(plan["reference"]["ratio"]) * J_o
    cols = [
        ("J oracle (straight line in angles)", "J plan (straight line in code)", J_o, "ratio", J_o),
        (
            "J reference (k-NN read-out of angles)",
            "J plan (straight line in code)",
            J_ref,
            "ratio",
            J_o,
        ),
        ("J* (exact J-optimal path)", "J plan (J-optimal path in code)", J_opt, "opt_ratio", J_opt),
    ]
    lams = sorted({r["lam"] for r in plan["runs"]})
    cmap = plt.get_cmap("viridis", max(len(lams), 2))
    # One row per kind that has runs: a kind not trained is not a row of empty panels.
    kinds = [k for k in KIND_ORDER if any(r["kind"] == k for r in plan["runs"])]
    kinds += sorted({r["kind"] for r in plan["runs"]} - set(kinds))
    with plt.rc_context(PRINT):
        fig, axes = plt.subplots(
            max(len(kinds), 1), 3, figsize=(7.0, 0.4 + 2.2 * max(len(kinds), 1)), squeeze=False
        )
        if not kinds:
            for ax in axes.flat:
                ax.set_visible(False)
            fig.text(0.5, 0.5, "no runs in plan.json", ha="center", va="center")
        for i, kind in enumerate(kinds):
            runs = [r for r in plan["runs"] if r["kind"] == kind]
            for j, (xl, yl, x, key, scale) in enumerate(cols):
                ax = axes[i, j]
                for r in runs:
                    y = np.asarray(r[key]) * scale
                    ax.scatter(
                        x, y, s=3, alpha=0.5, color=cmap(lams.index(r["lam"])), rasterized=True
                    )
                _identity_line(ax, x, np.concatenate([np.asarray(r[key]) * scale for r in runs]))
                ax.set_xscale("log")
                ax.set_yscale("log")
                ax.set_title(f"{KIND_NAMES.get(kind, kind)} ({plural(len(runs), 'run')})")
                ax.set_xlabel(xl)
                ax.set_ylabel(yl)
        handles = [plt.Line2D([], [], ls="", marker="o", color=cmap(k)) for k in range(len(lams))]
        fig.legend(
            handles,
            [f"λ = {lam:g}" for lam in lams],
            loc="upper center",
            ncol=max(len(lams), 1),
            frameon=False,
        )
        fig.tight_layout(rect=(0, 0, 1, 1 - 0.25 / (0.4 + 2.2 * max(len(kinds), 1))))
    return fig


def fig_lqr_error_box(plan: dict) -> plt.Figure:
    """Relative LQR value error per run (eval points, outliers shown), log scale."""
    runs = sorted(
        plan["runs"],
        key=lambda r: (
            KIND_ORDER.index(r["kind"]) if r["kind"] in KIND_ORDER else 9,
            r["lam"],
            r["seed"],
        ),
    )
    data, labels, colors = [], [], []
    for r in runs:
        v = np.array([x for x in r.get("lqr_rel_err_values", []) if x is not None], dtype=float)
        data.append(v[np.isfinite(v) & (v > 0)])
        labels.append(f"{r['label']} {r['lam']:g} s{r['seed']}")
        colors.append(KIND_COLORS.get(r["kind"], "tab:red"))
    with plt.rc_context(PRINT):
        fig, ax = plt.subplots(figsize=(max(4.0, 0.32 * len(runs) + 1.2), 3.4))
        box = ax.boxplot(
            [d if d.size else [np.nan] for d in data],
            patch_artist=True,
            showfliers=True,
            flierprops={"markersize": 2, "alpha": 0.4},
        )
        for patch, c in zip(box["boxes"], colors):
            patch.set_facecolor(c)
            patch.set_alpha(0.6)
        for k, d in enumerate(data, start=1):
            if not d.size:
                ax.text(k, 1.0, "no Riccati\nsolution", ha="center", fontsize=6, rotation=90)
        ax.set_xticks(range(1, len(labels) + 1), labels, rotation=90, fontsize=7)
        ax.set_yscale("log")
        ax.set_ylabel("|V_code - V_true| / V_true")
        ax.set_xlabel("run (training data, lambda, seed)")
        fig.tight_layout()
    return fig


def dataset_path(data: dict, run: Path, key: str = "train") -> str:
    """Where a run's dataset is: relative to the run's folder when the record says so
    (``train_from_run``), else the path as given at training time (older records)."""
    relative = data.get(f"{key}_from_run")
    return str(run / relative) if isinstance(relative, str) else str(data[key])


def datasets_of(plan: dict, gallery_path: Path) -> list[tuple[str, np.ndarray, dict]]:
    """(name, angles, identity) of the gallery and one training set per kind (the one
    nearest the defaults rho = 0.95, delta = 16), read from the runs' results."""
    angles, meta = load_angles(gallery_path)
    out = [("eval", angles, meta["identity"])]
    chosen: dict[str, tuple[float, str]] = {}
    for r in plan["runs"]:
        res = read_json(Path(r["run"]) / RESULT_FILE)
        ident, path = res["data"]["train_identity"], dataset_path(res["data"], Path(r["run"]))
        dist = abs(ident.get("rho", 0.95) - 0.95) + abs(ident.get("delta", 16) - 16)
        if ident["kind"] not in chosen or dist < chosen[ident["kind"]][0]:
            chosen[ident["kind"]] = (dist, path)
    for kind in sorted(chosen, key=lambda k: KIND_ORDER.index(k) if k in KIND_ORDER else 9):
        try:
            a, m = load_angles(chosen[kind][1])
        except Exception:  # a moved or deleted dataset only drops its curves
            continue
        out.append((kind, a, m["identity"]))
    return out


def fig_distributions(sets: list[tuple[str, np.ndarray, dict]]) -> plt.Figure:
    """Per-joint marginals, lag correlations, QQ plots against N(0, 1) and angle coverage."""
    with plt.rc_context(PRINT):
        fig, axes = plt.subplots(2, 3, figsize=(7.0, 4.6))
        bins = np.linspace(-np.pi, np.pi, 73)
        for name, a, _ in sets:
            c = KIND_COLORS.get(name, "tab:red")
            for j in range(2):
                x = wrap_angle(a[:, 0, j])
                axes[0, j].hist(
                    x,
                    bins=bins,
                    density=True,
                    histtype="step",
                    color=c,
                    label=KIND_NAMES.get(name, name),
                )
                osm, osr = stats.probplot(
                    x[np.random.default_rng(0).permutation(len(x))[:2000]], fit=False
                )
                axes[1, j].plot(osm, osr, ".", ms=1.5, color=c)
        for j, joint in enumerate(("shoulder", "wrist")):
            axes[0, j].set_xlabel(f"{joint} angle (rad, wrapped)")
            axes[0, j].set_ylabel("density")
            axes[1, j].plot([-4, 4], [-4, 4], "k:", lw=0.8)
            axes[1, j].set_xlabel("N(0, 1) quantile")
            axes[1, j].set_ylabel(f"{joint} quantile (rad)")
        pairs = [(n, a, i) for n, a, i in sets if a.shape[1] > 1]
        width = 0.8 / max(len(pairs), 1)
        for k, (name, a, ident) in enumerate(pairs):
            corr = [np.corrcoef(a[:, 0, j], a[:, 1, j])[0, 1] for j in range(2)]
            lag = f"rho={ident['rho']:g}" if "rho" in ident else f"delta={ident.get('delta')}"
            axes[0, 2].bar(
                np.arange(2) + k * width,
                corr,
                width,
                color=KIND_COLORS.get(name, "tab:red"),
                label=lag,
            )
        axes[0, 2].set_xticks(np.arange(2) + 0.4 - width / 2, ["shoulder", "wrist"])
        axes[0, 2].set_ylabel("lag correlation of the pair")
        axes[0, 2].set_ylim(0, 1.35)
        if pairs:  # datasets of single frames have no pair to correlate, so no legend
            axes[0, 2].legend(loc="upper center", frameon=False, ncol=2)
        cov = [(n, angle_coverage(a)[0]) for n, a, _ in sets]
        x = np.arange(len(cov))
        axes[1, 2].bar(
            x - 0.2,
            [c["circle_fraction"] for _, c in cov],
            0.4,
            color="0.5",
            label="circle covered",
        )
        axes[1, 2].bar(
            x + 0.2,
            [c["wrap_fraction"] for _, c in cov],
            0.4,
            color="tab:red",
            label="pairs wrapping",
        )
        axes[1, 2].set_xticks(x, [n for n, _ in cov], rotation=30)
        axes[1, 2].set_ylabel("shoulder: fraction")
        axes[1, 2].set_ylim(0, 1.45)
        axes[1, 2].legend(loc="upper center", frameon=False, ncol=1)
        handles, labels = axes[0, 0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="upper center", ncol=len(labels), frameon=False)
        fig.tight_layout(rect=(0, 0, 1, 0.94))
    return fig


def sweep_points(runs: list[dict], key: str) -> dict[str, list[tuple[float, float, float]]]:
    """Per kind: (swept value, lambda, R^2(h -> z)) of every run whose data carry ``key``."""
    out: dict[str, list] = {}
    for r in runs:
        ident = r["train_identity"]
        if key in ident and (key != "rho" or ident["kind"] == "ou"):
            out.setdefault(ident["kind"], []).append((float(ident[key]), r["lam"], r["r2_hz"]))
    return {k: v for k, v in out.items() if len({p[0] for p in v}) >= 2}


def fig_r2_vs(points: dict[str, list], key: str, label: str) -> plt.Figure:
    """R^2(h -> z) against the swept dataset parameter: runs as dots, the mean as a line."""
    with plt.rc_context(PRINT):
        fig, ax = plt.subplots(figsize=(3.6, 2.8))
        for kind, pts in points.items():
            arr = np.array(pts)
            c = KIND_COLORS.get(kind, "tab:red")
            ax.scatter(arr[:, 0], arr[:, 2], s=10, color=c, alpha=0.6)
            xs = np.unique(arr[:, 0])
            ax.plot(
                xs,
                [arr[arr[:, 0] == v, 2].mean() for v in xs],
                "-",
                color=c,
                label=KIND_NAMES.get(kind, kind),
            )
        if key == "delta":
            ax.set_xscale("log", base=2)
            ticks = sorted({p[0] for pts in points.values() for p in pts})
            ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
            ax.minorticks_off()
        ax.set_xlabel(label)
        ax.set_ylabel("R^2(h -> z), eval gallery")
        ax.legend(loc="best", frameon=False)
        fig.tight_layout()
    return fig
