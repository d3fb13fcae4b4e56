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
