"""Figures of the Reacher experiment, written as PNG (and PDF) with an index.

Inputs are what the other commands wrote: the eval gallery, the runs directory (codes of
every encoder) and plan.json. "Representative" runs are chosen by rule, not by eye: for
each kind, the run whose mean log cost ratio is the median among that kind's runs.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless; set before pyplot is imported
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402

from lejepa_id.reacher import figures_stats as fs  # noqa: E402
from lejepa_id.reacher.claims import write_table  # noqa: E402
from lejepa_id.reacher.datasets import FrameData  # noqa: E402
from lejepa_id.reacher.planning import (  # noqa: E402
    PlanConfig,
    knn_decode,
    lqr_value_errors,
    nearest_frames,
    recorded_run,
    resolve_run,
    straight_line,
)
from lejepa_id.reacher.render import TARGET_XY, arm_points, world_to_pixel  # noqa: E402
from lejepa_id.records.io import (  # noqa: E402
    atomic_save_figure,
    atomic_write_json,
    load_tensors,
)

KIND_COLORS = fs.KIND_COLORS
KIND_NAMES = fs.KIND_NAMES


def _save(
    fig, out: Path, name: str, formats: tuple[str, ...], caption: str, dpi: int = 110
) -> dict:
    entry = {"name": name, "caption": caption}
    for fmt in formats:
        path = out / f"{name}.{fmt}"
        atomic_save_figure(fig, path, dpi=dpi, bbox_inches="tight")
        entry[fmt] = path.name
    plt.close(fig)
    return entry


def _subsample(n: int, m: int = 2000) -> np.ndarray:
    """A fixed subset of m of n indices (all of them when n <= m)."""
    if n <= m:
        return np.arange(n)
    return np.sort(np.random.default_rng(0).choice(n, m, replace=False))


def representative_runs(plan: dict) -> dict[str, dict]:
    """Per kind, the run whose mean log cost ratio is that kind's median."""
    out = {}
    for kind in sorted({r["kind"] for r in plan["runs"]}):
        runs = sorted(
            (r for r in plan["runs"] if r["kind"] == kind), key=lambda r: r["log_ratio_mean"]
        )
        out[kind] = runs[(len(runs) - 1) // 2]
    return out


def fig_annotated_frame(gallery: FrameData, out: Path, formats: tuple[str, ...]) -> dict:
    """One gallery frame, upsampled, with the joints, links, angles and target marked."""
    z = gallery.angles[:, 0]
    i = int(np.argmin(np.abs(z - np.array([0.8, 1.2])).sum(1)))
    size = gallery.size
    fig, ax = plt.subplots(figsize=(4, 4))
    ax.imshow(gallery.frames[i, 0], extent=(0, size, size, 0), interpolation="nearest")
    pts = world_to_pixel(arm_points(z[i]), size)
    ax.plot(pts[:, 0], pts[:, 1], "w--", lw=1)
    for (c, r), label in zip(pts, ["shoulder", "wrist", "fingertip"]):
        ax.plot(c, r, "o", ms=5, mfc="none", mec="w")
        ax.annotate(
            label, (c, r), xytext=(4, -6), textcoords="offset points", color="w", fontsize=8
        )
    tc, tr = world_to_pixel(np.array(TARGET_XY), size)
    ax.annotate(
        "target (0.1, 0.1)",
        (tc, tr),
        xytext=(4, 8),
        textcoords="offset points",
        color="w",
        fontsize=8,
    )
    ax.set_title(
        f"theta = ({z[i, 0]:.2f}, {z[i, 1]:.2f}) rad; {size}x{size} RGB, camera 0", fontsize=9
    )
    ax.set_axis_off()
    cap = "A Reacher frame: the two joint angles (shoulder, wrist) are the latents."
    return _save(fig, out, "reacher_frame", formats, cap)


def fig_planning_demo(
    gallery: FrameData, plan: dict, runs: dict[str, dict], out: Path, formats, pair_index: int
) -> dict:
    """Rows: the oracle path and the latent plans of the representative runs, each waypoint
    shown as the gallery frame nearest to its (decoded) angles."""
    cfg = PlanConfig(**plan["config"])
    z = torch.from_numpy(gallery.angles[:, 0]).double()
    s, g = plan["pairs"][pair_index]
    rows = [("oracle (straight line in angles)", straight_line(z[s], z[g], cfg.points), None)]
    for kind, run in runs.items():
        h = load_tensors(Path(run["run"]) / "codes.safetensors")["h_eval"].double()
        theta = knn_decode(straight_line(h[s], h[g], cfg.points), h, z, cfg.knn)
        theta[0], theta[-1] = z[s], z[g]
        rows.append(
            (
                f"{KIND_NAMES.get(kind, kind)} encoder (lam={run['lam']:g})",
                theta,
                run["ratio"][pair_index],
            )
        )
    fig, axes = plt.subplots(
        len(rows), cfg.points, figsize=(1.0 * cfg.points, 1.3 * len(rows)), squeeze=False
    )
    fig.subplots_adjust(left=0.01, right=0.99, top=0.9, bottom=0.06, wspace=0.05, hspace=0.55)
    for r, (title, theta, ratio) in enumerate(rows):
        idx = nearest_frames(theta, z)
        for t in range(cfg.points):
            ax = axes[r, t]
            ax.imshow(gallery.frames[int(idx[t]), 0])
            ax.set_xticks([])
            ax.set_yticks([])
            ax.set_xlabel(f"({theta[t, 0]:.1f},{theta[t, 1]:.1f})", fontsize=6, labelpad=1)
        suffix = "" if ratio is None else f"  J/J_oracle = {ratio:.2f}"
        axes[r, 0].set_title(title + suffix, fontsize=8, loc="left")
    cap = "Planning demo: each waypoint shown as the gallery frame nearest its angles."
    return _save(fig, out, "reacher_planning_demo", formats, cap)


def fig_latents(gallery: FrameData, runs: dict[str, dict], out: Path, formats) -> dict:
    """True angles and the learned codes of the representative runs, coloured by angle."""
    # A fixed subsample keeps the PNG small; 2,000 points show the shape as well as 10,000.
    keep = _subsample(len(gallery.angles))
    z = gallery.angles[keep, 0]
    spaces = [("true angles", z)]
    for kind, run in runs.items():
        h = load_tensors(Path(run["run"]) / "codes.safetensors")["h_eval"].numpy()[keep]
        spaces.append((f"{KIND_NAMES.get(kind, kind)} code\nR² = {run['r2_hz']:.3f}", h))
    cap = "Learned latent spaces on the eval gallery, coloured by the true joint angles."
    return _save(latents_figure(z, spaces), out, "reacher_latents", formats, cap, dpi=150)


def latents_figure(z: np.ndarray, spaces: list[tuple[str, np.ndarray]]) -> plt.Figure:
    """Columns: the spaces (title, (n, 2) points); rows: coloured by the shoulder, then
    the wrist angle. Sized for print (7 in wide at most, 8 pt text), one colour bar."""
    width = min(7.0, 1.75 * len(spaces) + 0.7)
    panel = (width - 0.7) / len(spaces)
    with plt.rc_context(fs.PRINT):
        fig, axes = plt.subplots(
            2, len(spaces), figsize=(width, 2 * panel + 0.9), squeeze=False, layout="constrained"
        )
        image = None
        for c, (title, pts) in enumerate(spaces):
            for r, joint in enumerate(["shoulder", "wrist"]):
                ax = axes[r, c]
                image = ax.scatter(
                    pts[:, 0],
                    pts[:, 1],
                    c=z[:, r],
                    s=1.0,
                    cmap="coolwarm",
                    vmin=-2.5,
                    vmax=2.5,
                    rasterized=True,
                )
                if r == 0:
                    ax.set_title(title)
                ax.set_aspect("equal", adjustable="datalim")
                ax.tick_params(labelsize=7)
                first = "θ" if c == 0 else "h"
                ax.set_xlabel(f"{first}₁", labelpad=1)
                if c == 0:
                    ax.set_ylabel(f"colour: {joint}\n{first}₂")
                else:
                    ax.set_ylabel(f"{first}₂", labelpad=1)
        if image is not None:
            fig.colorbar(image, ax=axes, label="joint angle (rad)", shrink=0.8)
    return fig


def fig_ratio_box(plan: dict, out: Path, formats) -> dict:
    """Cost ratio J / J_oracle per kind and lambda (all seeds pooled), and the read-out's."""
    groups = [("k-NN on true angles", plan["reference"]["ratio"], "grey")]
    keys = sorted({(r["kind"], r["lam"]) for r in plan["runs"]})
    for kind, lam in keys:
        vals = [v for r in plan["runs"] if (r["kind"], r["lam"]) == (kind, lam) for v in r["ratio"]]
        groups.append((f"{kind}\nlam={lam:g}", vals, KIND_COLORS.get(kind, "tab:green")))
    fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * len(groups)), 3.4))
    box = ax.boxplot(
        [g[1] for g in groups],
        patch_artist=True,
        showfliers=True,
        flierprops={"markersize": 2, "alpha": 0.5},
    )
    for patch, g in zip(box["boxes"], groups):
        patch.set_facecolor(g[2])
        patch.set_alpha(0.6)
    ax.set_xticks(range(1, len(groups) + 1), [g[0] for g in groups], fontsize=7)
    ax.axhline(1.0, color="k", lw=0.8, ls=":")
    ax.set_yscale("log")
    ax.set_ylabel("J / J_oracle")
    cap = (
        "Planning cost relative to the oracle straight line in angle space (per pair, "
        "outliers shown; J/J_oracle < 1 is an early arrival, possible since the straight "
        "line is not J-optimal)."
    )
    return _save(fig, out, "reacher_cost_ratio_box", formats, cap)


def fig_ratio_vs_r2(plan: dict, out: Path, formats) -> dict:
    """Median cost ratio of each run against its R^2(h -> z)."""
    fig, ax = plt.subplots(figsize=(4.2, 3.2))
    for kind in sorted({r["kind"] for r in plan["runs"]}):
        runs = [r for r in plan["runs"] if r["kind"] == kind]
        ax.scatter(
            [r["r2_hz"] for r in runs],
            [r["ratio_median"] for r in runs],
            c=KIND_COLORS.get(kind, "tab:green"),
            label=KIND_NAMES.get(kind, kind),
            s=18,
        )
    ax.axhline(1.0, color="k", lw=0.8, ls=":")
    ax.set_yscale("log")
    ax.set_xlabel("R^2(h -> z) on the eval set")
    ax.set_ylabel("median J / J_oracle")
    ax.legend(fontsize=8)
    cap = "Planning cost ratio against linear identifiability, one point per run."
    return _save(fig, out, "reacher_ratio_vs_r2", formats, cap)


def fig_lqr(gallery: FrameData, runs: dict[str, dict], out: Path, formats) -> dict:
    """Optimal LQR value in the code space against the true value, per eval point."""
    z = torch.from_numpy(gallery.angles[:, 0]).double()
    fig, axes = plt.subplots(1, len(runs), figsize=(3.3 * len(runs), 3.2), squeeze=False)
    for ax, (kind, run) in zip(axes[0], runs.items()):
        codes = load_tensors(Path(run["run"]) / "codes.safetensors")
        v = lqr_value_errors(codes["z_fit"], codes["h_fit"], z, codes["h_eval"].double())
        if not np.isfinite(v["rel_err"]).any():
            ax.set_title(f"{KIND_NAMES.get(kind, kind)}: no stable Riccati solution", fontsize=8)
            continue
        keep = _subsample(len(v["V_true"]))
        ax.scatter(
            v["V_true"][keep],
            v["V_code"][keep],
            s=1,
            alpha=0.4,
            c=KIND_COLORS.get(kind),
            rasterized=True,
        )
        lim = [max(1e-3, np.nanmin(v["V_true"])), np.nanmax(v["V_true"])]
        ax.plot(lim, lim, "k:", lw=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        med = np.nanmedian(v["rel_err"])
        ax.set_title(f"{KIND_NAMES.get(kind, kind)}: median rel. err {med:.3f}", fontsize=8)
        ax.set_xlabel("V(z0), true space")
        ax.set_ylabel("V(h0), code space")
    fig.tight_layout()
    cap = "LQR optimal values in true and pushed-forward code space (Theorem 4)."
    return _save(fig, out, "reacher_lqr_values", formats, cap)


def stats_figures(gallery: FrameData, plan: dict, out: Path, formats) -> list[dict]:
    """The planning scatter, LQR error boxes, distributions and (when swept) R^2 curves."""
    entries = [
        _save(
            fs.fig_planning_scatter(plan),
            out,
            "reacher_planning_scatter",
            formats,
            "Plan costs per (run, start/goal pair): rows OU, coverage-matched and trajectory "
            "encoders; columns the straight-line plan against the oracle line and against the "
            "k-NN read-out of the true angles, and the J-optimal plan in the code against the "
            "exact optimum J*. Dotted: equality.",
            dpi=150,
        ),
        _save(
            fs.fig_lqr_error_box(plan),
            out,
            "reacher_lqr_error_box",
            formats,
            "Relative error of the pushed-forward LQR value per run (eval points, outliers "
            "shown); Theorem 4 predicts 0 for an orthogonally identified code.",
            dpi=150,
        ),
        _save(
            fs.fig_distributions(fs.datasets_of(plan, gallery.path)),
            out,
            "reacher_distributions",
            formats,
            "Joint-angle statistics per dataset: marginals (wrapped), QQ against N(0, 1), "
            "lag correlation of the pairs, and the shoulder's circle coverage and wrap rate.",
            dpi=150,
        ),
    ]
    for key, label in (("rho", "OU correlation rho"), ("delta", "trajectory lag delta (steps)")):
        points = fs.sweep_points(plan["runs"], key)
        if points:
            entries.append(
                _save(
                    fs.fig_r2_vs(points, key, label),
                    out,
                    f"reacher_r2_vs_{key}",
                    formats,
                    f"R^2(h -> z) against the {label} of the training data; dots are runs.",
                    dpi=150,
                )
            )
    return entries


def make_figures(
    gallery: FrameData,
    plan: dict,
    out: str | Path,
    formats: tuple[str, ...] = ("png", "pdf"),
    pair_index: int = 0,
    runs_dir: str | Path | None = None,
) -> list[dict]:
    """Write every figure, figures_index.json and tab_reacher.tex into ``out``; returns
    the figures' index entries. ``runs_dir``: where the plan's runs are (their names in
    plan.json are relative to it); without it the names are read as paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if runs_dir is not None:
        # Codes and results are read from --runs, never from the folder the plan ran in.
        resolved = [{**r, "run": str(resolve_run(runs_dir, r["run"]))} for r in plan["runs"]]
        plan = {**plan, "runs": resolved}
    runs = representative_runs(plan)
    pair_index = min(pair_index, len(plan["pairs"]) - 1)
    entries = [
        fig_annotated_frame(gallery, out, formats),
        fig_planning_demo(gallery, plan, runs, out, formats, pair_index),
        fig_latents(gallery, runs, out, formats),
        fig_ratio_box(plan, out, formats),
        fig_ratio_vs_r2(plan, out, formats),
        fig_lqr(gallery, runs, out, formats),
        *stats_figures(gallery, plan, out, formats),
    ]
    tables = [write_table(plan, out)]
    atomic_write_json(
        out / "figures_index.json",
        {
            "figures": entries,
            "tables": tables,
            # Named as in plan.json: relative to the runs directory.
            "representative_runs": {
                k: r["run"] if runs_dir is None else recorded_run(Path(r["run"]), runs_dir)
                for k, r in runs.items()
            },
        },
    )
    return entries
