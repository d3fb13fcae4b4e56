"""Fault injection outside the sweep path: a full disk at any write of ``run``,
``aggregate``, ``figures`` and ``report``; odd paths; corrupt and hand-edited results.

Each case checks "nothing lost, nothing silently wrong": one line on stderr naming the
path and the reason, a non-zero exit, no temporary or truncated file left, and the files
that were there before unchanged (runs.csv and runs.parquet replaced together or not at
all). The disk-full cases run twice: with a write-failing shim (``os.fsync`` raising
ENOSPC for the chosen file, so the temporary exists and must be removed) and, where the
test may mount one, on a real tmpfs of a few hundred kilobytes.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pandas as pd
import pytest
import torch

from lejepa_id.cli.main import main
from lejepa_id.config.run import RunConfig
from lejepa_id.records.result import RunResult

CONFIG = Path(__file__).parents[1] / "configs" / "2d.yaml"
TINY = [
    "steps=12",
    "eval_size=300",
    "scatter=50",
    "device=cpu",
    "eval_every=6",
    "eval_every_early=3",
    "early_until=6",
    "hidden=16",
    "num_directions=16",
]
SETS = [f"--set={s}" for s in TINY]


def metrics(r2: float) -> dict[str, float]:
    return {"r2_hz": r2, "r2_zh": r2, "orth_err": 1 - r2, "approx_bound": 0.5}


def fake_run(root: Path, run_id: str, r2: float, seed: int = 0, **cfg) -> Path:
    """A verified run record written by RunResult.save (no training)."""
    config = RunConfig(seed=seed, scatter=20, **cfg)
    res = RunResult(config=config, metrics=metrics(r2), losses={"loss": 0.1})
    res.weights = {"w": torch.full((4, 4), r2)}
    res.scatter = {
        k: torch.randn(20, 2, generator=torch.Generator().manual_seed(seed)) for k in "zxh"
    }
    res.name = run_id
    return res.save(root / "2d" / run_id).parent


@pytest.fixture
def results(tmp_path: Path) -> Path:
    root = tmp_path / "results"
    for seed in range(3):
        fake_run(root, f"spiral_lejepa-seed{seed}", 0.9 + seed / 100, seed)
    return root


def snapshot(root: Path) -> dict[str, str]:
    """sha256 of every file under ``root`` (relative path -> digest)."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def one_line_error(capsys, *needles: str) -> str:
    err = capsys.readouterr().err.strip()
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("lejepa-id: error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], (needle, err)
    return lines[0]


def no_temporaries(root: Path) -> None:
    stray = [p for p in root.rglob(".*") if p.name.endswith((".tmp", ".bak"))]
    assert not stray, stray


@pytest.fixture
def enospc(monkeypatch):
    """fail(name): every later fsync of a temporary for a file named ``name`` (or with
    that suffix) raises ENOSPC, as a full disk does on the write or the flush."""
    real = os.fsync

    def fail(name: str) -> None:
        def fsync(fd: int) -> None:
            target = os.readlink(f"/proc/self/fd/{fd}")
            base = Path(target).name
            if base.startswith(f".{name}.") or (name.startswith(".") and name in base):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), target)
            real(fd)

        monkeypatch.setattr(os, "fsync", fsync)

    return fail


# --- disk full, shim -----------------------------------------------------------------


@pytest.mark.parametrize("victim", ["weights.safetensors", "scatter.safetensors", "result.json"])
def test_run_with_a_full_disk_is_one_line_and_leaves_no_result(tmp_path, capsys, enospc, victim):
    enospc(victim)
    out = tmp_path / "out"
    code = main(["run", str(CONFIG), "--run", "spiral_lejepa", "--seed", "0", "--out", str(out),
                 "--no-progress", *SETS])  # fmt: skip
    assert code == 2
    one_line_error(capsys, victim, "No space left on device")
    run = out / "2d" / "spiral_lejepa-seed0"
    assert not (run / "result.json").exists()  # never "done" with a file missing
    no_temporaries(out)


def test_aggregate_with_a_full_disk_keeps_the_old_table_pair(results, capsys, enospc):
    assert main(["aggregate", str(results)]) == 0
    before = snapshot(results)
    fake_run(results, "spiral_lejepa-seed9", 0.5, 9)  # the new table would differ
    before = {k: v for k, v in snapshot(results).items() if k.startswith("runs.")}
    capsys.readouterr()
    enospc("runs.parquet")  # the CSV is written first: it must not be renamed alone
    assert main(["aggregate", str(results)]) == 2
    one_line_error(capsys, "runs.parquet", "No space left on device")
    after = {k: v for k, v in snapshot(results).items() if k.startswith("runs.")}
    assert after == before
    csv = pd.read_csv(results / "runs.csv")
    parquet = pd.read_parquet(results / "runs.parquet")
    assert len(csv) == len(parquet) == 3
    no_temporaries(results)


def test_a_failed_rename_puts_the_first_file_back(tmp_path, monkeypatch):
    from lejepa_id.errors import WriteError
    from lejepa_id.records import io

    a, b = tmp_path / "runs.csv", tmp_path / "runs.parquet"
    io.atomic_write_group({a: b"old a", b: b"old b"})
    real = os.replace

    def replace(src, dst):
        if Path(dst) == b:
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(dst))
        real(src, dst)

    monkeypatch.setattr(io.os, "replace", replace)
    with pytest.raises(WriteError, match="runs.parquet"):
        io.atomic_write_group({a: b"new a", b: b"new b"})
    monkeypatch.undo()
    assert (a.read_bytes(), b.read_bytes()) == (b"old a", b"old b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs.csv", "runs.parquet"]


@pytest.mark.parametrize("victim", [".png", ".pdf", "figures_index.json"])
def test_figures_with_a_full_disk_leave_no_truncated_figure(results, capsys, enospc, victim):
    enospc(victim)
    assert main(["figures", str(results), "--formats", "png,pdf"]) == 2
    one_line_error(capsys, "No space left on device")
    for png in (results / "figures").glob("*.png"):
        plt_image = __import__("matplotlib.image", fromlist=["imread"]).imread(png)
        assert plt_image.size > 0  # every PNG left is complete
    no_temporaries(results)


def test_report_with_a_full_disk_is_one_line(results, capsys, enospc):
    enospc("report.html")
    assert main(["report", str(results)]) == 2
    one_line_error(capsys, "report.html", "No space left on device")
    assert not (results / "report.html").exists()
    no_temporaries(results)


# --- disk full, a real tmpfs -----------------------------------------------------------


@pytest.fixture
def tiny_tmpfs(tmp_path: Path):
    """A 256 KiB tmpfs, or a skip naming why it cannot be mounted here."""
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("tmpfs variant needs root and mount(8); the shim variant covers it")
    proc = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({proc.stderr.strip()}); the shim covers it")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(mount: Path, leave: int) -> None:
    """Write a ballast file until about ``leave`` bytes are free."""
    free = shutil.disk_usage(mount).free
    with open(mount / "ballast", "wb") as f:
        f.write(b"\0" * max(0, free - leave))
    assert shutil.disk_usage(mount).free <= leave + 4096


def test_aggregate_and_figures_on_a_full_tmpfs(results, tiny_tmpfs, capsys):
    data = tiny_tmpfs / "results"
    shutil.copytree(results, data)
    assert main(["aggregate", str(data)]) == 0
    fake_run(data, "spiral_lejepa-seed9", 0.5, 9)
    before = snapshot(data)
    capsys.readouterr()
    fill(tiny_tmpfs, 2_000)  # room for a CSV of four rows, not for the Parquet beside it
    assert main(["aggregate", str(data)]) == 2
    one_line_error(capsys, "No space left on device")
    assert snapshot(data) == before
    assert main(["figures", str(data), "--formats", "png"]) == 2
    one_line_error(capsys, "No space left on device")
    assert snapshot(data) == before  # not even an empty figures/ with a truncated PNG...
    no_temporaries(data)


# --- odd paths -------------------------------------------------------------------------


def sweep(out: Path, *extra: str) -> int:
    return main(["sweep", str(CONFIG), "--out", str(out), "--jobs", "1", "--no-progress",
                 *SETS, "--set=runs=[spiral_lejepa]", "--set=seeds=[0]", *extra])  # fmt: skip


def test_run_folder_that_is_a_file_is_refused_before_the_manifest(tmp_path, capsys):
    out = tmp_path / "out"
    (out / "2d").mkdir(parents=True)
    (out / "2d" / "spiral_lejepa-seed0").write_text("not a folder")
    assert sweep(out) == 2
    one_line_error(capsys, "spiral_lejepa-seed0", "is a file")
    assert sorted(p.name for p in (out / "2d").iterdir()) == ["spiral_lejepa-seed0"]


def test_result_json_that_is_a_directory_is_refused_before_training(tmp_path, capsys):
    out = tmp_path / "out"
    (out / "2d" / "spiral_lejepa-seed0" / "result.json").mkdir(parents=True)
    assert sweep(out) == 2
    one_line_error(capsys, "result.json", "is a directory")
    assert sorted(p.name for p in (out / "2d" / "spiral_lejepa-seed0").iterdir()) == ["result.json"]
    assert not (out / "2d" / "sweep.json").exists()


def test_runs_csv_that_is_a_directory(results, capsys):
    (results / "runs.csv").mkdir()
    assert main(["aggregate", str(results)]) == 2
    one_line_error(capsys, "runs.csv", "Is a directory")
    assert not (results / "runs.parquet").exists()  # not half a table
    no_temporaries(results)


@pytest.mark.parametrize("kind", ["component", "total"])
def test_sweep_out_too_long_is_one_line(tmp_path, capsys, kind):
    long = {"component": ["a" * 256], "total": ["b" * 200] * 21}[kind]
    out = tmp_path.joinpath(*long)
    assert sweep(out) == 2
    one_line_error(capsys, "--out", "bytes")
    assert list(tmp_path.iterdir()) == []


def test_yaml_alias_bomb_in_description(tmp_path, capsys):
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        levels.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    text = "name: bomb\ndescription:\n  " + "\n  ".join(levels) + "\n  top: *a8\n"
    text += "runs:\n  one: {}\n"
    config = tmp_path / "bomb.yaml"
    config.write_text(text)
    out = ["--out", str(tmp_path / "o"), "--no-progress"]
    for cmd in (["sweep", str(config)], ["run", str(config), "--run", "one", "--seed", "0"]):
        assert main([*cmd, *out]) == 2
        one_line_error(capsys, "bomb.yaml", "expands to over")
    assert not (tmp_path / "o").exists()


def test_config_that_is_not_text(tmp_path, capsys):
    config = tmp_path / "binary.yaml"
    config.write_bytes(bytes(range(128, 256)) * 3)
    for cmd in (["sweep", str(config)], ["run", str(config), "--run", "a", "--seed", "0"]):
        assert main([*cmd, "--out", str(tmp_path / "o")]) == 2
        one_line_error(capsys, "binary.yaml", "not UTF-8")
    assert not (tmp_path / "o").exists()


def test_config_path_that_is_a_directory(tmp_path, capsys):
    assert main(["run", str(tmp_path), "--run", "x", "--seed", "0"]) == 2
    one_line_error(capsys, "is a directory")
    assert main(["sweep", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    one_line_error(capsys, "is a directory")


@pytest.mark.parametrize("cmd", ["aggregate", "figures", "report"])
def test_results_target_that_is_a_file(tmp_path, capsys, cmd):
    target = tmp_path / "runs.csv"
    target.write_text("a,b\n")
    assert main([cmd, str(target)]) == 2
    one_line_error(capsys, "is a file, not a directory")


# --- corrupt and hand-edited results ---------------------------------------------------


def edit(run: Path, change) -> None:
    path = run / "result.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


CORRUPTIONS = {
    "weights truncated": lambda run: (run / "weights.safetensors").write_bytes(
        (run / "weights.safetensors").read_bytes()[:40]
    ),
    "weights random": lambda run: (run / "weights.safetensors").write_bytes(os.urandom(200)),
    "weights missing": lambda run: (run / "weights.safetensors").unlink(),
    "scatter replaced": lambda run: (run / "scatter.safetensors").write_bytes(b"{}"),
    "metric NaN": lambda run: edit(run, lambda d: d["metrics"].update(r2_hz=float("nan"))),
    "metric string": lambda run: edit(run, lambda d: d["metrics"].update(r2_hz="0.9")),
    "metric null": lambda run: edit(run, lambda d: d["metrics"].update(r2_hz=None)),
    "metric missing": lambda run: edit(run, lambda d: d["metrics"].pop("r2_hz")),
    "metrics missing": lambda run: edit(run, lambda d: d.pop("metrics")),
    "dim abc": lambda run: edit(run, lambda d: d["config"].update(dim="abc")),
    "empty config": lambda run: edit(run, lambda d: d.update(config={}, metrics=None)),
    "config lacks mode": lambda run: edit(run, lambda d: d["config"].pop("mode")),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_corrupt_result_is_not_done_and_is_named_by_every_reader(results, capsys, name):
    from lejepa_id.config.experiments import load_experiment
    from lejepa_id.sweeps.state import partition

    bad = results / "2d" / "spiral_lejepa-seed1"
    CORRUPTIONS[name](bad)
    # Resume: the run is not done (it is retrained), with a note saying why.
    exp = load_experiment(CONFIG, [*TINY, "runs=[spiral_lejepa]", "seeds=[0,1,2]"])
    specs = exp.expand()
    done, todo, notes = partition(specs, results / "2d")
    assert [s.run_id for s in todo] == ["spiral_lejepa-seed1"], notes
    assert any("spiral_lejepa-seed1" in n for n in notes)
    # Readers: the run is named, left out and counted; nothing crashes.
    for cmd in ("aggregate", "figures", "report"):
        assert main([cmd, str(results)]) == 0, cmd
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert f"skipped {bad / 'result.json'}: " in err, (cmd, err)
        assert "1 result file(s) skipped" in err, (cmd, err)
    table = pd.read_csv(results / "runs.csv")
    assert sorted(table["run_id"]) == ["spiral_lejepa-seed0", "spiral_lejepa-seed2"]
    assert "spiral_lejepa-seed1" in (results / "report.html").read_text()


def test_resume_retrains_a_run_whose_weights_were_truncated(tmp_path, capsys):
    out = tmp_path / "out"
    assert sweep(out) == 0
    run = out / "2d" / "spiral_lejepa-seed0"
    good = (run / "weights.safetensors").read_bytes()
    (run / "weights.safetensors").write_bytes(good[:100])
    capsys.readouterr()
    assert sweep(out) == 0
    assert "does not match its recorded sha256" in capsys.readouterr().err
    assert (run / "weights.safetensors").read_bytes() == good  # same seed, same weights
    recorded = json.loads((run / "result.json").read_text())["files"]
    assert recorded["weights.safetensors"] == hashlib.sha256(good).hexdigest()


def test_legacy_result_without_hashes_is_accepted(results, capsys):
    run = results / "2d" / "spiral_lejepa-seed0"
    edit(run, lambda d: (d.pop("files"), d.pop("metrics_schema")))
    edit(run, lambda d: d["metrics"].update(r2_hz=None))  # legacy NaN: null, allowed
    assert main(["aggregate", str(results)]) == 0
    assert "skipped" not in capsys.readouterr().err
    assert len(pd.read_csv(results / "runs.csv")) == 3


def test_aggregating_zero_runs_writes_a_table_pandas_reads(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["aggregate", str(tmp_path / "empty")]) == 0
    frame = pd.read_csv(tmp_path / "empty" / "runs.csv")
    assert frame.empty and {"experiment", "run_id", "status", "r2_hz"} <= set(frame.columns)
    assert pd.read_parquet(tmp_path / "empty" / "runs.parquet").empty


def test_an_interrupt_inside_string_code_still_exits_130(tmp_path):
    """A Ctrl-C that escapes code run from a string (as an import's dataclasses do) makes
    CPython kill the process with SIGINT at exit unless the flag is reset: the status
    must be 130, not a signal death. The plugin raises it deterministically."""
    import lejepa_id

    plugin = tmp_path / "interrupt.py"
    plugin.write_text('exec("raise KeyboardInterrupt")\n')
    env = {**os.environ, "PYTHONPATH": str(Path(lejepa_id.__file__).parents[1])}
    cmd = [sys.executable, "-m", "lejepa_id", "run", str(CONFIG), "--run", "spiral_lejepa",
           "--seed", "0", "--no-progress", "--plugin", str(plugin),
           "--out", str(tmp_path / "out"), *SETS]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, env=env, timeout=120)
    assert proc.returncode == 130, proc.stderr.decode()
    assert proc.stderr.decode() == "lejepa-id: interrupted\n"
    assert not (tmp_path / "out").exists()


def test_a_cli_child_exits_143_on_sigterm(tmp_path):
    """SIGTERM: 'interrupted', exit 143 (SIGINT keeps 130), no traceback."""
    import signal
    import time

    import lejepa_id

    # The child imports the package this test imported (the tree under test).
    env = {**os.environ, "PYTHONPATH": str(Path(lejepa_id.__file__).parents[1])}
    cmd = [sys.executable, "-m", "lejepa_id", "run", str(CONFIG), "--run", "spiral_lejepa",
           "--seed", "0", "--no-progress",
           "--set=steps=100000", *SETS[1:]]  # fmt: skip
    for sig, code in ((signal.SIGTERM, 143), (signal.SIGINT, 130)):
        out = tmp_path / uuid.uuid4().hex
        proc = subprocess.Popen([*cmd, "--out", str(out)], stderr=subprocess.PIPE, env=env)
        try:
            deadline = time.monotonic() + 120
            while not out.exists() and time.monotonic() < deadline:  # made just before training
                time.sleep(0.2)
            time.sleep(1)
            proc.send_signal(sig)
            _, err = proc.communicate(timeout=60)
        finally:  # a child that ignored the signal would train 100,000 steps after the test
            proc.kill()
            proc.wait()
        assert proc.returncode == code, err.decode()
        assert "interrupted" in err.decode() and "Traceback" not in err.decode()
