"""How often each objective stalls on the coupling worlds: the frequency table and figure.

    python scripts/stall_figure.py results/stall [--out docs/img/stall] [--against OTHER]

Reads every best-of-K run on a coupling world (matched encoder) under the results folder,
one row per (objective, N, world). A world *stalls* for an objective when the kept
encoder's R²(h -> z) is at or below the floor (0.999, the stall claims' floor); a *start*
stalls when its own end point is. Writes:

- ``OUT.json``: per objective and N, the worlds, the stalled worlds with their exact
  (Clopper-Pearson) 95% interval, the stalled starts, and every world's per-start R^2;
- ``OUT.txt``: the same as a markdown table (docs/stall.md quotes it);
- ``OUT.png``/``.pdf``: one panel per N, 1 - R²(h -> z) of every start (small) and of the
  kept encoder (large) per world and objective, on a log axis with the floor drawn;
- with ``--against OTHER`` (the same worlds trained otherwise, e.g. another λ),
  ``OUT-paired.png``/``.pdf``: per N, each world's kept encoder in OTHER (x) against here
  (y), the floor drawn on both axes.

Nothing here judges a claim: ``lejepa-id report`` judges ``sigreg_stall_rate`` and
``stall_is_optimization`` by their registered rules.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from lejepa_id.analysis.claims.stall_worlds import init_values
from lejepa_id.analysis.table import collect
from lejepa_id.records.io import atomic_save_figure, atomic_write_bytes, atomic_write_json

FLOOR = 0.999
LEVEL = 0.95


def interval(stalled: int, total: int) -> tuple[float, float]:
    from scipy.stats import binomtest

    ci = binomtest(stalled, total).proportion_ci(confidence_level=LEVEL, method="exact")
    return float(ci.low), float(ci.high)


def world_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Best-of-K runs on coupling worlds inverted by the matched encoder, starts recorded."""
    if frame.empty or "inits_trained" not in frame.columns:
        return frame.iloc[0:0]
    keep = (
        (frame["mixing"] == "coupling")
        & (frame["encoder"] == "matched")
        & (frame["status"] == "finished")
        & (pd.to_numeric(frame["inits_trained"], errors="coerce") > 1)
    )
    return frame[keep]


def frequency(rows: pd.DataFrame) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for (mode, dim), group in rows.groupby(["mode", "dim"]):
        kept = group["r2_hz"].astype(float)
        starts = [r for _, row in group.iterrows() for r in init_values(row, "r2_hz")]
        stalled = int((kept <= FLOOR).sum())
        low, high = interval(stalled, len(group))
        table.setdefault(str(mode), {})[str(int(dim))] = {
            "worlds": int(len(group)),
            "stalled_worlds": stalled,
            "ci_low": low,
            "ci_high": high,
            "starts": len(starts),
            "stalled_starts": int(sum(r <= FLOOR for r in starts)),
            "per_world": {
                str(int(row["seed"])): {
                    "kept": float(row["r2_hz"]),
                    "starts": init_values(row, "r2_hz"),
                }
                for _, row in group.sort_values("seed").iterrows()
            },
        }
    return table


def markdown(table: dict[str, Any]) -> str:
    lines = [
        "| objective | N | worlds | stalled worlds (best of K) | 95% interval | stalled starts |",
        "|---|---|---|---|---|---|",
    ]
    for mode, per_n in table.items():
        for dim, c in sorted(per_n.items(), key=lambda kv: int(kv[0])):
            lines.append(
                f"| {mode} | {dim} | {c['worlds']} | {c['stalled_worlds']} | "
                f"{c['ci_low']:.3f} to {c['ci_high']:.3f} | "
                f"{c['stalled_starts']} of {c['starts']} |"
            )
    return "\n".join(lines) + "\n"


def figure(table: dict[str, Any], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from lejepa_id.analysis.plotting import MODE_COLORS, MODE_LABELS

    dims = sorted({int(d) for per_n in table.values() for d in per_n})
    fig, axes = plt.subplots(1, len(dims), figsize=(3.2 * len(dims), 3.0), squeeze=False)
    offsets = np.linspace(-0.25, 0.25, max(len(table), 1))
    for ax, dim in zip(axes[0], dims):
        for offset, (mode, per_n) in zip(offsets, table.items()):
            cell = per_n.get(str(dim))
            if cell is None:
                continue
            color, label = MODE_COLORS[mode], MODE_LABELS[mode]
            first = next(iter(cell["per_world"]))
            for seed, world in cell["per_world"].items():
                x = int(seed) + offset
                starts = np.clip(1 - np.asarray(world["starts"]), 1e-7, 1)
                ax.scatter([x] * len(starts), starts, s=6, color=color, alpha=0.5, lw=0)
                ax.scatter([x], [max(1 - world["kept"], 1e-7)], s=22, color=color,
                           label=label if seed == first else None, edgecolor="k",
                           lw=0.3)  # fmt: skip
        ax.axhline(1 - FLOOR, color="0.4", lw=0.8, ls="--")
        ax.set_yscale("log")
        ax.set_ylim(1e-7, 1)
        ax.set_title(f"N = {dim}")
        ax.set_xlabel("world (seed)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[0][0].set_ylabel("1 - R²(h → z)  (kept: large, starts: small)")
    axes[0][-1].legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    for suffix in (".png", ".pdf"):
        atomic_save_figure(fig, out.with_suffix(suffix), dpi=150)
    plt.close(fig)


def paired_figure(rows: pd.DataFrame, other: pd.DataFrame, out: Path) -> int:
    """1 - R²(h -> z) of the kept encoder per world, ``other`` (x) against ``rows`` (y), for
    the objectives and worlds (N, seed, draw) both folders ran; returns the worlds drawn."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = ["mode", "dim", "seed", "coupling_draw"]
    both = rows.merge(other, on=keys, suffixes=("", "_other"))
    if both.empty:
        return 0
    lam = f"λ = {both['lam'].iloc[0]:g}"
    lam_other = f"λ = {both['lam_other'].iloc[0]:g}"
    dims = sorted(both["dim"].astype(int).unique())
    fig, axes = plt.subplots(1, len(dims), figsize=(3.0 * len(dims), 3.0), squeeze=False)
    for ax, dim in zip(axes[0], dims):
        cell = both[both["dim"] == dim]
        x = np.clip(1 - cell["r2_hz_other"].astype(float), 1e-7, 1)
        y = np.clip(1 - cell["r2_hz"].astype(float), 1e-7, 1)
        ax.scatter(x, y, s=16, color="C0", edgecolor="k", lw=0.3)
        ax.plot([1e-7, 1], [1e-7, 1], color="0.7", lw=0.6)
        ax.axhline(1 - FLOOR, color="0.4", lw=0.8, ls="--")
        ax.axvline(1 - FLOOR, color="0.4", lw=0.8, ls="--")
        ax.set(xscale="log", yscale="log", xlim=(1e-7, 1), ylim=(1e-7, 1))
        ax.set_title(f"N = {dim} ({len(cell)} worlds)")
        ax.set_xlabel(f"1 - R²(h → z), {lam_other}")
    axes[0][0].set_ylabel(f"1 - R²(h → z), {lam}")
    fig.tight_layout()
    for suffix in (".png", ".pdf"):
        atomic_save_figure(fig, out.with_name(out.name + "-paired").with_suffix(suffix), dpi=150)
    plt.close(fig)
    return len(both)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="a results folder (results/stall)")
    parser.add_argument("--out", type=Path, default=Path("docs/img/stall"), help="file stem")
    parser.add_argument(
        "--against",
        type=Path,
        default=None,
        help="another results folder on the same worlds (results/stall): also draw OUT-paired, "
        "each world's kept encoder there (x) against here (y)",
    )
    args = parser.parse_args(argv)
    if not args.results.is_dir():
        print(f"results: {args.results} is not a folder", file=sys.stderr)
        return 2
    rows = world_rows(collect(args.results).frame)
    if rows.empty:
        print(f"results: no best-of-K coupling run under {args.results}", file=sys.stderr)
        return 2
    table = frequency(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(args.out.with_suffix(".json"), {"floor": FLOOR, "level": LEVEL} | table)
    atomic_write_bytes(args.out.with_suffix(".txt"), markdown(table).encode())
    figure(table, args.out)
    print(markdown(table), end="")
    if args.against is not None:
        if not args.against.is_dir():
            print(f"--against: {args.against} is not a folder", file=sys.stderr)
            return 2
        drawn = paired_figure(rows, world_rows(collect(args.against).frame), args.out)
        print(f"paired: {drawn} worlds run in both folders")
    return 0


if __name__ == "__main__":
    sys.exit(main())
