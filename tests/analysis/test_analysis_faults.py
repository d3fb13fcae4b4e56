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


def _curves_run(folder, curves) -> None:
    import json

    folder.mkdir(parents=True)
    (folder / "result.json").write_text(json.dumps({"curves": curves}))


@pytest.mark.parametrize("fmt, magic", [("pdf", b"%PDF"), ("svg", b"<?xml"), ("png", b"\x89PNG")])
def test_curves_out_suffix_chooses_the_format(tmp_path, capsys, fmt, magic):
    from lejepa_id.cli.main import main

    _curves_run(tmp_path / "r", {"step": [10, 20, 30], "loss": [3.0, 2.0, 1.5]})
    out = tmp_path / f"c.{fmt}"
    assert main(["curves", str(tmp_path), "--out", str(out)]) == 0
    assert out.read_bytes().startswith(magic)


@pytest.mark.parametrize("name", ["c.jpeg", "c", "c.pdf.txt"])
def test_curves_unknown_suffix_is_one_line(tmp_path, capsys, name):
    from lejepa_id.cli.main import main

    _curves_run(tmp_path / "r", {"step": [10, 20], "loss": [3.0, 2.0]})
    assert main(["curves", str(tmp_path), "--out", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".pdf" in err and name in err
    assert not (tmp_path / name).exists()


@pytest.mark.parametrize("curves", [None, [1, 2], {"step": None}, "x"])
def test_curves_null_in_a_result_is_one_line(tmp_path, capsys, curves):
    from lejepa_id.cli.main import main

    _curves_run(tmp_path / "r", curves)
    assert main(["curves", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no training curves" in err
    assert not (tmp_path / "curves.png").exists()


def test_curves_null_beside_a_good_run_is_skipped_with_a_note(tmp_path, capsys):
    from lejepa_id.cli.main import main

    _curves_run(tmp_path / "bad", None)
    _curves_run(tmp_path / "good", {"step": [10, 20], "loss": [3.0, 2.0]})
    assert main(["curves", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "1 run\n" in captured.out and "1 runs" not in captured.out
    assert "skipped" in captured.err and "bad" in captured.err
