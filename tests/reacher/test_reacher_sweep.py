"""The Reacher grid as an experiment config run by ``lejepa-id sweep``: the published
layout, resume, the manifest's refusal of changed settings, planning on the result, and
bad configs refused before anything is written."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from lejepa_id.cli.main import main
from lejepa_id.reacher.experiment import ReacherSpec, load_reacher_experiment
from lejepa_id.records.result import RESULT_FILE

TINY = {"epochs": 1, "batch": 32, "fit_n": 100, "device": "cpu"}


def _config(tmp_path, tiny_data, **extra) -> str:
    tree = {
        "name": "rgrid",
        "kind": "reacher",
        "eval": str(tiny_data / "eval"),
        "defaults": TINY,
        "runs": {"ou": {"data": str(tiny_data / "ou")}, "traj": {"data": str(tiny_data / "traj")}},
        "lambs": [0.01],
        "seeds": [0, 1],
        **extra,
    }
    path = tmp_path / "rgrid.yaml"
    path.write_text(json.dumps(tree))  # JSON is YAML
    return str(path)


def _sweep(config, out, *extra) -> int:
    return main(["sweep", config, "--out", str(out), "--jobs", "1", "--no-progress", *extra])


def test_sweep_trains_the_grid_in_the_reacher_layout_and_resumes(tiny_data, tmp_path, capsys):
    config, out = _config(tmp_path, tiny_data), tmp_path / "runs"
    assert _sweep(config, out) == 0
    assert "4 runs, 0 already done" in capsys.readouterr().out
    root = out / "rgrid"
    for label in ("ou", "traj"):
        for seed in (0, 1):
            res = json.loads((root / label / f"lam0.01_seed{seed}" / RESULT_FILE).read_text())
            assert res["status"] == "finished" and res["label"] == label
            assert res["config"]["seed"] == seed and res["steps"] == 5  # 160 pairs // 32
        assert "r2_pixels_pca64_hz" in json.loads((root / label / "baseline.json").read_text())
    stamp = (root / "ou" / "lam0.01_seed0" / RESULT_FILE).stat().st_mtime_ns
    assert _sweep(config, out) == 0  # a second sweep finds everything done
    assert "4 runs, 4 already done" in capsys.readouterr().out
    assert (root / "ou" / "lam0.01_seed0" / RESULT_FILE).stat().st_mtime_ns == stamp
    # `reacher plan` reads the sweep's experiment directory as its runs directory.
    argv = ["reacher", "plan", "--runs", str(root), "--eval", str(tiny_data / "eval")]
    assert main([*argv, "--k", "5"]) == 0
    plan = json.loads((root / "plan.json").read_text())
    assert {r["kind"] for r in plan["runs"]} == {"ou", "traj"} and len(plan["runs"]) == 4
    # `aggregate` tabulates the grid like any experiment: one row per run.
    assert main(["aggregate", str(root), "--out", str(tmp_path / "table")]) == 0
    frame = pd.read_csv(tmp_path / "table" / "runs.csv")
    assert list(frame["run_id"]) == [f"{k}/lam0.01_seed{s}" for k in ("ou", "traj") for s in (0, 1)]
    assert set(frame["experiment"]) == {"rgrid"} and list(frame["run"]) == list(frame["kind"])
    assert set(frame["epochs"]) == {1} and frame["r2_hz"].notna().all()
    assert frame["final_loss"].notna().all()


def test_a_seed_field_trains_each_seed_on_its_own_dataset(tiny_data, tmp_path, capsys):
    from lejepa_id.reacher.datasets import RenderSpec, render_dataset

    data = tmp_path / "data"
    data.mkdir()
    (data / "ou_s0").symlink_to(tiny_data / "ou")  # rendered with seed 0
    spec = RenderSpec("ou", 160, size=32, look="fast", shard_size=80, seed=1)
    render_dataset(spec, data / "ou_s1", workers=1)
    config = _config(tmp_path, tiny_data, runs={"ou": {"data": str(data / "ou_s{seed}")}})
    out = tmp_path / "runs"
    assert _sweep(config, out) == 0
    root = out / "rgrid" / "ou"
    identities = []
    for seed in (0, 1):
        res = json.loads((root / f"lam0.01_seed{seed}" / RESULT_FILE).read_text())
        assert res["data"]["train"] == str((data / f"ou_s{seed}").resolve())
        identities.append(res["data"]["train_identity"])
        baseline = json.loads((root / f"baseline_seed{seed}.json").read_text())
        assert "r2_pixels_pca64_hz" in baseline
    assert [i["seed"] for i in identities] == [0, 1]
    assert not (root / "baseline.json").exists()  # one baseline per dataset, not one shared
    capsys.readouterr()
    # The manifest keeps the path with its field: a rerun resumes, both runs done.
    assert _sweep(config, out) == 0
    assert "2 runs, 2 already done" in capsys.readouterr().out


def test_a_changed_setting_is_refused_and_an_axis_can_grow(tiny_data, tmp_path, capsys):
    config, out = _config(tmp_path, tiny_data, seeds=[0]), tmp_path / "runs"
    assert _sweep(config, out, "--set", "runs=[ou]") == 0
    capsys.readouterr()
    assert _sweep(config, out, "--set", "runs=[ou]", "--set", "epochs=2") == 2
    assert "epochs" in capsys.readouterr().err
    assert _sweep(config, out, "--set", "runs=[ou]", "--set", "lambs=[0.01,0.05]") == 0
    assert "2 runs, 1 already done" in capsys.readouterr().out
    assert (out / "rgrid" / "ou" / "lam0.05_seed0" / RESULT_FILE).is_file()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"defaults": {**TINY, "epochz": 1}}, "unknown key 'epochz'"),
        ({"lambs": [2.0]}, "lam=2.0"),
        ({"seeds": [0, 0]}, "each value once"),
        ({"eval": "/nowhere/eval"}, "not a reacher dataset"),
        ({"colour": 1}, "unknown key 'colour'"),
        ({"lambs": [0.01, 1e-2]}, "each value once"),
        ({"lambs": ["abc"]}, "lam='abc'"),
        ({"runs": {"ou": "data/ou"}}, "runs.ou must be a mapping"),
        ({"defaults": [1]}, "'defaults' must be a mapping"),
        ({"runs": {"ou": {"data": 3}}}, "runs.ou.data must be the path"),
        ({"runs": {"ou": {"data": "data/ou_{rho}"}}}, "brace other than {seed}"),
        ({"runs": {"ou": {"data": "/nowhere/ou_s{seed}"}}}, "not a reacher dataset"),
    ],
)
def test_bad_grid_configs_exit_2_before_anything_is_written(
    tiny_data, tmp_path, capsys, extra, message
):
    out = tmp_path / "runs"
    assert _sweep(_config(tmp_path, tiny_data, **extra), out) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_run_ids_are_the_published_directories(tiny_data, tmp_path):
    exp = load_reacher_experiment(_config(tmp_path, tiny_data, lambs=[0.001, 1e-2]))
    specs = exp.expand()
    assert all(isinstance(s, ReacherSpec) for s in specs)
    assert [s.run_id for s in specs][:2] == ["ou/lam0.001_seed0", "ou/lam0.001_seed1"]
    assert {s.config.to_dict()["eval"] for s in specs} == {str(tiny_data / "eval")}


def test_yaml_spellings_of_numbers_are_accepted(tiny_data, tmp_path):
    path = tmp_path / "g.yaml"
    ou, gallery = tiny_data / "ou", tiny_data / "eval"
    path.write_text(
        f"kind: reacher\neval: {gallery}\nruns: {{ou: {{data: {ou}}}}}\n"
        "defaults: {lr: 3e-3}\nlambs: [1e-3]\n"
    )
    (spec,) = load_reacher_experiment(path).expand()
    assert (spec.config.train.lam, spec.config.train.lr) == (1e-3, 3e-3)
    assert spec.run_id == "ou/lam0.001_seed0"


def test_the_grid_config_matches_the_reacher_config():
    from pathlib import Path

    import yaml

    configs = Path(__file__).resolve().parents[2] / "configs"
    grid = yaml.safe_load((configs / "reacher_grid.yaml").read_text())
    paper = yaml.safe_load((configs / "reacher.yaml").read_text())
    assert grid["lambs"] == paper["lambs"] and grid["seeds"] == paper["seeds"]
    assert grid["defaults"] == paper["defaults"]
    assert sorted(grid["runs"]) == ["ou", "traj", "trajmatch"]


def _fake_dataset(root, kind: str, n: int = 10, size: int = 8) -> None:
    """A complete dataset of blank frames, written without rendering."""
    import numpy as np

    from lejepa_id.reacher.datasets import RenderSpec
    from lejepa_id.reacher.shards import save_npy_atomic, shard_path

    spec = RenderSpec(kind, n, size=size, look="fast", shard_size=5)
    views = spec.views
    (root / "shards").mkdir(parents=True)
    for k in range(2):
        save_npy_atomic(shard_path(root, k), np.zeros((5, views, size, size, 3), np.uint8))
    np.save(root / "angles.npy", np.zeros((n, views, 2)))
    meta = {"format": 1, "identity": spec.identity(), "complete": True, "n_shards": 2,
            "views": views, "frames": n * views,
            "norm": {"mean": [0.0] * 3, "std": [1.0] * 3}}  # fmt: skip
    (root / "dataset.json").write_text(json.dumps(meta))


@pytest.mark.parametrize(
    "spoil, message",
    [
        (lambda p: p.write_bytes(__import__("pickle").dumps([1, 2, 3])), "is not a frame shard"),
        (lambda p: p.write_bytes(p.read_bytes()[:60]), "is not a frame shard"),
        (lambda p: __import__("numpy").save(p, __import__("numpy").zeros((5, 2))), "not uint8"),
    ],
    ids=["a pickle", "truncated", "another array"],
)
def test_a_bad_shard_is_refused_before_any_run_trains(tmp_path, capsys, spoil, message):
    for kind in ("eval", "ou"):
        _fake_dataset(tmp_path / kind, kind)
    from lejepa_id.reacher.shards import shard_path

    spoil(shard_path(tmp_path / "ou", 1))
    tree = {"name": "rgrid", "kind": "reacher", "eval": str(tmp_path / "eval"),
            "defaults": TINY, "runs": {"ou": {"data": str(tmp_path / "ou")}},
            "lambs": [0.01], "seeds": [0]}  # fmt: skip
    config = tmp_path / "rgrid.yaml"
    config.write_text(json.dumps(tree))
    out = tmp_path / "runs"
    assert _sweep(str(config), out) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "frames_00001.npy" in err[0] and message in err[0]
    assert not out.exists()
