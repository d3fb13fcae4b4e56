"""Every figure, drawn from small fabricated runs, passes the print checks: numbers on
coloured cells contrast with them (WCAG ratio >= 4.5), discrete data get a colour bar or
legend with exactly one tick or entry per value, no panel is left empty, and labels
carry no internal words ("(judged)") or wrong plurals ("1 runs")."""

from __future__ import annotations

import math
import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from analysis_fakes import metrics, write_run
from matplotlib.image import AxesImage

from lejepa_id.analysis import ablation, beyond, bound, figures, gennorm, plotting, scaling
from lejepa_id.analysis.plotting import (
    contrast_ratio,
    discrete_colours,
    relative_luminance,
    text_colour,
    theorem_scope,
)
from lejepa_id.analysis.table import collect
from lejepa_id.config.run import RunConfig

FIGURE_MODULES = (ablation, beyond, bound, figures, gennorm, scaling)
BAD_WORDS = re.compile(r"\(judged\)|\b1 (runs|seeds|points|settings)\b")


def _draw(directory: Path, out: Path) -> dict[str, plt.Figure]:
    """make_figures on ``directory``, keeping every figure it saves (name -> Figure)."""
    drawn: dict[str, plt.Figure] = {}
    original = plotting.save

    def keep(fig, out_dir, name, caption, formats, made) -> None:
        drawn[name] = fig
        original(fig, out_dir, name, caption, formats, made)

    with pytest.MonkeyPatch.context() as mp:
        for module in FIGURE_MODULES:
            mp.setattr(module, "save", keep)
        figures.make_figures(directory, out, formats=("png",))
    return drawn


@pytest.fixture(scope="module")
def drawn(results: Path, tmp_path_factory) -> dict[str, plt.Figure]:
    """The shared fabricated results' figures, plus an anisotropic ρ grid's heatmaps."""
    out = _draw(results, tmp_path_factory.mktemp("figures"))
    root = tmp_path_factory.mktemp("anisotropic")
    for first in (0.5, 0.9, 0.99):
        for rest in (0.5, 0.9, 0.99):
            r2 = 0.2 + 0.8 * first * rest  # dark and pale cells on viridis
            values = metrics(r2) | {"predicted_feature_r2": 1 - r2 / 2}
            cfg = RunConfig(rho=[first, rest], seed=0)
            write_run(root, "anisotropic", "spiral", f"spiral-rho{first:g}x{rest:g}-seed0", cfg,
                      values)  # fmt: skip
    more = _draw(root, tmp_path_factory.mktemp("anisotropic_figures"))
    return out | {f"aniso:{name}": fig for name, fig in more.items()}


def _colorbars(fig: plt.Figure) -> list:
    return [ax._colorbar for ax in fig.axes if getattr(ax, "_colorbar", None) is not None]


def _texts(fig: plt.Figure) -> list[str]:
    """Every piece of text a reader sees: titles, axis and tick labels, annotations,
    legends, the figure's own texts."""
    out = [t.get_text() for t in fig.texts]
    for legend in fig.legends:
        out += [t.get_text() for t in legend.get_texts()] + [legend.get_title().get_text()]
    for ax in fig.axes:
        out += [ax.get_title(loc) for loc in ("left", "center", "right")]
        out += [ax.get_xlabel(), ax.get_ylabel()]
        out += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        out += [t.get_text() for t in ax.texts]
        if ax.get_legend() is not None:
            out += [t.get_text() for t in ax.get_legend().get_texts()]
    return out


def _check_cell_contrast(fig: plt.Figure) -> int:
    """Assert every number printed on an image cell contrasts with the cell; returns how
    many were checked."""
    checked = 0
    for ax in fig.axes:
        images = [im for im in ax.images if isinstance(im, AxesImage)]
        if not images:
            continue
        image = images[0]
        values = np.asarray(image.get_array(), dtype=float)
        for text in ax.texts:
            x, y = text.get_position()
            i, j = int(round(y)), int(round(x))
            if not (0 <= i < values.shape[0] and 0 <= j < values.shape[1]):
                continue
            cell = image.cmap(image.norm(values[i, j]))
            ratio = contrast_ratio(text.get_color(), cell)
            assert ratio >= 4.5, (text.get_text(), text.get_color(), cell, ratio)
            checked += 1
    return checked


def _check_panels(name: str, fig: plt.Figure) -> None:
    """No shown panel without data (colour bars aside), no bad words in any label."""
    bars = {bar.ax for bar in _colorbars(fig)}
    for ax in fig.axes:
        if ax in bars or not ax.get_visible() or not ax.axison:
            continue
        artists = len(ax.lines) + len(ax.collections) + len(ax.images) + len(ax.patches)
        assert artists > 0, f"{name}: an empty panel titled {ax.get_title()!r}"
    for text in _texts(fig):
        assert not BAD_WORDS.search(text), f"{name}: {text!r}"


def test_every_figure_has_data_in_every_panel_and_clean_labels(drawn) -> None:
    assert {"grid_heatmap_orth_err", "bound", "gennorm_r2_vs_alpha"} <= set(drawn)
    assert any(name.startswith("aniso:anisotropic_") for name in drawn)
    for name, fig in drawn.items():
        _check_panels(name, fig)


def test_heatmap_numbers_contrast_with_their_cells(drawn) -> None:
    heatmaps = [n for n in drawn if n.startswith(("grid_heatmap", "aniso:anisotropic_"))]
    assert len(heatmaps) >= 3
    for name in heatmaps:
        assert _check_cell_contrast(drawn[name]) >= 4, name
    # The reversed map (pale at low error) has pale cells: their numbers are dark.
    orth = drawn["grid_heatmap_orth_err"].axes[0]
    colours = {t.get_color() for t in orth.texts}
    assert "black" in colours


def test_discrete_rho_gets_a_tick_per_value(drawn, results: Path) -> None:
    frame = collect(results).frame
    frame = frame[frame["status"] == "finished"]
    rhos = sorted(set(frame.loc[theorem_scope(frame), "rho"].astype(float)))
    assert 1 < len(rhos) <= plotting.MAX_DISCRETE
    for name in ("bound", "bound_decomposition"):
        (bar,) = _colorbars(drawn[name])
        assert len(bar.get_ticks()) == len(rhos), name
        labels = [t.get_text() for t in bar.ax.get_yticklabels()]
        assert labels == [f"{v:g}" for v in rhos], name


def test_colour_scale_is_discrete_for_few_values_only() -> None:
    two = discrete_colours([0.5, 0.9, 0.9, float("nan")])
    assert two.values == (0.5, 0.9) and two.cmap.N == 2
    # Each value is coloured by its rank, in its own band: 0.5 -> colour 0, 0.9 -> 1.
    codes = two.codes([0.9, 0.5, 0.7])
    assert codes[:2].tolist() == [1.0, 0.0] and np.isnan(codes[2])
    assert [int(two.norm(c)) for c in (0.0, 1.0)] == [0, 1]
    one = discrete_colours([0.95])
    assert one.values == (0.95,) and one.cmap.N == 1
    many = discrete_colours(np.linspace(0, 1, 20))
    assert many.values is None


def test_text_colour_meets_wcag_on_every_colour() -> None:
    assert relative_luminance("white") == pytest.approx(1.0)
    assert contrast_ratio("black", "white") == pytest.approx(21.0)
    for cmap in ("viridis", "magma_r", "coolwarm", "gray"):
        for level in np.linspace(0, 1, 41):
            cell = plt.get_cmap(cmap)(level)
            assert contrast_ratio(text_colour(cell), cell) >= 4.5, (cmap, level)
    assert text_colour("#fcfdbf") == "black"  # magma_r's palest: white was unreadable
    assert text_colour("#000004") == "white"


def test_reacher_planning_scatter_has_a_row_per_trained_kind(tmp_path: Path) -> None:
    from lejepa_id.reacher.figures_stats import fig_planning_scatter

    rng = np.random.default_rng(0)
    runs = []
    for kind, seeds, lam in (("ou", 1, 0.01), ("traj", 2, 0.01), ("traj", 1, 0.1)):
        for seed in range(seeds):
            ratio = np.exp(0.1 * rng.standard_normal(30) + 0.2).tolist()
            runs.append({"kind": kind, "lam": lam, "seed": seed, "ratio": ratio,
                         "opt_ratio": ratio})  # fmt: skip
    oracle = np.exp(rng.standard_normal(30)).tolist()
    plan = {"runs": runs, "J_oracle": oracle, "J_opt": oracle, "reference": {"ratio": [1.0] * 30}}
    fig = fig_planning_scatter(plan)
    _check_panels("reacher_planning_scatter", fig)
    # Two kinds trained (no coverage-matched runs): two rows, not a third of empty panels.
    assert len([ax for ax in fig.axes if ax.get_visible()]) == 6
    titles = [ax.get_title() for ax in fig.axes]
    assert "OU pairs (1 run)" in titles and "trajectory pairs (3 runs)" in titles
    # Two lambdas, two legend entries.
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["λ = 0.01", "λ = 0.1"]
    plt.close(fig)


def test_reacher_latents_are_readable_in_print() -> None:
    from lejepa_id.reacher.figures import latents_figure

    z = np.random.default_rng(0).standard_normal((500, 2))
    spaces = [("true angles", z)] + [(f"code {k}\nR² = 0.9", z @ np.eye(2)) for k in range(3)]
    fig = latents_figure(z, spaces)
    _check_panels("reacher_latents", fig)
    width, _ = fig.get_size_inches()
    assert width <= 7.0  # a page's width: printed at its size, not shrunk
    sizes = [t.get_fontsize() for ax in fig.axes for t in (
        ax.title, ax.xaxis.label, ax.yaxis.label, *ax.get_xticklabels(), *ax.get_yticklabels()
    ) if t.get_text()]  # fmt: skip
    assert sizes and min(sizes) >= 7, min(sizes)
    assert len(_colorbars(fig)) == 1
    plt.close(fig)


def test_contrast_ratio_is_symmetric_and_bounded() -> None:
    for a, b in (("red", "blue"), ("#777777", "white")):
        assert contrast_ratio(a, b) == pytest.approx(contrast_ratio(b, a))
        assert 1 <= contrast_ratio(a, b) <= 21
    assert math.isclose(contrast_ratio("grey", "grey"), 1.0)


def test_code_panels_are_square_with_ticks(tmp_path: Path) -> None:
    import torch

    from lejepa_id.records.io import save_tensors

    z = torch.randn(200, 2, generator=torch.Generator().manual_seed(0))
    for mode in ("lejepa", "whiten"):
        cfg = RunConfig(scatter=200, mode=mode)
        write_run(tmp_path, "2d", f"spiral_{mode}", f"spiral_{mode}-seed0", cfg, metrics(0.99))
        # Codes stretched 4:1 in their own units: an unequal aspect would hide it.
        save_tensors(tmp_path / "2d" / f"spiral_{mode}-seed0" / "scatter.safetensors",
                     {"z": z, "x": z.clone(), "h": z * torch.tensor([4.0, 1.0])})  # fmt: skip
    fig = _draw(tmp_path, tmp_path / "figures")["2d_panels"]
    shown = [ax for ax in fig.axes if ax.axison and ax.collections]
    assert len(shown) == 4  # z, x and the codes of two objectives
    for ax in shown:
        # One unit on x is one unit on y (a rotation of z looks round), with ticks.
        assert ax.get_aspect() == 1.0, ax.get_title()
        assert len(ax.get_xticks()) >= 2 and len(ax.get_yticks()) >= 2, ax.get_title()
    assert [ax.get_title().split("\n")[0] for ax in shown[2:]] == [
        "SIGReg (LeJEPA)",
        "VICReg (whiten)",
    ]


def test_objectives_are_ordered_by_the_registry_never_a_fixed_list(monkeypatch) -> None:
    from dataclasses import dataclass

    from lejepa_id.config import components
    from lejepa_id.objectives import Objective, register_objective

    monkeypatch.setitem(components._REGISTERED, "objective",
                        dict(components._REGISTERED["objective"]))  # fmt: skip

    @register_objective("zz_first")
    @dataclass(frozen=True)
    class First(Objective):
        order = -1  # a plugin may ask to come first

    @register_objective("aa_mine")
    @dataclass(frozen=True)
    class Mine(Objective):
        label = "Mine"

    present = ["aa_mine", "infonce", "not_loaded", "whiten", "zz_first", "lejepa", None]
    assert plotting.ordered_modes(present) == [
        "zz_first", "lejepa", "whiten", "infonce", "aa_mine", "not_loaded"
    ]  # fmt: skip
    assert (
        plotting.MODE_LABELS["aa_mine"] == "Mine" and plotting.MODE_LABELS["zz_first"] == "zz_first"
    )
    assert plotting.MODE_LABELS.get("not_loaded", "not_loaded") == "not_loaded"
