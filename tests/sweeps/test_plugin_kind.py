"""A new experiment kind is one registration: tests/plugins/coin_kind.py, loaded with
--plugin, runs through `sweep`, `run`, `aggregate` and `report` with no edit elsewhere."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd
import pytest
import torch

from lejepa_id import plugins
from lejepa_id.cli.main import main
from lejepa_id.records import validate
from lejepa_id.sweeps import kinds

PLUGIN = Path(__file__).resolve().parents[1] / "plugins" / "coin_kind.py"
CONFIG = """\
name: coins
kind: coin
runs:
  fair: {p: 0.5, flips: 400}
  loaded: {p: 0.8, flips: 400}
seeds: [0, 1]
"""


@pytest.fixture
def coin_config(tmp_path, monkeypatch):
    """The kind registries and the plugin cache as copies, restored after the test."""
    monkeypatch.setattr(kinds, "_KINDS", dict(kinds._KINDS))
    monkeypatch.setattr(validate, "_CONFIG_CHECKS", dict(validate._CONFIG_CHECKS))
    monkeypatch.setattr(plugins, "_LOADED", {})
    path = tmp_path / "coins.yaml"
    path.write_text(CONFIG)
    yield path
    for name in [m for m in sys.modules if m.startswith("lejepa_id_plugin_")]:
        del sys.modules[name]


def _expected_p_hat(p: float, flips: int, seed: int) -> float:
    gen = torch.Generator().manual_seed(seed)
    return float((torch.rand(flips, generator=gen, dtype=torch.float64) < p).double().mean())


def test_a_plugin_kind_sweeps_aggregates_and_reports(coin_config, tmp_path, capsys):
    out = tmp_path / "out"
    sweep = ["sweep", str(coin_config), "--plugin", str(PLUGIN), "--out", str(out)]
    assert main([*sweep, "--jobs", "1", "--no-progress"]) == 0
    records = sorted((out / "coins").glob("*/result.json"))
    assert [r.parent.name for r in records] == [
        "fair-seed0", "fair-seed1", "loaded-seed0", "loaded-seed1"
    ]  # fmt: skip
    record = json.loads((out / "coins" / "loaded-seed1" / "result.json").read_text())
    assert record["experiment_kind"] == "coin"
    assert record["metrics"]["p_hat"] == _expected_p_hat(0.8, 400, 1)
    # A second sweep finds every run done (the kind's records pass the record check).
    capsys.readouterr()
    assert main([*sweep, "--jobs", "1", "--no-progress"]) == 0
    assert "4 already done" in capsys.readouterr().out

    assert main(["aggregate", str(out)]) == 0
    table = pd.read_csv(out / "runs.csv")
    assert set(table["experiment_kind"]) == {"coin"} and len(table) == 4
    fair0 = table.set_index("run_id").loc["fair-seed0"]
    assert fair0["p_hat"] == pytest.approx(_expected_p_hat(0.5, 400, 0), abs=1e-15)
    assert fair0["run"] == "fair" and fair0["status"] == "finished"

    assert main(["report", str(out)]) == 0
    html = next(out.rglob("*.html")).read_text()
    assert "coins" in html


def test_a_plugin_kind_runs_one_run(coin_config, tmp_path):
    out = tmp_path / "one"
    argv = ["run", str(coin_config), "--run", "loaded", "--seed", "7", "--out", str(out)]
    assert main([*argv, "--plugin", str(PLUGIN), "--no-progress"]) == 0
    record = json.loads((out / "coins" / "loaded-seed7" / "result.json").read_text())
    assert record["metrics"]["p_hat"] == _expected_p_hat(0.8, 400, 7)
    assert record["seed"] == 7 and record["config"]["p"] == 0.8


def test_a_record_of_a_plugin_kind_is_checked_by_its_own_check(coin_config, tmp_path):
    out = tmp_path / "out"
    argv = ["sweep", str(coin_config), "--plugin", str(PLUGIN), "--out", str(out)]
    assert main([*argv, "--jobs", "1", "--no-progress"]) == 0
    path = out / "coins" / "fair-seed0" / "result.json"
    record = json.loads(path.read_text())
    assert validate.record_problem(record, path.parent) is None
    record["config"]["p"] = 3
    assert validate.record_problem(record, path.parent) == "config p=3"
