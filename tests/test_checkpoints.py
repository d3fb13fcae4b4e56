"""Mid-run checkpoints: an interrupted run continues from its last checkpoint with exactly
the numbers of an uninterrupted one (on the CPU, bit for bit), in process and after a
SIGKILL of a sweep."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from lejepa_id import RunConfig, train
from lejepa_id.errors import UsageError
from lejepa_id.training.checkpoints import CHECKPOINT_DIR, CHECKPOINT_VAR, checkpoint_interval
from lejepa_id.training.engine import STEP_VAR

ROOT = Path(__file__).parents[1]
TINY = dict(steps=96, eval_size=300, hidden=32, num_directions=16, device="cpu", eval_every=40)


class StopTrainingError(Exception):
    pass


def _stop_at(step: int):
    def on_eval(done: int, _rows) -> None:
        if done == step:
            raise StopTrainingError(done)

    return on_eval


def _same(a, b) -> None:
    assert a.metrics == b.metrics and a.curves == b.curves and a.losses == b.losses
    assert (a.status, a.diverged_step) == (b.status, b.diverged_step)
    for k, v in a.weights.items():
        assert torch.equal(v, b.weights[k]), k


@pytest.mark.parametrize("path", ["eager", "static"])
def test_an_interrupted_group_resumes_from_its_checkpoint_bit_for_bit(
    tmp_path, monkeypatch, capsys, path
):
    monkeypatch.setenv(CHECKPOINT_VAR, "32")
    monkeypatch.setenv(STEP_VAR, path)
    cfgs = [RunConfig(**TINY, seed=0, lam=0.01), RunConfig(**TINY, seed=1, mixing="banana")]
    whole = train(cfgs, progress=False)
    ckpt = tmp_path / "group.pt"
    with pytest.raises(StopTrainingError):
        # Stopped at the evaluation after step 80: the checkpoint of step 64 remains.
        train(cfgs, progress=False, checkpoint=ckpt, on_eval=_stop_at(80))
    assert ckpt.is_file() and torch.load(ckpt, weights_only=True)["done"] == 64
    resumed = train(cfgs, progress=False, checkpoint=ckpt)
    assert f"2 runs: continuing from step 64 ({ckpt})" in capsys.readouterr().err
    for a, b in zip(whole, resumed):
        _same(a, b)
    assert not ckpt.exists()  # a finished run leaves no checkpoint


def test_a_checkpoint_of_other_configs_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv(CHECKPOINT_VAR, "32")
    cfg = RunConfig(**TINY, seed=0)
    ckpt = tmp_path / "run.pt"
    with pytest.raises(StopTrainingError):
        train(
            dataclasses.replace(cfg, lr=1e-3), progress=False, checkpoint=ckpt, on_eval=_stop_at(40)
        )
    assert ckpt.is_file()
    _same(train(cfg, progress=False, checkpoint=ckpt), train(cfg, progress=False))
    ckpt.write_bytes(b"not a checkpoint")  # unreadable: start again, never crash
    _same(train(cfg, progress=False, checkpoint=ckpt), train(cfg, progress=False))
    torch.save([1, 2, 3], ckpt)  # readable, but not a checkpoint
    _same(train(cfg, progress=False, checkpoint=ckpt), train(cfg, progress=False))


@pytest.mark.parametrize(("raw", "every"), [("0", 0), ("16", 16), ("20", 32), ("1000", 1008)])
def test_the_interval_is_whole_chunks(raw, every):
    assert checkpoint_interval({CHECKPOINT_VAR: raw}) == every


@pytest.mark.parametrize("raw", ["-1", "ten", "1.5", ""])
def test_a_bad_interval_is_refused_naming_the_variable(raw):
    with pytest.raises(UsageError, match=f"{CHECKPOINT_VAR}="):
        checkpoint_interval({CHECKPOINT_VAR: raw})


ONE_RUN = """
name: one
defaults: {dim: 2, rho: 0.95, steps: 400, batch: 64, eval_size: 500, hidden: 32, scatter: 0}
runs:
  spiral_lejepa: {mixing: spiral, encoder: mlp, mode: lejepa, lam: 1.0e-3}
seeds: [1337]
"""


def _sweep(config: Path, out: Path, every: str) -> subprocess.Popen:
    args = [sys.executable, "-m", "lejepa_id", "sweep", str(config), "--out", str(out)]
    args += ["--no-progress", "--jobs", "1", "--threads", "1"]
    args += ["--logger", "csv", "--logger", "tensorboard"]
    env = {**os.environ, CHECKPOINT_VAR: every}
    return subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_sweep_killed_mid_run_continues_the_run_from_its_checkpoint(tmp_path):
    config = tmp_path / "one.yaml"
    config.write_text(ONE_RUN)
    whole = _sweep(config, tmp_path / "whole", "0")
    assert whole.wait(timeout=600) == 0, whole.stderr.read().decode()
    killed = _sweep(config, tmp_path / "killed", "16")
    checkpoints = tmp_path / "killed" / "one" / CHECKPOINT_DIR
    deadline = time.monotonic() + 300
    while not any(checkpoints.glob("*.pt")) and killed.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert killed.poll() is None, "the sweep finished before a checkpoint was seen"
    time.sleep(0.5)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    saved = torch.load(next(checkpoints.glob("*.pt")), weights_only=True)["done"]
    assert 0 < saved < 400
    again = _sweep(config, tmp_path / "killed", "16")
    assert again.wait(timeout=600) == 0, again.stderr.read().decode()
    assert f"continuing from step {saved} " in again.stderr.read().decode()
    (a,) = (tmp_path / "whole" / "one").glob("*/result.json")
    (b,) = (tmp_path / "killed" / "one").glob("*/result.json")
    ra, rb = json.loads(a.read_text()), json.loads(b.read_text())
    assert ra["metrics"] == rb["metrics"] and ra["curves"] == rb["curves"]
    assert not any(checkpoints.glob("*.pt"))
    # The logs continue from the checkpoint too: the rows a killed run wrote after it
    # are redone, not kept twice, and none before it is lost.
    assert (b.parent / "curves.csv").read_text() == (a.parent / "curves.csv").read_text()
    assert _scalars(b.parent) == _scalars(a.parent)


def _scalars(folder: Path) -> dict[str, list[tuple[int, float]]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(folder))
    events.Reload()
    return {t: [(e.step, e.value) for e in events.Scalars(t)] for t in events.Tags()["scalars"]}


def _edited(key, value):
    def edit(path: Path) -> None:
        state = torch.load(path, weights_only=True)
        if value is _DROP:
            del state[key]
        else:
            state[key] = value
        torch.save(state, path)

    return edit


_DROP = object()
BAD_CHECKPOINTS = {
    "garbage": (lambda p: p.write_bytes(os.urandom(300)), "is unreadable"),
    "truncated": (lambda p: p.write_bytes(p.read_bytes()[:2000]), "is unreadable"),
    "a folder": (lambda p: (p.unlink(), p.mkdir(), (p / "x").write_text("x")), "is not a file"),
    "not a dict": (lambda p: torch.save([1, 2, 3], p), "holds a list"),
    "without its engine": (_edited("engine", _DROP), "lacks engine"),
    "at step 10**6": (_edited("done", 10**6), "is at step 1000000"),
    "at step 0": (_edited("done", 0), "is at step 0"),
    "off a chunk": (_edited("done", 33), "is at step 33"),
    "another format": (_edited("format", 2), "has format 2"),
    "of another config": (_edited("configs", [{"lr": 1.0}]), "is of other runs or another"),
}


@pytest.mark.parametrize("case", sorted(BAD_CHECKPOINTS))
def test_a_bad_checkpoint_is_moved_aside_with_one_warning(tmp_path, monkeypatch, capsys, case):
    monkeypatch.setenv(CHECKPOINT_VAR, "32")
    cfg = RunConfig(**TINY, seed=0)
    ckpt = tmp_path / "run.pt"
    with pytest.raises(StopTrainingError):
        train(cfg, progress=False, checkpoint=ckpt, on_eval=_stop_at(40))
    spoil, reason = BAD_CHECKPOINTS[case]
    spoil(ckpt)
    stale = tmp_path / ".run.pt.x1y2.tmp"  # a save killed before its rename
    stale.write_bytes(b"partial")
    capsys.readouterr()
    _same(train(cfg, progress=False, checkpoint=ckpt), train(cfg, progress=False))
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"warning: checkpoint {ckpt} {reason}"), err
    assert "training from step 0" in err[0]
    (aside,) = tmp_path.glob("run.pt.rejected-*")
    assert aside.name in err[0] and not ckpt.exists() and not stale.exists()


def test_a_checkpoint_whose_tensors_do_not_fit_is_one_line_and_moved_aside(tmp_path, monkeypatch):
    monkeypatch.setenv(CHECKPOINT_VAR, "32")
    cfg = RunConfig(**TINY, seed=0)
    ckpt = tmp_path / "run.pt"
    with pytest.raises(StopTrainingError):
        train(cfg, progress=False, checkpoint=ckpt, on_eval=_stop_at(40))
    _edited("encoder", {"nothing": torch.zeros(1)})(ckpt)
    with pytest.raises(UsageError, match="does not fit these runs") as caught:
        train(cfg, progress=False, checkpoint=ckpt)
    assert "\n" not in str(caught.value) and not ckpt.exists()
    _same(train(cfg, progress=False, checkpoint=ckpt), train(cfg, progress=False))


@pytest.mark.parametrize(
    "var, raw",
    [
        (CHECKPOINT_VAR, "abc"),
        (CHECKPOINT_VAR, "-1"),
        (CHECKPOINT_VAR, "1e9"),
        (STEP_VAR, "bogus"),
        ("LEJEPA_ID_THREADS", "0"),
    ],  # fmt: skip
)
@pytest.mark.parametrize("command", ["run", "sweep", "paper"])
def test_a_bad_training_setting_is_refused_before_any_folder(
    tmp_path, monkeypatch, capsys, var, raw, command
):
    from lejepa_id.cli.main import main

    monkeypatch.setenv(var, raw)
    out = tmp_path / "out"
    config = str(ROOT / "configs" / "2d.yaml")
    argv = {
        "run": ["run", config, "--run", "spiral_lejepa", "--seed", "0", "--set", "steps=4"],
        "sweep": ["sweep", config, "--set", "steps=4", "--jobs", "1"],
        "paper": ["paper", "--budget", "smoke"],
    }[command]
    assert main([*argv, "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{var}={raw!r}" in err[0] and not out.exists()
