"""End to end through the command line on a tiny configuration: render, train, plan,
figures, plus the bad-input paths (one line, exit status 2, nothing half-written)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from lejepa_id.cli.reacher import main

TINY_TRAIN = ["--epochs", "1", "--batch", "32", "--fit-n", "100", "--device", "cpu", "--quiet"]


@pytest.fixture(scope="module")
def trained(tiny_data, tmp_path_factory):
    runs = tmp_path_factory.mktemp("reacher_runs")
    rc = main(
        [
            "reacher",
            "train",
            "--data",
            str(tiny_data / "ou"),
            str(tiny_data / "traj"),
            str(tiny_data / "trajmatch"),
            "--eval",
            str(tiny_data / "eval"),
            "--out",
            str(runs),
            "--lams",
            "0.01",
            "--seeds",
            "0",
            "1",
            *TINY_TRAIN,
        ]
    )
    assert rc == 0
    return runs


def test_render_cli_with_worker_processes(needs_rendering, tmp_path, capsys):
    out = tmp_path / "traj"
    rc = main(
        [
            "reacher",
            "render",
            "traj",
            "--out",
            str(out),
            "--n",
            "40",
            "--size",
            "16",
            "--look",
            "fast",
            "--workers",
            "2",
            "--shard-size",
            "20",
            "--episode-steps",
            "100",
        ]
    )
    assert rc == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["frames"] == 80 and len(summary["diagnostics"]) == 2
    assert sorted(p.name for p in (out / "shards").iterdir()) == [
        "frames_00000.npy",
        "frames_00001.npy",
    ]
    # a second call finds the dataset complete and renders nothing
    assert (
        main(
            [
                "reacher",
                "render",
                "traj",
                "--out",
                str(out),
                "--n",
                "40",
                "--size",
                "16",
                "--look",
                "fast",
                "--shard-size",
                "20",
                "--episode-steps",
                "100",
            ]
        )
        == 0
    )


def test_train_writes_every_metric(trained):
    for label in ("ou", "traj", "trajmatch"):
        run = trained / label / "lam0.01_seed0"
        res = json.loads((run / "result.json").read_text())
        m = res["metrics"]
        for key in (
            "r2_hz",
            "r2_zh",
            "r2_h_sincos",
            "orth_err_whitened",
            "procrustes_mse_whitened",
        ):
            assert np.isfinite(m[key])
        assert len(m["r2_hz_joint"]) == 2
        assert res["kind"] == label and res["steps"] == 5  # 160 pairs // 32
        assert (run / "weights.safetensors").is_file() and (run / "codes.safetensors").is_file()
        assert "r2_pixels_pca64_hz" in json.loads((trained / label / "baseline.json").read_text())


def test_same_seed_same_numbers_on_cpu(tiny_data, trained, tmp_path):
    rc = main(
        [
            "reacher",
            "train",
            "--data",
            str(tiny_data / "ou"),
            "--eval",
            str(tiny_data / "eval"),
            "--out",
            str(tmp_path),
            "--lams",
            "0.01",
            "--seeds",
            "0",
            *TINY_TRAIN,
        ]
    )
    assert rc == 0
    a = json.loads((trained / "ou" / "lam0.01_seed0" / "result.json").read_text())
    b = json.loads((tmp_path / "ou" / "lam0.01_seed0" / "result.json").read_text())
    assert a["metrics"] == b["metrics"] and a["losses"]["loss"] == b["losses"]["loss"]


def test_plan_and_figures(tiny_data, trained, tmp_path, capsys):
    rc = main(
        ["reacher", "plan", "--runs", str(trained), "--eval", str(tiny_data / "eval"), "--k", "10"]
    )
    assert rc == 0
    printed = capsys.readouterr().out
    assert "ou_vs_traj" in printed and "costs" in printed  # every test prints its direction
    plan = json.loads((trained / "plan.json").read_text())
    assert {r["kind"] for r in plan["runs"]} == {"ou", "traj", "trajmatch"}
    assert all(len(r["ratio"]) == len(r["regret"]) == 10 for r in plan["runs"])
    assert all(min(r["regret"]) >= 0 for r in plan["runs"])
    assert set(plan["comparisons"]) == {"ou_vs_trajmatch", "ou_vs_traj", "trajmatch_vs_traj"}
    ou = plan["kinds"]["ou"]
    assert ou["runs"] == 2 and len(ou["vs_oracle"]["run_means"]) == 2  # one value per run
    assert ou["vs_reference"]["verdict"] in ("equivalent", "different", "not shown")
    # n = 0 when a barely trained code's Riccati equation has no stable solution
    assert all(r["lqr_rel_err"]["n"] in (0, 240) for r in plan["runs"])
    figs = tmp_path / "figs"
    argv = ["reacher", "figures", "--runs", str(trained), "--eval", str(tiny_data / "eval")]
    assert main([*argv, "--out", str(figs)]) == 0
    index = json.loads((figs / "figures_index.json").read_text())
    names = {e["name"] for e in index["figures"]}
    assert {"reacher_planning_scatter", "reacher_lqr_error_box", "reacher_distributions"} <= names
    assert not any(n.startswith("reacher_r2_vs") for n in names)  # nothing was swept
    for entry in index["figures"]:
        assert (figs / entry["png"]).stat().st_size > 1000
        assert (figs / entry["pdf"]).is_file()
    claims = json.loads((trained / "claims.json").read_text())["claims"]  # beside plan.json
    assert [c["id"] for c in claims] == [
        "reacher_ou_plans_like_oracle",
        "reacher_traj_plans_worse",
        "reacher_gap_not_coverage",
        "reacher_ou_lqr_values_match",
    ]
    assert (figs / "tab_reacher.tex").is_file()


def _run_err(argv, capsys) -> tuple[int, str]:
    rc = main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    return rc, err[-1] if err else ""


def test_train_bad_inputs_exit_2(tiny_data, tmp_path, capsys):
    out = tmp_path / "runs"
    base = ["reacher", "train", "--out", str(out), *TINY_TRAIN]
    rc, err = _run_err(
        [*base, "--data", str(tmp_path / "missing"), "--eval", str(tiny_data / "eval")], capsys
    )
    assert rc == 2 and "not a reacher dataset" in err
    # a partial dataset: the completion mark is missing
    partial = tmp_path / "partial"
    partial.mkdir()
    (partial / "dataset.json").write_text(json.dumps({"identity": {"kind": "ou"}}))
    rc, err = _run_err([*base, "--data", str(partial), "--eval", str(tiny_data / "eval")], capsys)
    assert rc == 2 and "partial" in err
    rc, err = _run_err(
        [*base, "--data", str(tiny_data / "ou"), "--eval", str(tiny_data / "ou")], capsys
    )
    assert rc == 2 and "needs an eval dataset" in err
    assert not out.exists()  # nothing half-written


def test_mismatched_image_sizes_exit_2(tiny_data, tmp_path, capsys):
    from lejepa_id.reacher.datasets import RenderSpec, render_dataset

    small = tmp_path / "eval16"
    render_dataset(RenderSpec("eval", 30, size=16, look="fast"), small, workers=1)
    out = tmp_path / "runs"
    rc, err = _run_err(
        [
            "reacher",
            "train",
            "--data",
            str(tiny_data / "ou"),
            "--eval",
            str(small),
            "--out",
            str(out),
            *TINY_TRAIN,
        ],
        capsys,
    )
    assert rc == 2 and "image sizes differ" in err and "--size" in err
    assert not out.exists()


def test_plan_and_figures_bad_inputs_exit_2(tiny_data, tmp_path, capsys):
    rc, err = _run_err(
        ["reacher", "plan", "--runs", str(tmp_path), "--eval", str(tiny_data / "eval")], capsys
    )
    assert rc == 2 and "no finished runs" in err
    rc, err = _run_err(
        ["reacher", "figures", "--runs", str(tmp_path), "--eval", str(tiny_data / "eval")], capsys
    )
    assert rc == 2 and "plan.json" in err


def test_every_command_has_help(capsys):
    for argv in (
        ["reacher"],
        ["reacher", "render"],
        ["reacher", "render", "ou"],
        ["reacher", "train"],
        ["reacher", "plan"],
        ["reacher", "figures"],
        ["reacher", "sweep"],
        ["reacher", "render", "trajmatch"],
    ):
        with pytest.raises(SystemExit) as exc:
            main([*argv, "--help"])
        assert exc.value.code == 0
        assert "usage:" in capsys.readouterr().out


def test_finished_runs_are_skipped(tiny_data, trained):
    result = trained / "ou" / "lam0.01_seed0" / "result.json"
    before = result.stat().st_mtime_ns
    rc = main(["reacher", "train", "--data", str(tiny_data / "ou"), "--eval",
               str(tiny_data / "eval"), "--out", str(trained), "--lams", "0.01", "--seeds",
               "0", *TINY_TRAIN])  # fmt: skip
    assert rc == 0 and result.stat().st_mtime_ns == before


def test_config_file_sets_train_defaults(tmp_path):
    from pathlib import Path

    from lejepa_id.cli.reacher import _train_defaults
    from lejepa_id.errors import UsageError
    from lejepa_id.reacher.training import TrainConfig

    root = Path(__file__).resolve().parents[2]
    conf = _train_defaults(root / "configs" / "reacher.yaml")
    assert conf.pop("lambs") == [1e-3, 5e-3, 1e-2, 5e-2] and conf.pop("seeds") == [0, 1, 2]
    cfg = TrainConfig(**conf)
    cfg.validate()
    assert (cfg.epochs, cfg.batch, cfg.lr, cfg.weight_decay, cfg.clip) == (
        100, 256, 3e-3, 1e-4, 1.0
    )  # fmt: skip
    bad = tmp_path / "bad.yaml"
    bad.write_text("defaults:\n  epochz: 3\n")
    with pytest.raises(UsageError, match="epochz"):
        _train_defaults(bad)
    old = tmp_path / "old.yaml"
    old.write_text("train:\n  epochs: 3\n")
    with pytest.raises(UsageError, match="'train' section is now 'defaults'"):
        _train_defaults(old)


def test_sweep_driver_draws_r2_against_rho_and_delta(needs_rendering, tmp_path, capsys):
    from lejepa_id.reacher.datasets import RenderSpec, render_dataset

    gallery = tmp_path / "eval"
    render_dataset(RenderSpec("eval", 240, size=16, look="fast"), gallery, workers=1)
    runs = tmp_path / "runs"
    frame = ["--size", "16", "--look", "fast", "--workers", "1"]
    train = ["--epochs", "1", "--batch", "32", "--fit-n", "50", "--device", "cpu", "--quiet"]
    where = ["--eval", str(gallery), "--data-root", str(tmp_path / "data"), "--out", str(runs)]
    argv = ["reacher", "sweep", *where, "--n", "64", "--lams", "0.01", "--seeds", "0"]
    argv += [*frame, *train]
    rc, err = _run_err([*argv, "--rhos", "1.5"], capsys)
    assert rc == 2 and "--rho=1.5" in err and not (tmp_path / "data").exists()
    rc, err = _run_err(argv, capsys)
    assert rc == 2 and "nothing to sweep" in err
    sweep_args = ["--rhos", "0.5", "0.9", "--deltas", "4", "8", "--traj-kinds", "traj"]
    assert main([*argv, *sweep_args]) == 0
    labels = sorted(p.name for p in runs.iterdir() if p.is_dir())
    assert labels == ["ou_rho0.5", "ou_rho0.9", "traj_delta4", "traj_delta8"]
    ident = json.loads((tmp_path / "data" / "traj_delta8" / "dataset.json").read_text())
    assert ident["identity"]["delta"] == 8
    assert main(["reacher", "plan", "--runs", str(runs), "--eval", str(gallery), "--k", "10"]) == 0
    figs = tmp_path / "figs"
    argv = ["reacher", "figures", "--runs", str(runs), "--eval", str(gallery), "--out", str(figs)]
    assert main([*argv, "--formats", "png"]) == 0
    names = {e["name"] for e in json.loads((figs / "figures_index.json").read_text())["figures"]}
    assert {"reacher_r2_vs_rho", "reacher_r2_vs_delta"} <= names


def test_config_file_sets_the_sweep(tmp_path):
    import argparse
    from pathlib import Path

    from lejepa_id.cli.reacher import sweep_specs
    from lejepa_id.errors import UsageError

    root = Path(__file__).resolve().parents[2]
    args = argparse.Namespace(
        config=root / "configs" / "reacher.yaml", rhos=None, deltas=None, traj_kinds=None,
        n=100, size=64, look="paper", target="big", data_seed=0,
    )  # fmt: skip
    labels = [label for label, _ in sweep_specs(args)]
    assert labels[:5] == ["ou_rho0.5", "ou_rho0.8", "ou_rho0.9", "ou_rho0.95", "ou_rho0.99"]
    assert "trajmatch_delta64" in labels and len(labels) == 15
    bad = tmp_path / "bad.yaml"
    bad.write_text("sweep:\n  rho: [0.5]\n")
    args.config = bad
    with pytest.raises(UsageError, match="unknown sweep key"):
        sweep_specs(args)


def _train_into(out, tiny_data, *extra):
    return main(["reacher", "train", "--data", str(tiny_data / "ou"), "--eval",
                 str(tiny_data / "eval"), "--out", str(out), "--lams", "0.01", "--seeds",
                 "0", *TINY_TRAIN, *extra])  # fmt: skip


def _tree(root):
    return {p: p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_finished_run_is_reused_only_with_the_same_settings(tiny_data, trained, tmp_path, capsys):
    import shutil

    out = tmp_path / "runs"
    shutil.copytree(trained, out)
    before = _tree(out)
    capsys.readouterr()
    # Another number of epochs: the stored run is not this run. Refused, nothing written.
    assert _train_into(out, tiny_data, "--epochs", "2") == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "epochs=1" in line and "epochs=2" in line
    assert _tree(out) == before
    # A truncated result is not a finished run: it is trained again.
    result = out / "ou" / "lam0.01_seed0" / "result.json"
    result.write_text('{"config": ')
    assert _train_into(out, tiny_data) == 0
    assert json.loads(result.read_text())["config"]["epochs"] == 1


def test_bad_lambda_is_refused_before_anything_is_written(tiny_data, tmp_path, capsys):
    out = tmp_path / "runs"
    rc = main(["reacher", "train", "--data", str(tiny_data / "ou"), "--eval",
               str(tiny_data / "eval"), "--out", str(out), "--lams", "2", *TINY_TRAIN])  # fmt: skip
    assert rc == 2
    assert "lam=2.0" in capsys.readouterr().err
    assert not out.exists()  # no baseline.json, no folder


def test_run_directory_names_are_distinct_for_distinct_lambdas():
    from lejepa_id.reacher.experiment import run_dir_name

    assert run_dir_name(0.01, 0) == "lam0.01_seed0"  # the published layout
    assert run_dir_name(0.001, 1) == "lam0.001_seed1"
    assert run_dir_name(0.0010000001, 1) != run_dir_name(0.001, 1)


def test_plan_names_runs_relative_and_figures_read_codes_from_runs(
    tiny_data, trained, tmp_path, monkeypatch, capsys
):
    """Move the runs folder, run `figures` from another folder holding a decoy of the
    recorded name: the same figures, drawn from --runs' codes."""
    import shutil

    import torch

    from lejepa_id.records.io import load_tensors, save_tensors

    eval_dir = str(tiny_data / "eval")
    assert main(["reacher", "plan", "--runs", str(trained), "--eval", eval_dir, "--k", "5"]) == 0
    plan = json.loads((trained / "plan.json").read_text())
    assert {r["run"] for r in plan["runs"]} == {
        f"{k}/lam0.01_seed{s}" for k in ("ou", "traj", "trajmatch") for s in (0, 1)
    }
    argv = ["reacher", "figures", "--eval", eval_dir, "--formats", "png"]
    assert main([*argv, "--runs", str(trained), "--out", str(tmp_path / "a")]) == 0
    moved = tmp_path / "moved"
    shutil.copytree(trained, moved)
    elsewhere = tmp_path / "elsewhere"
    for r in plan["runs"]:  # a decoy with every recorded name, holding zeroed codes
        codes = load_tensors(trained / r["run"] / "codes.safetensors")
        save_tensors(
            elsewhere / r["run"] / "codes.safetensors",
            {k: torch.zeros_like(v) for k, v in codes.items()},
        )
    monkeypatch.chdir(elsewhere)
    assert main([*argv, "--runs", str(moved), "--out", str(tmp_path / "b")]) == 0
    a = json.loads((tmp_path / "a" / "figures_index.json").read_text())
    b = json.loads((tmp_path / "b" / "figures_index.json").read_text())
    assert a == b
    for name in ("reacher_latents", "reacher_planning_demo", "reacher_lqr_values"):
        png = f"{name}.png"
        assert (tmp_path / "a" / png).read_bytes() == (tmp_path / "b" / png).read_bytes(), name
    capsys.readouterr()
    # A --runs without the plan's runs is refused in one line, never drawn from the decoy.
    empty = tmp_path / "empty"
    shutil.copy(trained / "plan.json", (empty.mkdir(), empty / "plan.json")[1])
    assert main([*argv, "--runs", str(empty), "--out", str(tmp_path / "c")]) == 2
    assert "not under --runs" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text, message",
    [
        ("- 1\n- 2\n", "must hold a mapping"),
        ("sweep: [1, 2]\n", "'sweep' must be a mapping of rhos, deltas, traj_kinds"),
        ("sweep: {rhos: [fast]}\n", "sweep.rhos=['fast'] must be a list of numbers"),
        ("sweep: {deltas: [1.5]}\n", "sweep.deltas=[1.5] must be a list of integers"),
        ("sweep: {traj_kinds: [ou]}\n", "sweep.traj_kinds=['ou'] must be a list of traj"),
        ("defaults: [1]\n", "'defaults' must be a mapping of training settings"),
    ],
)
@pytest.mark.parametrize("command", ["sweep", "train"])
def test_a_malformed_config_is_one_line_exit_2(tmp_path, capsys, text, message, command):
    # A YAML list or `sweep: [1, 2]` used to end in AttributeError / TypeError; both
    # commands read the file with the one Reacher reader, which checks every section.
    config = tmp_path / "bad.yaml"
    config.write_text(text)
    out = tmp_path / "runs"
    where = ["--eval", str(tmp_path / "eval"), "--out", str(out), "--config", str(config)]
    if command == "sweep":
        argv = ["reacher", "sweep", *where, "--data-root", str(tmp_path / "data")]
    else:
        argv = ["reacher", "train", *where, "--data", str(tmp_path / "ou")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    assert not out.exists()
