"""scripts/stall_diagnosis.py on a tiny best-of-3 run: it reproduces each initialization's
recorded metrics, and its slice joins the two initializations it names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lejepa_id import train
from lejepa_id.config.experiments import load_experiment

ROOT = Path(__file__).parents[2]


@pytest.fixture
def script(load_script):
    return load_script("stall_diagnosis")


def _run(tmp: Path, mode: str, seed: int) -> Path:
    sets = ["dims=[4]", f"seeds=[{seed}]", "steps=150", "eval_size=2000"]
    config = load_experiment(ROOT / "configs" / "stall.yaml", sets).run_config(
        mode, dim=4, seed=seed
    )
    folder = tmp / f"{mode}-seed{seed}"
    train(config, progress=False).save(folder)
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stall")
    return {"lejepa": _run(tmp, "lejepa", 1), "whiten": _run(tmp, "whiten", 1),
            "other": _run(tmp, "whiten", 2)}  # fmt: skip


def test_each_initialization_scores_as_recorded_and_the_slice_joins_them(script, runs, tmp_path):
    record = json.loads((runs["lejepa"] / "result.json").read_text())["init_final_metrics"]
    r2s = sorted(m["r2_hz"] for m in record)
    floor = (r2s[0] + r2s[1]) / 2  # the worst start counts as stalled, the others not
    doc = script.diagnose(runs["lejepa"], [runs["whiten"]], tmp_path, 2, floor, 5)
    for mine, kept in zip(doc["inits"], record):
        assert mine["r2_hz"] == pytest.approx(kept["r2_hz"], rel=1e-9)
        assert mine["orth_err"] == pytest.approx(kept["orth_err"], rel=1e-6)
        assert mine["stalled"] == (kept["r2_hz"] <= floor)
    ends = doc["slice"]["points"][1], doc["slice"]["points"][3]
    assert [p["t"] for p in ends] == [0.125, 0.875]
    first, last = doc["slice"]["points"][0], doc["slice"]["points"][-1]
    assert (first["t"], last["t"]) == (-0.25, 1.25)
    a, b = doc["slice"]["from_init"], doc["slice"]["to_init"]
    assert doc["inits"][a]["stalled"] and not doc["inits"][b]["stalled"]
    # The whitening code, scored by SIGReg's objective on the same batches.
    assert doc["against"][0]["mode"] == "whiten" and doc["against"][0]["loss"] > 0
    assert (tmp_path / "slice.png").is_file() and (tmp_path / "diagnosis.json").is_file()
    assert doc["world"]["log10_cond_max"] >= doc["world"]["log10_cond_median"] >= 0


def test_a_slice_end_is_exactly_its_initialization(script, runs, tmp_path):
    config = script.run_config(runs["lejepa"])
    bench = script.Bench(config, batches=2)
    inits = script.init_weights(runs["lejepa"])
    at0, at1 = script.line(bench, inits[0], inits[2], [0.0, 1.0])
    assert at0["loss"] == bench.score(inits[0])["loss"]
    assert at1["r2_hz"] == bench.score(inits[2])["r2_hz"]


def test_a_run_on_another_world_is_refused(script, runs, tmp_path, capsys):
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as stop:
        script.diagnose(runs["lejepa"], [runs["other"]], out, 2, 0.999, 5)
    assert stop.value.code == 2
    assert "is not on" in capsys.readouterr().err
    assert not out.exists()


def test_a_folder_without_a_result_is_refused(script, tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        script.main([str(tmp_path)])
    assert stop.value.code == 2
    assert "no result.json" in capsys.readouterr().err
    assert not (tmp_path / "diagnosis").exists()
