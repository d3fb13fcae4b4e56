"""What every figure module shares: labels, colours, run selections and saving.

Figures are drawn for print: at least 8 pt text at the saved size, axis labels on
every axis, a colour bar on every heatmap and legends placed outside the data.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless; must precede the pyplot import
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from lejepa_id.objectives import objective_class, objective_names  # noqa: E402
from lejepa_id.records.io import atomic_save_figure  # noqa: E402


class _ObjectiveStyle(Mapping[str, str]):
    """Objective name -> its ``label`` or ``color`` (class attributes of the objective),
    read from the registry when asked, so a plugin's objective is drawn and named like the
    built-in ones without an edit here."""

    _PALETTE = ("tab:purple", "tab:orange", "tab:brown", "tab:pink", "tab:olive", "tab:cyan")

    def __init__(self, attr: str) -> None:
        self.attr = attr

    def __getitem__(self, name: str) -> str:
        if name not in objective_names():
            raise KeyError(name)
        value = getattr(objective_class(name), self.attr, "")
        if value:
            return value
        if self.attr == "label":
            return name
        return self._PALETTE[objective_names().index(name) % len(self._PALETTE)]

    def __iter__(self) -> Iterator[str]:
        return iter(objective_names())

    def __len__(self) -> int:
        return len(objective_names())


MODE_LABELS: Mapping[str, str] = _ObjectiveStyle("label")
MODE_COLORS: Mapping[str, str] = _ObjectiveStyle("color")
# The paper's objectives, in the order of its figures and tables.
MODE_ORDER = ("lejepa", "whiten", "infonce")
MIXING_ORDER = ("spiral", "banana", "sinusoid", "nvp")
THEOREM_MODES = ("lejepa", "whiten")  # the objectives Theorem 3 is stated for
plt.rcParams.update({"font.size": 9, "axes.labelsize": 9, "legend.fontsize": 8})


@dataclass
class Figures:
    """What :func:`lejepa_id.analysis.figures.make_figures` produced."""

    entries: list[dict] = field(default_factory=list)
    tables: list[dict] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    reasons: dict[Path, str] = field(default_factory=dict)
    """Why each skipped result file was left out."""


def mixing_label(row: pd.Series) -> str:
    """spiral, banana, sinusoid, or nvp / coupling-L for the coupling mixing."""
    if row["mixing"] == "coupling":
        return "nvp" if int(row["dim"]) == 2 else f"coupling L={int(row['layers'])}"
    return str(row["mixing"])


def with_labels(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with a ``label`` column (the mixing's display name)."""
    if frame.empty:
        return frame.assign(label=pd.Series(dtype=str))
    return frame.assign(label=frame.apply(mixing_label, axis=1))


def ordered_labels(rows: pd.DataFrame) -> list[str]:
    """Mixing labels in the paper's order (spiral, banana, sinusoid, nvp), others after."""
    rank = {name: i for i, name in enumerate(MIXING_ORDER)}
    return sorted(set(rows["label"]), key=lambda x: (rank.get(x, len(rank)), x))


def finished(frame: pd.DataFrame) -> pd.DataFrame:
    if frame.empty:
        return frame
    return frame[frame["status"] == "finished"].copy()


def paper_worlds(frame: pd.DataFrame) -> pd.DataFrame:
    """The runs of experiments that stay in the paper's world family (one rho for every
    coordinate of an OU channel, D = m = n in every run). An experiment with any run
    outside it (an anisotropic grid, a code-size sweep) is analysed apart, whole."""
    if frame.empty:
        return frame
    inside = np.isfinite(pd.to_numeric(frame["rho"], errors="coerce"))
    if "rho_list" in frame.columns:
        inside &= frame["rho_list"].isna()
    for key in ("code_dim", "obs_dim"):
        if key in frame.columns:
            inside &= frame[key].isna()
    if "transition" in frame.columns:
        inside &= frame["transition"].isna() | (frame["transition"] == "ou")
    outside = set(frame.loc[~inside, "experiment"])
    return frame[~frame["experiment"].isin(outside)]


def sweeping(frame: pd.DataFrame, *columns: str) -> list[str]:
    """Experiments whose runs take more than one value of every one of ``columns``."""
    if frame.empty:
        return []
    counts = frame.groupby("experiment")[list(columns)].nunique()
    return sorted(counts[(counts > 1).all(axis=1)].index)


def named(base: str, experiment: str, experiments: list[str], preferred: str) -> str:
    """The fixed figure name ``base`` for the main experiment, ``base_<experiment>`` else.

    The main experiment is the one called ``preferred`` (the paper's sweep name) or, when
    none is, the first in sorted order; scripts can then rely on the fixed name.
    """
    main = preferred if preferred in experiments else experiments[0]
    return base if experiment == main else f"{base}_{experiment}"


def gaussian_latents(frame: pd.DataFrame) -> pd.Series:
    """Rows whose latents are Gaussian: law gaussian, or gennorm with alpha = 2."""
    return (frame["law"] == "gaussian") | ((frame["law"] == "gennorm") & (frame["alpha"] == 2.0))


def theorem_scope(frame: pd.DataFrame) -> pd.Series:
    """Runs Theorem 3 covers: Gaussian latents, lejepa or whiten, bound quantities finite."""
    finite = np.isfinite(frame["approx_bound"]) & np.isfinite(frame["procrustes_mse_centered"])
    return gaussian_latents(frame) & frame["mode"].isin(THEOREM_MODES) & finite


THEOREM_FILTER = (
    "finished runs with Gaussian latents (law gaussian, or gennorm with α = 2), "
    "objective lejepa or whiten, finite bound and error"
)


def save(fig, out: Path, name: str, caption: str, formats, made: Figures) -> None:
    """Write ``name`` in every format and record it (with its caption) in ``made``."""
    entry = {"name": name, "caption": caption}
    for fmt in formats:
        path = out / f"{name}.{fmt}"
        atomic_save_figure(fig, path, dpi=150, bbox_inches="tight")
        entry[fmt] = path.name
        made.written.append(path)
    plt.close(fig)
    made.entries.append(entry)


def legend_outside(fig, ax) -> None:
    """One legend for the figure, right of the axes, so it never covers data."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)


def seed_stats(rows: pd.DataFrame, by: str | list[str], metric: str) -> pd.DataFrame:
    """mean, std and count of ``metric`` over seeds, per ``by`` (NaN metrics dropped)."""
    rows = rows[np.isfinite(rows[metric].astype(float))]
    return rows.groupby(by)[metric].agg(["mean", "std", "count"]).sort_index()
