"""Faults and bad input of aggregate and figures: a kill mid-write, a corrupt scatter
file, unknown figure formats."""

from __future__ import annotations

import pandas as pd
import pytest
from analysis_fakes import metrics, write_run

from lejepa_id.analysis.figures import make_figures
from lejepa_id.analysis.table import write_table
from lejepa_id.config.run import RunConfig


def test_aggregate_replaces_the_table_whole_or_not_at_all(results, tmp_path, monkeypatch):
    """A kill while the tables are written leaves the previous tables, never a cut one."""
    import lejepa_id.records.io as io_module

    out = tmp_path / "tables"
    out.mkdir()
    (out / "runs.csv").write_text("old\n")

    def killed(fd):
        raise KeyboardInterrupt  # as a SIGINT in the middle of the write

    monkeypatch.setattr(io_module.os, "fsync", killed)
    with pytest.raises(KeyboardInterrupt):
        write_table(results, out)
    assert (out / "runs.csv").read_text() == "old\n"
    assert sorted(p.name for p in out.iterdir()) == ["runs.csv"]  # no temporary left
    monkeypatch.undo()
    table = write_table(results, out)
    assert len(pd.read_csv(out / "runs.csv")) == len(table.frame)


def test_a_corrupt_scatter_file_is_skipped_with_a_note(tmp_path):
    import torch

    from lejepa_id.records.io import save_tensors

    for seed in (0, 1):
        cfg = RunConfig(scatter=100, seed=seed)
        write_run(tmp_path, "2d", "spiral_lejepa", f"spiral_lejepa-seed{seed}", cfg,
               metrics(0.99))  # fmt: skip
    run0 = tmp_path / "2d" / "spiral_lejepa-seed0"
    (run0 / "scatter.safetensors").write_bytes(b"\x10\x00\x00\x00garbage")
    made = make_figures(tmp_path, tmp_path / "figs", formats=("png",))
    assert f"no readable scatter in {run0}" in made.notes
    # Arrays of the wrong shape are as unreadable as garbage.
    save_tensors(run0 / "scatter.safetensors", {k: torch.zeros(5, 3) for k in "zxh"})
    made = make_figures(tmp_path, tmp_path / "figs", formats=("png",))
    assert f"no readable scatter in {run0}" in made.notes


@pytest.mark.parametrize("formats", [("xyz",), ("",), ("png", "")])
def test_unknown_figure_formats_are_refused_before_anything_is_written(tmp_path, formats):
    from lejepa_id.errors import UsageError

    with pytest.raises(UsageError, match="choose one or more of png, pdf, svg"):
        make_figures(tmp_path, tmp_path / "figs", formats=formats)
    assert not (tmp_path / "figs").exists()
