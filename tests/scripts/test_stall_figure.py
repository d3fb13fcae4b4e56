"""scripts/stall_figure.py on tiny best-of-3 runs: its counts are the records' own, its
interval the exact binomial one, and a folder without such runs is one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lejepa_id import train
from lejepa_id.config.experiments import load_experiment

ROOT = Path(__file__).parents[2]


@pytest.fixture
def script(load_script):
    return load_script("stall_figure")


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("stall-results")
    for mode, seed in (("lejepa", 1), ("lejepa", 2), ("whiten", 1)):
        sets = ["dims=[4]", f"seeds=[{seed}]", "steps=60", "eval_size=1000"]
        exp = load_experiment(ROOT / "configs" / "stall.yaml", sets)
        config = exp.run_config(mode, dim=4, seed=seed)
        train(config, progress=False).save(root / "stall" / f"{mode}-dim4-seed{seed}")
    return root


def test_the_frequency_table_counts_the_records_starts_and_kept_encoders(script, results, tmp_path):
    out = tmp_path / "img" / "stall"
    assert script.main([str(results), "--out", str(out)]) == 0
    doc = json.loads(out.with_suffix(".json").read_text())
    lejepa = doc["lejepa"]["4"]
    records = {
        seed: json.loads(
            (results / "stall" / f"lejepa-dim4-seed{seed}" / "result.json").read_text()
        )
        for seed in (1, 2)
    }
    for seed, record in records.items():
        world = lejepa["per_world"][str(seed)]
        assert world["starts"] == [m["r2_hz"] for m in record["init_final_metrics"]]
        assert world["kept"] == record["metrics"]["r2_hz"]
    kept = [r["metrics"]["r2_hz"] for r in records.values()]
    starts = [m["r2_hz"] for r in records.values() for m in r["init_final_metrics"]]
    assert lejepa["worlds"] == 2 and lejepa["starts"] == 6
    assert lejepa["stalled_worlds"] == sum(r <= 0.999 for r in kept)
    assert lejepa["stalled_starts"] == sum(r <= 0.999 for r in starts)
    # 60 steps identify nothing: 2 of 2 stalled, exact interval (0.025^(1/2), 1).
    assert lejepa["stalled_worlds"] == 2
    assert lejepa["ci_low"] == pytest.approx(0.025**0.5) and lejepa["ci_high"] == 1.0
    assert doc["whiten"]["4"]["worlds"] == 1
    assert "| lejepa | 4 | 2 | 2 |" in out.with_suffix(".txt").read_text()
    assert out.with_suffix(".png").stat().st_size > 0 and out.with_suffix(".pdf").is_file()


def test_a_folder_without_best_of_k_coupling_runs_is_refused(script, tmp_path, capsys):
    assert script.main([str(tmp_path), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no best-of-K coupling run" in err[0]
    assert not list(tmp_path.iterdir())


def test_against_pairs_the_worlds_both_folders_ran(script, results, tmp_path, capsys):
    # The same folder against itself: every world pairs with itself (3 of them, on the
    # diagonal); a folder without those worlds pairs none and draws nothing.
    out = tmp_path / "img" / "stall"
    assert script.main([str(results), "--out", str(out), "--against", str(results)]) == 0
    assert "paired: 3 worlds run in both folders" in capsys.readouterr().out
    assert (tmp_path / "img" / "stall-paired.png").stat().st_size > 0
    rows = script.world_rows(script.collect(results).frame)
    assert script.paired_figure(rows, rows.iloc[0:0], tmp_path / "none") == 0
    assert not (tmp_path / "none-paired.png").exists()
    assert script.main([str(results), "--out", str(out), "--against", str(tmp_path / "no")]) == 2
