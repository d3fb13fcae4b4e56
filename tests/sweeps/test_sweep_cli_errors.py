"""Bad sweep input: one line on stderr, exit status 2, nothing written or overwritten."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lejepa_id.cli.main import main

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
TINY = [
    "--set",
    "steps=4",
    "--set",
    "eval_size=200",
    "--set",
    "runs=[spiral_lejepa]",
    "--set",
    "seeds=[1337]",
    "--set",
    "scatter=0",
    "--set",
    "hidden=16",
    "--set",
    "num_directions=16",
    "--no-progress",
    "--device",
    "cpu",
]


def _error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--set", "betas=[1,2]"], "betas"),
        (["--set", "seeds=[]"], "seeds"),
        (["--partition", "gpu"], "--partition"),
        (["--gpus", "2"], "--gpus"),
        (["--jobs", "0"], "--jobs"),
        pytest.param(
            ["--executor", "slurm"],
            "sbatch",
            marks=pytest.mark.skipif(
                shutil.which("sbatch") is not None, reason="SLURM is installed here"
            ),
        ),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path: Path, capsys, extra, needle) -> None:
    out = tmp_path / "out"
    rc = main(["sweep", str(CONFIGS / "2d.yaml"), "--out", str(out), *TINY, *extra])
    assert rc == 2
    line = _error_line(capsys)
    assert needle in line
    assert not out.exists()


def test_results_of_another_config_are_refused(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    serial = ["--jobs", "1"]  # trained in this process: the pool is not what this is about
    assert main(["sweep", str(CONFIGS / "2d.yaml"), "--out", str(out), *TINY, *serial]) == 0
    capsys.readouterr()
    root = out / "2d"
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    rc = main(["sweep", str(CONFIGS / "2d.yaml"), "--out", str(out), *TINY, "--set", "steps=5"])
    assert rc == 2
    line = _error_line(capsys)
    assert "steps=4" in line and "steps=5" in line
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert before == after
    # Also refused without the manifest: the stored result itself disagrees.
    (root / "sweep.json").unlink()
    rc = main(["sweep", str(CONFIGS / "2d.yaml"), "--out", str(out), *TINY, "--set", "lr=0.01"])
    assert rc == 2
    assert "lr" in _error_line(capsys)
    # The same config (or a narrowing of it) is accepted and skips the finished run.
    assert main(["sweep", str(CONFIGS / "2d.yaml"), "--out", str(out), *TINY, *serial]) == 0
    assert "1 already done" in capsys.readouterr().out
    manifest = json.loads((root / "sweep.json").read_text())
    assert manifest["run_ids"] == {"spiral_lejepa-seed1337": "spiral_lejepa"}


def test_dry_run_lists_the_beyond_families_and_writes_nothing(tmp_path, capsys) -> None:
    # The full-length families of issue 22: whiten beside lejepa, boundary cells, 3 seeds.
    out = tmp_path / "results"
    for name, total in (("codedim", 54), ("anisotropic", 360)):
        assert main(["sweep", str(CONFIGS / f"{name}.yaml"), "--out", str(out), "--dry-run"]) == 0
        text = capsys.readouterr().out
        assert text.startswith(f"{name}: {total} runs") and "nothing written" in text
        assert "mode: lejepa, whiten" in text and "steps: 20000" in text
    assert "[0.9, 0.93]" in text and "[0.9, 0.96]" in text  # both sides of the boundary
    assert not out.exists()


def test_dry_run_says_how_the_planner_stacks_the_runs_per_device(tmp_path, capsys) -> None:
    out = tmp_path / "results"
    gennorm = ["sweep", str(CONFIGS / "gennorm.yaml"), "--out", str(out), "--dry-run"]
    assert main([*gennorm, "--device", "cuda"]) == 0
    text = capsys.readouterr().out
    # On a GPU every compatible run shares one stack: the 81 mlp lejepa runs (3 mixings,
    # 9 laws, 3 seeds) are one, nvp (the matched encoder) another.
    assert "stacks on cuda (memory" in text and "6 for 324 runs" in text
    assert "stack 0: 81 runs (spiral_lejepa x27, banana_lejepa x27, sinusoid_lejepa x27)" in text
    assert "nvp_lejepa x27" in text
    assert main([*gennorm, "--device", "cpu", "--jobs", "2"]) == 0
    text = capsys.readouterr().out
    assert "stacks on cpu (at most 8 per stack on a CPU)" in text
    assert main([*gennorm, "--device", "cuda", "--max-group", "1"]) == 0
    assert "(--max-group 1): 324 for 324 runs" in capsys.readouterr().out
    scaling = ["sweep", str(CONFIGS / "scaling.yaml"), "--out", str(out), "--dry-run"]
    assert main([*scaling, "--device", "cuda"]) == 0
    assert "5 runs (lejepa N=1024 x5)" in capsys.readouterr().out  # 15 members: 5 seeds x 3
    assert not out.exists()
