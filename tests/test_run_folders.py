"""`lejepa-id run` into a folder that already holds a result: the same config trains again,
another config is refused in one line (as `sweep` refuses it) unless --overwrite, and
--versioned gives each call its own OUT/version_N/ results root."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lejepa_id.cli.main import main
from lejepa_id.records.layout import claim_version, next_version

CONFIG = str(Path(__file__).parents[1] / "configs" / "2d.yaml")
FAST = [
    *("--set", "steps=30", "--set", "eval_size=300", "--set", "hidden=16"),
    *("--set", "num_directions=16", "--no-progress"),
]
RUN = ["run", CONFIG, "--run", "spiral_lejepa", "--seed", "0"]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_another_config_is_refused_in_one_line_and_replaced_only_with_overwrite(tmp_path, capsys):
    out = tmp_path / "out"
    assert main([*RUN, "--out", str(out), *FAST, "--set", "scatter=50"]) == 0
    run = out / "2d" / "spiral_lejepa-seed0"
    assert (run / "scatter.safetensors").is_file()
    before = _snapshot(out)
    capsys.readouterr()

    # lr (and the scatter) differ: refused before anything is written, the old result untouched.
    assert main([*RUN, "--out", str(out), *FAST, "--set", "lr=0.002"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "lr=" in err and "--overwrite" in err and "--versioned" in err
    assert _snapshot(out) == before

    # --overwrite trains the new config in its place; the scatter the new config does not
    # make (scatter=0) is gone with the old result, so no figure reads it as this run's.
    new = [*FAST, "--set", "lr=0.002", "--set", "scatter=0"]
    assert main([*RUN, "--out", str(out), *new, "--overwrite"]) == 0
    record = json.loads((run / "result.json").read_text())
    assert record["config"]["lr"] == pytest.approx(0.002)
    assert not (run / "scatter.safetensors").exists()
    assert (run / "weights.safetensors").is_file()

    # The same config again is not refused (it trains the same run again).
    capsys.readouterr()
    assert main([*RUN, "--out", str(out), *new]) == 0


def test_a_sweep_manifest_of_another_config_refuses_run_too(tmp_path, capsys):
    # A sweep folder whose manifest records spiral_lejepa with hidden=16: `run` with
    # hidden=32 would put a run of another config beside the sweep's.
    out = tmp_path / "out"
    root = out / "2d"
    root.mkdir(parents=True)
    base = {"mixing": "spiral", "hidden": 16}
    manifest = {"experiment": "2d", "axes": {"seeds": [0]}, "base_configs": {"spiral_lejepa": base}}
    (root / "sweep.json").write_text(json.dumps(manifest))
    assert main([*RUN, "--out", str(out), *FAST, "--set", "hidden=32"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "hidden=16" in err and "hidden=32" in err
    assert sorted(p.name for p in root.iterdir()) == ["sweep.json"]


def test_versioned_writes_a_new_results_root_each_time(tmp_path, capsys):
    out = tmp_path / "out"
    (out / "version_3").mkdir(parents=True)  # an older one, maybe of another config
    (out / "version_x").mkdir()  # not a version: not counted
    assert main([*RUN, "--out", str(out), *FAST, "--versioned"]) == 0
    assert main([*RUN, "--out", str(out), *FAST, "--set", "lr=0.002", "--versioned"]) == 0
    printed = capsys.readouterr().out
    first = out / "version_4" / "2d" / "spiral_lejepa-seed0" / "result.json"
    second = out / "version_5" / "2d" / "spiral_lejepa-seed0" / "result.json"
    assert f"wrote {first}" in printed and f"wrote {second}" in printed
    assert json.loads(second.read_text())["config"]["lr"] == pytest.approx(0.002)
    assert json.loads(first.read_text())["config"]["lr"] != pytest.approx(0.002)


def test_versioned_refused_with_overwrite_and_nothing_written(tmp_path, capsys):
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exc:
        main([*RUN, "--out", str(out), "--versioned", "--overwrite"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--overwrite" in err and "--versioned" in err
    assert not out.exists()


def test_versioned_refusal_takes_its_folders_back(tmp_path, capsys):
    # A bad value is refused before the version folder is claimed.
    out = tmp_path / "out"
    assert main([*RUN, "--out", str(out), *FAST, "--set", "rho=1.5", "--versioned"]) == 2
    assert not out.exists()


def test_next_version_counts_only_version_numbers(tmp_path):
    assert next_version(tmp_path / "missing") == tmp_path / "missing" / "version_0"
    for name in ("version_0", "version_12", "version_2", "version_", "version_1b", "other"):
        (tmp_path / name).mkdir()
    (tmp_path / "version_20.txt").write_text("")
    assert next_version(tmp_path) == tmp_path / "version_13"
    assert claim_version(tmp_path) == tmp_path / "version_13"
    assert (tmp_path / "version_13").is_dir()
    assert claim_version(tmp_path) == tmp_path / "version_14"
