"""Thread selection: the size rule, the override order, and that threads never change results."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from lejepa_id import RunConfig, train
from lejepa_id.cli.main import main
from lejepa_id.errors import UsageError
from lejepa_id.training.threads import (
    ENV_VAR,
    MULTI_THREAD_WORK,
    ThreadPacer,
    auto_threads,
    encoder_work,
    explicit_threads,
    torch_threads,
)


def test_encoder_work_counts_multiply_adds_per_sample():
    # mlp 2 -> 256 -> 256 -> 256 -> 256 -> 2, plus the 2 x 256 SIGReg projection.
    assert (
        encoder_work(RunConfig(encoder="mlp", dim=2)) == 2 * 256 + 3 * 256 * 256 + 256 * 2 + 2 * 256
    )
    # matched N = 8, L = 4: four (4 x 4) products, plus the 8 x 256 projection.
    matched = RunConfig(encoder="matched", mixing="coupling", dim=8, layers=4)
    assert encoder_work(matched) == 4 * 16 + 8 * 256


@pytest.mark.parametrize(
    ("encoder", "dim", "runs", "threads"),
    [
        ("mlp", 2, 1, 1),  # the 2d run: small products, one thread
        ("matched", 256, 1, 1),
        ("matched", 1024, 1, 2),  # large products: every available thread
        ("mlp", 2, 24, 2),  # a stack of 24 2d runs does 24 times the work per product
    ],
)
def test_auto_threads_by_model_size(encoder, dim, runs, threads):
    config = RunConfig(
        encoder=encoder, dim=dim, mixing="coupling" if encoder == "matched" else "spiral"
    )
    assert auto_threads(runs * encoder_work(config), available=2) == threads


def test_auto_threads_never_exceeds_what_is_available():
    assert auto_threads(MULTI_THREAD_WORK - 1, available=8) == 1
    assert auto_threads(MULTI_THREAD_WORK, available=8) == 8
    assert auto_threads(10 * MULTI_THREAD_WORK, available=1) == 1
    with pytest.raises(ValueError, match="available=0"):
        auto_threads(1, available=0)


def test_override_order_request_then_env_then_omp_then_auto():
    env = {ENV_VAR: "3", "OMP_NUM_THREADS": "5"}
    assert explicit_threads(7, env) == 7
    assert explicit_threads("auto", env) == 3
    assert explicit_threads(None, {"OMP_NUM_THREADS": "5"}) == 5
    assert explicit_threads(None, {ENV_VAR: "auto", "OMP_NUM_THREADS": "5"}) == 5
    assert explicit_threads(None, {}) is None


@pytest.mark.parametrize("bad", ["0", "-1", "two", "1.5", 0])
def test_bad_thread_counts_are_refused_naming_the_source(bad):
    with pytest.raises(UsageError, match=f"{ENV_VAR}="):
        explicit_threads(None, {ENV_VAR: str(bad)})
    with pytest.raises(UsageError, match="threads="):
        explicit_threads(bad, {})


class FakeMachine:
    """A clock whose step time depends on the thread count in use, as a load would."""

    def __init__(self, step_s: dict[int, float]) -> None:
        self.step_s, self.now, self.threads, self.calls = dict(step_s), 0.0, 0, []

    def set_threads(self, n: int) -> None:
        self.threads = n
        self.calls.append(n)

    def step(self, pacer: ThreadPacer, extra: float = 0.0) -> None:
        self.now += self.step_s[self.threads] + extra
        pacer.tick()


def _pacer(machine: FakeMachine, counts: list[int], reprobe_s: float = 10.0) -> ThreadPacer:
    return ThreadPacer(
        counts, reprobe_s=reprobe_s, clock=lambda: machine.now, set_threads=machine.set_threads
    )


def test_pacer_keeps_the_faster_count_and_measures_again_when_the_load_changes():
    machine = FakeMachine({1: 0.010, 2: 0.004})  # idle: the second thread pays off
    pacer = _pacer(machine, [1, 2])
    for _ in range(200):
        machine.step(pacer)
    assert pacer.current == machine.threads == 2
    assert machine.calls[:2] == [1, 2]  # started at the first count, then probed the second
    machine.step_s = {1: 0.010, 2: 0.030}  # another process now holds a core
    for _ in range(3000):
        machine.step(pacer)
    assert pacer.current == machine.threads == 1
    assert pacer.steps_at[1] + pacer.steps_at[2] == 3200
    assert pacer.most_used == 1


def test_pacer_does_not_count_the_interval_after_an_evaluation():
    machine = FakeMachine({1: 0.004, 2: 0.010})
    pacer = _pacer(machine, [1, 2])
    for i in range(200):
        machine.step(pacer, extra=5.0 if i % 10 == 9 else 0.0)  # ... as a step, not skipped
        if i % 10 == 9:
            pacer.skip()
    assert pacer.current == 1  # the 5 s "evaluations" after each 10th step were skipped
    evaluated = FakeMachine({1: 0.004, 2: 0.010})
    fooled = _pacer(evaluated, [1, 2])
    for i in range(200):
        # not skipped: half the one-thread intervals hold a 5 s pause and its median moves
        evaluated.step(fooled, extra=5.0 if evaluated.threads == 1 and i % 2 else 0.0)
    assert fooled.current == 2


def test_pacer_refuses_bad_counts():
    with pytest.raises(UsageError, match="thread counts"):
        ThreadPacer([0, 2], set_threads=lambda n: None)


def test_passive_wait_policy_is_set_before_torch_starts_unless_chosen(tmp_path):
    code = "import os, lejepa_id; print(os.environ.get('OMP_WAIT_POLICY'))"
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}

    def run(src: str, **extra: str) -> str:
        out = subprocess.run(
            [sys.executable, "-c", src], env={**env, **extra}, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    assert run(code) == "PASSIVE"
    assert run(code, OMP_WAIT_POLICY="ACTIVE") == "ACTIVE"  # the user's choice stays
    assert run("import torch; " + code) == "None"  # too late: the runtime has read it


def test_torch_threads_restores_the_previous_count():
    before = torch.get_num_threads()
    with torch_threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before


def _tiny(**kw) -> RunConfig:
    return RunConfig(steps=15, eval_size=200, hidden=32, num_directions=16, device="cpu", **kw)


def test_train_uses_and_records_the_thread_count_and_restores_it(monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    before = torch.get_num_threads()
    assert train(_tiny(), progress=False).threads == 1  # auto: a small model
    assert train(_tiny(), progress=False, threads=2).threads == 2
    monkeypatch.setenv(ENV_VAR, "2")
    assert train(_tiny(), progress=False).threads == 2
    assert torch.get_num_threads() == before


@pytest.mark.parametrize("cfg", [_tiny(), _tiny(mixing="coupling", dim=16, encoder="matched")])
def test_thread_count_does_not_change_results(cfg):
    one = train(cfg, progress=False, threads=1)
    two = train(cfg, progress=False, threads=2)
    assert one.metrics == two.metrics
    for k, v in one.weights.items():
        assert torch.equal(v, two.weights[k]), k


def test_switching_threads_mid_run_does_not_change_results(monkeypatch):
    # Probes of two steps and no minimum time: the pacer switches every few steps.
    import lejepa_id.training.threads as threads_module
    import lejepa_id.training.trainer as trainer_module

    monkeypatch.setattr(threads_module, "PROBE_STEPS", 2)
    monkeypatch.setattr(threads_module, "PROBE_S", 0.0)
    made: list[ThreadPacer] = []

    class Recording(ThreadPacer):
        def __init__(self, counts, **kw):
            super().__init__(counts, reprobe_s=0.0, warmup=1, **kw)
            made.append(self)

    monkeypatch.setattr(trainer_module, "ThreadPacer", Recording)
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    cfg = dataclasses.replace(_tiny(), steps=40)
    with torch_threads(2):
        paced = train(cfg, progress=False)
    fixed = train(cfg, progress=False, threads=1)
    assert len(made) == 1 and made[0].steps_at[1] > 0 and made[0].steps_at[2] > 0
    assert paced.metrics == fixed.metrics
    for k, v in fixed.weights.items():
        assert torch.equal(v, paced.weights[k]), k


def test_cli_threads_option(monkeypatch, capsys, tmp_path):
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert main(["demo", "--steps", "10", "--threads", "0", "--out", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "lejepa-id: error: --threads='0' must be a whole number >= 1 or 'auto'"
    assert not (tmp_path / "d").exists()
    out = tmp_path / "runs"
    config = str(Path(__file__).parents[1] / "configs" / "2d.yaml")
    args = ["--run", "spiral_lejepa", "--seed", "0", "--out", str(out), "--no-progress"]
    sets = ["--set", "steps=10", "--set", "eval_size=300", "--set", "hidden=16"]
    assert main(["run", config, *args, *sets, "--threads", "2"]) == 0
    assert json.loads(next(out.rglob("result.json")).read_text())["threads"] == 2
