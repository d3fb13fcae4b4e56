"""Faults: two sweeps started together, a kill between two result writes of one group,
failed runs, and a lock path that is not a file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_sweep_executor import TINY as EXECUTOR_TINY

from lejepa_id.cli.main import main
from lejepa_id.config.experiments import load_experiment
from lejepa_id.records.result import RunResult
from lejepa_id.sweeps.plan import resume_groups
from lejepa_id.sweeps.runner import ExecutorOptions, run_sweep

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
TINY = [*EXECUTOR_TINY, "runs=[spiral_lejepa]", "seeds=[1, 2, 3]"]


def _sweep_cmd(out: Path, steps: int) -> list[str]:
    sets = [f"--set={s}" for s in TINY if not s.startswith("steps")]
    return [
        sys.executable,
        "-m",
        "lejepa_id.cli.main",
        "sweep",
        str(CONFIGS / "2d.yaml"),
        "--out",
        str(out),
        "--jobs",
        "1",
        "--no-progress",
        f"--set=steps={steps}",
        *sets,
    ]


def test_two_sweeps_started_together_one_runs_one_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    # Different configs, so a second sweep that slipped past the lock would either
    # refuse late or mix results: exactly one must run, the other refuse with exit 2.
    procs = [
        subprocess.Popen(_sweep_cmd(out, steps), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for steps in (40, 41)
    ]
    done = [p.communicate(timeout=600) for p in procs]
    codes = sorted(p.returncode for p in procs)
    assert codes == [0, 2], [d[1] for d in done]
    loser = done[[p.returncode for p in procs].index(2)][1].decode().strip().splitlines()
    assert len(loser) == 1 and ("another sweep" in loser[0] or "steps=" in loser[0]), loser
    root = out / "2d"
    steps = {json.loads(p.read_text())["config"]["steps"] for p in root.glob("*/result.json")}
    assert len(steps) == 1  # every result from the one sweep that ran
    manifest = json.loads((root / "sweep.json").read_text())
    assert {c["steps"] for c in manifest["base_configs"].values()} == steps
    assert not (root / ".sweep.lock").exists()


def test_a_live_holder_of_the_lock_refuses_a_second_sweep(tmp_path: Path, capsys) -> None:
    root = tmp_path / "out" / "2d"
    root.mkdir(parents=True)
    holder_code = (
        "import fcntl, os, sys, time\n"
        f"fd = os.open({str(root / '.sweep.lock')!r}, os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "os.write(fd, str(os.getpid()).encode())\n"
        "print('locked', flush=True)\n"
        "time.sleep(120)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", holder_code], stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline().strip() == b"locked"
        sets = [x for s in TINY for x in ("--set", s)]
        rc = main(["sweep", str(CONFIGS / "2d.yaml"), "--out", str(tmp_path / "out"), *sets])
        assert rc == 2
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert f"pid {holder.pid}" in line
    finally:
        holder.kill()
        holder.wait()
    assert not list(root.glob("*/result.json"))
    # Its holder is gone, so the kernel released the lock: the next sweep runs (in this
    # process: the lock is what this is about, not the pool).
    rc = main(
        ["sweep", str(CONFIGS / "2d.yaml"), "--out", str(tmp_path / "out"), *sets, "--jobs", "1"]
    )
    assert rc == 0


def _files(root: Path) -> dict[str, bytes]:
    """Every run's weights and result minus the timings, for exact comparison."""
    out = {}
    for path in sorted(root.glob("*/weights.safetensors")):
        out[str(path.relative_to(root))] = path.read_bytes()
    for path in sorted(root.glob("*/result.json")):
        data = json.loads(path.read_text())
        for key in ("wall_time_s", "steps_per_s"):
            data.pop(key)
        out[str(path.relative_to(root))] = json.dumps(data, sort_keys=True).encode()
    return out


def test_a_kill_between_two_result_writes_of_a_group_changes_nothing(
    tmp_path: Path, monkeypatch
) -> None:
    options = ExecutorOptions(jobs=1)
    run_sweep(CONFIGS / "2d.yaml", TINY, tmp_path / "whole", options, progress=False)

    save = RunResult.save
    calls = []

    def killed_after_one_save(self, directory):
        if calls:
            raise KeyboardInterrupt  # as a SIGINT between the two writes
        calls.append(directory)
        return save(self, directory)

    monkeypatch.setattr(RunResult, "save", killed_after_one_save)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(CONFIGS / "2d.yaml", TINY, tmp_path / "cut", options, progress=False)
    monkeypatch.setattr(RunResult, "save", save)
    root = tmp_path / "cut" / "2d"
    (first,) = root.glob("*/result.json")
    kept = first.read_bytes(), first.stat().st_mtime_ns
    manifest = json.loads((root / "sweep.json").read_text())
    assert len(manifest["groups"]) == 1 and len(manifest["groups"][0]) == 3

    summary = run_sweep(CONFIGS / "2d.yaml", TINY, tmp_path / "cut", options, progress=False)
    # The group is trained again whole (3 members), writing only the 2 missing results.
    assert summary.groups == 1 and len(summary.statuses) == 2
    assert first.name not in summary.statuses
    assert (first.read_bytes(), first.stat().st_mtime_ns) == kept
    assert _files(root) == _files(tmp_path / "whole" / "2d")


def test_resume_groups_replays_a_recorded_group_whole() -> None:
    exp = load_experiment(CONFIGS / "2d.yaml", TINY)
    specs = exp.expand()
    ids = [s.run_id for s in specs]
    groups, rest, notes = resume_groups(specs[1:], specs, [ids])
    assert [s.run_id for s in groups[0].specs] == ids
    assert groups[0].keep == {ids[0]} and groups[0].new_runs == 2
    assert rest == [] and notes == []
    # A recorded group with a run outside this sweep cannot be replayed: noted.
    groups, rest, notes = resume_groups(specs[1:], specs[1:], [ids])
    assert groups == [] and rest == specs[1:] and len(notes) == 1
    # Nothing missing: nothing replayed.
    assert resume_groups([], specs, [ids])[0] == []


def test_failed_runs_make_the_sweep_exit_1_and_are_named(tmp_path: Path, capsys, monkeypatch):
    from lejepa_id.training import saving

    def broken(*args, **kwargs):
        raise RuntimeError("simulated crash")

    monkeypatch.setattr(saving, "train", broken)
    sets = [x for s in TINY for x in ("--set", s)]
    out = tmp_path / "out"
    rc = main(["sweep", str(CONFIGS / "2d.yaml"), "--out", str(out), "--jobs", "1", *sets])
    assert rc == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert "3 run(s) failed" in err[-1]
    for seed in (1, 2, 3):
        assert f"spiral_lejepa-seed{seed}" in err[-1]
        assert (out / "2d" / f"spiral_lejepa-seed{seed}" / "error.json").exists()


def test_lock_path_that_is_a_directory_is_named(tmp_path: Path, capsys) -> None:
    root = tmp_path / "out" / "2d"
    (root / ".sweep.lock").mkdir(parents=True)
    sets = [x for s in TINY for x in ("--set", s)]
    before = sorted(tmp_path.rglob("*"))
    rc = main(["sweep", str(CONFIGS / "2d.yaml"), "--out", str(tmp_path / "out"), *sets])
    assert rc == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert ".sweep.lock" in line
    assert sorted(tmp_path.rglob("*")) == before
