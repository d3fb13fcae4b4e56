"""What every figure module shares: labels, colours, run selections and saving.

Figures are drawn for print: at least 8 pt text at the saved size, axis labels on
every axis, a colour bar on every heatmap and legends placed outside the data. Numbers
printed on coloured cells take black or white, whichever contrasts more with the cell
(:func:`text_colour`, WCAG 2 contrast, always at least 4.5:1); data with a few discrete
values (a ρ swept at two values) get a discrete colour bar with exactly those ticks
(:func:`discrete_colours`), never a continuous one.
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
from matplotlib.colors import BoundaryNorm, Colormap, ListedColormap, Normalize, to_rgb  # noqa: E402

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


def ordered_modes(present) -> list[str]:
    """The objectives among ``present`` in the order figures and tables show them: the
    registered ones by their ``order`` (the paper's lejepa, whiten, infonce first; a
    plugin's after, in registration order), then any the registry does not know (a
    plugin not loaded), by name. Never a fixed list: a plugin's objective is drawn too."""
    present = {m for m in present if isinstance(m, str)}
    names = objective_names()
    known = sorted(
        (m for m in present if m in names),
        key=lambda m: (getattr(objective_class(m), "order", 100), names.index(m)),
    )
    return known + sorted(present - set(known))


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


def plural(n: int, noun: str) -> str:
    """``1 run``, ``2 runs``: counts in titles and captions."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def relative_luminance(colour) -> float:
    """WCAG 2 relative luminance of a colour (sRGB, linearised)."""
    channels = np.asarray(to_rgb(colour), dtype=float)
    linear = np.where(channels <= 0.04045, channels / 12.92, ((channels + 0.055) / 1.055) ** 2.4)
    return float(linear @ np.array([0.2126, 0.7152, 0.0722]))


def contrast_ratio(a, b) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 (same) to 21 (black on white)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_colour(background) -> str:
    """Black or white text, whichever contrasts more with ``background``. The better of
    the two is never below 4.58:1 (WCAG's 4.5 for normal text), whatever the colour."""
    return (
        "black"
        if contrast_ratio("black", background) >= contrast_ratio("white", background)
        else "white"
    )


MAX_DISCRETE = 8
"""At most this many distinct values are drawn with a discrete colour bar."""


@dataclass(frozen=True)
class ColourScale:
    """How a colour-coded quantity is drawn: its colour map, norm, and the discrete values
    or None for a continuous scale. A discrete scale colours the values' ranks (0, 1, ...:
    :meth:`codes`), so every value gets a band of the same height with its tick in the
    middle, however unevenly the values are spaced (ρ = 0.5, 0.9, 0.95)."""

    cmap: Colormap
    norm: Normalize
    values: tuple[float, ...] | None

    def codes(self, data) -> np.ndarray:
        """What to pass as ``c=``: the data, or for a discrete scale each value's rank."""
        x = np.asarray(data, dtype=float)
        if self.values is None:
            return x
        ranks = {v: float(k) for k, v in enumerate(self.values)}
        return np.array([ranks.get(float(v), np.nan) for v in x])

    def colorbar(self, fig, ax, label: str):
        """The scale's colour bar: for discrete values one band and one tick per value."""
        mappable = plt.cm.ScalarMappable(norm=self.norm, cmap=self.cmap)
        if self.values is None:
            return fig.colorbar(mappable, ax=ax, label=label, pad=0.02)
        ranks = np.arange(len(self.values), dtype=float)
        mappable.set_array(ranks)
        bar = fig.colorbar(mappable, ax=ax, label=label, pad=0.02, ticks=list(ranks))
        bar.ax.set_yticklabels([f"{v:g}" for v in self.values])
        bar.ax.minorticks_off()
        return bar


def discrete_colours(
    values, cmap: str = "viridis", vmin: float = 0.0, vmax: float = 1.0
) -> ColourScale:
    """A colour scale for ``values``: discrete (one colour and one tick per distinct value)
    when there are at most :data:`MAX_DISCRETE` of them, else continuous over
    [vmin, vmax]."""
    finite = np.asarray(values, dtype=float)
    distinct = sorted(set(finite[np.isfinite(finite)].tolist()))
    base = plt.get_cmap(cmap)
    if not distinct or len(distinct) > MAX_DISCRETE:
        return ColourScale(base, Normalize(vmin, vmax), None)
    # The values spread over the whole map (ranks, not values): 0.9 and 0.95 must not
    # both come out yellow-green.
    levels = np.linspace(0.0, 1.0, len(distinct)) if len(distinct) > 1 else np.array([0.5])
    colours = [base(level) for level in levels]
    bounds = np.arange(len(distinct) + 1) - 0.5
    return ColourScale(
        ListedColormap(colours), BoundaryNorm(bounds, len(distinct)), tuple(distinct)
    )


def annotate_cells(ax, image, values: np.ndarray, fmt: str, fontsize: float = 7) -> None:
    """Each finite cell's value printed on it, black or white by the cell's colour."""
    for (i, j), v in np.ndenumerate(values):
        if np.isfinite(v):
            cell = image.cmap(image.norm(v))
            ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=fontsize,
                    color=text_colour(cell))  # fmt: skip
