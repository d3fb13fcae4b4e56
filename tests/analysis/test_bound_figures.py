"""The Theorem-3 figures count only the runs the theorem covers and label the error."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pytest
from analysis_fakes import runs_frame

from lejepa_id.analysis import bound
from lejepa_id.analysis.plotting import Figures


@pytest.fixture
def drawn(monkeypatch) -> dict:
    """Figures by name, captured before they are saved and closed."""
    captured: dict = {}
    monkeypatch.setattr(
        bound,
        "save",
        lambda fig, out, name, caption, formats, made: captured.update({name: (fig, caption)}),
    )
    yield captured
    plt.close("all")


def test_bound_figures_count_the_theorem_scope_only(drawn: dict, tmp_path: Path) -> None:
    frame = runs_frame(
        [
            {"law": "gaussian", "procrustes_mse_centered": 0.1},
            {"law": "gaussian", "mode": "whiten", "procrustes_mse_centered": 0.2},
            # Above the bound but outside the scope: drawn grey, never counted.
            {"law": "gaussian", "mode": "infonce", "procrustes_mse_centered": 0.9},
            {"law": "laplace", "procrustes_mse_centered": 0.9},
        ]
    )
    bound.fig_bound(frame, tmp_path, ("png",), Figures())
    bound.fig_bound_decomposition(frame, tmp_path, ("png",), Figures())
    fig, caption = drawn["bound"]
    ax = fig.axes[0]
    assert ax.get_title() == "2 of 2 runs in scope below the bound"
    assert ax.get_ylabel().startswith("centered Procrustes error")
    assert "2 runs outside the theorem's scope, drawn but not counted" in caption
    labels = ax.get_legend_handles_labels()[1]
    assert "infonce, outside scope" in labels and "lejepa (counted)" in labels
    fig, _ = drawn["bound_decomposition"]
    assert [a.get_xlabel().split(" ")[0] for a in fig.axes[:2]] == ["ε", "alignment"]
    assert fig.axes[0].get_ylabel().startswith("centered Procrustes error")


def test_one_rho_gets_no_colour_bar_and_several_get_one(drawn: dict, tmp_path: Path) -> None:
    one = runs_frame([{"law": "gaussian"}, {"law": "gaussian", "mode": "whiten"}])
    bound.fig_bound(one, tmp_path, ("png",), Figures())
    bound.fig_bound_decomposition(one, tmp_path, ("png",), Figures())
    for name, panels in (("bound", 1), ("bound_decomposition", 2)):
        fig, _ = drawn[name]
        # No colour bar axes beside the panels; the one value is written in the corner.
        assert len(fig.axes) == panels, name
        assert any(t.get_text() == "ρ = 0.95" for ax in fig.axes for t in ax.texts), name
    two = runs_frame([{"law": "gaussian"}, {"law": "gaussian", "rho": 0.5}])
    bound.fig_bound(two, tmp_path, ("png",), Figures())
    fig, _ = drawn["bound"]
    assert len(fig.axes) == 2 and not any(t.get_text().startswith("ρ =") for t in fig.axes[0].texts)
