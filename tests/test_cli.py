"""Smoke tests of each command, and bad input: one line, exit 2, nothing written."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from lejepa_id.cli.main import main

CONFIG = str(Path(__file__).parents[1] / "configs" / "2d.yaml")
FAST = [
    "--set",
    "steps=30",
    "--set",
    "eval_size=300",
    "--set",
    "scatter=50",
    "--set",
    "hidden=16",
    "--set",
    "num_directions=16",
    "--no-progress",
]


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for cmd in ("run", "demo", "verify"):
        assert cmd in out


@pytest.mark.parametrize("cmd", ["run", "demo"])
def test_subcommand_help(cmd, capsys):
    with pytest.raises(SystemExit):
        main([cmd, "--help"])
    assert "--set" in capsys.readouterr().out or cmd == "demo"


def test_run_writes_a_complete_result(tmp_path, capsys):
    assert (
        main(
            ["run", CONFIG, "--run", "spiral_lejepa", "--seed", "7", "--out", str(tmp_path), *FAST]
        )
        == 0
    )
    result = json.loads((tmp_path / "2d" / "spiral_lejepa-seed7" / "result.json").read_text())
    for key in (
        "r2_hz",
        "r2_zh",
        "r2_xz",
        "r2_zx",
        "orth_err",
        "epsilon",
        "delta",
        "D_bound",
        "approx_bound",
        "procrustes_mse",
    ):
        assert isinstance(result["metrics"][key], float)
    assert result["seed"] == 7 and result["config"]["steps"] == 30
    assert result["wall_time_s"] > 0 and "torch" in result["versions"]
    assert (tmp_path / "2d" / "spiral_lejepa-seed7" / "weights.safetensors").exists()
    assert "r2_hz" in capsys.readouterr().out


def test_demo_writes_png_and_prints_metrics(tmp_path, capsys):
    assert main(["demo", "--steps", "30", "--out", str(tmp_path), "--no-progress"]) == 0
    assert (tmp_path / "demo.png").stat().st_size > 10_000
    assert (tmp_path / "result.json").exists()
    assert "r2_hz" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", CONFIG, "--run", "spiral_lejepx", "--seed", "0"], "--run 'spiral_lejepx'"),
        (["run", CONFIG, "--run", "spiral_lejepa", "--seed", "0", "--set", "rho=1.2"], "rho=1.2"),
        (["run", CONFIG, "--run", "spiral_lejepa", "--seed", "0", "--set", "lam=-1"], "lam=-1.0"),
        (["run", CONFIG, "--run", "nvp_lejepa", "--seed", "0", "--set", "dim=5"], "dim=5"),
        (
            ["run", CONFIG, "--run", "spiral_lejepa", "--seed", "0", "--set", "colour=red"],
            "unknown config key 'colour'",
        ),
        (["run", "missing.yaml", "--run", "a", "--seed", "0"], "missing.yaml"),
        (["demo", "--mixing", "spirall"], "mixing='spirall'"),
        (["demo", "--mode", "simclr"], "mode='simclr'"),
    ],
)
def test_bad_input_one_line_exit_2_nothing_written(tmp_path, capsys, args, message):
    out = tmp_path / "out"
    code = main([*args, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize(
    "config, run, axes, pin",
    [
        (
            "grid",
            "spiral_lejepa",
            "lambs (9 values), rhos (7 values)",
            ["lambs=[0.01]", "rhos=[0.9]"],
        ),
        ("gennorm", "spiral_lejepa", "alphas (9 values)", ["alphas=[1.5]"]),
        ("anisotropic", "spiral", "rho_grid (15 values)", ["rho_grid={first: [0.5], rest: [0.7]}"]),
        ("scaling", "lejepa", "dims (10 values)", ["dims=[4]"]),
    ],
)
def test_run_of_a_swept_config_names_its_axes_and_trains_once_they_are_pinned(
    tmp_path, capsys, config, run, axes, pin
):
    # grid, gennorm, anisotropic and scaling sweep more than seeds: `run` used to end in
    # "too many values to unpack"; now it says which axes to pin, and trains when pinned.
    out = tmp_path / "out"
    argv = ["run", config, "--run", run, "--seed", "0", "--out", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"sweeps {axes};" in err and "Traceback" not in err
    assert not out.exists()
    sets = [x for p in pin for x in ("--set", p)]
    assert (
        main([*argv, *sets, *FAST, "--set", "eval_every=15", "--set", "eval_every_early=15"]) == 0
    )
    (result,) = out.rglob("result.json")
    assert json.loads(result.read_text())["status"] == "finished"


def test_unwritable_output_directory(tmp_path, capsys):
    if os.geteuid() == 0:
        target = "/proc/lejepa-id-cannot-write-here"
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        target = str(locked / "sub")
    code = main(["run", CONFIG, "--run", "spiral_lejepa", "--seed", "0", "--out", target, *FAST])
    err = capsys.readouterr().err
    assert code == 2 and "is not writable" in err and err.count("\n") == 1


def test_a_bad_value_of_a_named_run_is_one_line_exit_2(tmp_path, capsys):
    # In-process: the real entry point (``python -m lejepa_id.cli.main run``, a process
    # of its own) is tested on the same error path by tests/test_bad_input.py.
    argv = ["run", CONFIG, "--run", "banana_whiten", "--seed", "1", "--set", "rho=7"]
    assert main([*argv, "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip().startswith("lejepa-id: error: rho=7")
    assert list(tmp_path.iterdir()) == []


def test_verify_subcommand_passes_arguments_through(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["verify", "--help"])
    assert exc.value.code == 0
    assert "--table" in capsys.readouterr().out
