"""Thread selection: the size rule, the override order, where threads leave results unchanged, and
the short OpenMP spin."""

from __future__ import annotations

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
from lejepa_id.openmp import USER_CHOICES
from lejepa_id.training.threads import (
    ENV_VAR,
    MULTI_THREAD_WORK,
    auto_threads,
    encoder_work,
    resolve_threads,
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
        ("matched", 2, 1, 1),  # the 2d nvp run: 1 x 1 products, one thread
        ("matched", 64, 1, 1),  # a second thread was slower here (docs/speed.md)
        ("mlp", 2, 1, 2),  # the 2d run: 512 x 256 x 256 products pay for a second thread
        ("matched", 256, 1, 2),
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


def test_override_order_request_then_env_then_omp_then_size():
    big, small = 10 * MULTI_THREAD_WORK, 1
    env = {ENV_VAR: "3", "OMP_NUM_THREADS": "5"}
    assert resolve_threads(small, 7, env, available=2) == 7
    assert resolve_threads(small, "auto", env, available=2) == 3
    assert resolve_threads(small, None, {"OMP_NUM_THREADS": "5"}, available=2) == 5
    assert resolve_threads(small, None, {ENV_VAR: "auto", "OMP_NUM_THREADS": "5"}, 2) == 5
    assert resolve_threads(small, None, {}, available=2) == 1
    assert resolve_threads(big, None, {}, available=2) == 2


@pytest.mark.parametrize("bad", ["0", "-1", "two", "1.5", 0])
def test_bad_thread_counts_are_refused_naming_the_source(bad):
    with pytest.raises(UsageError, match=f"{ENV_VAR}="):
        resolve_threads(1, None, {ENV_VAR: str(bad)}, available=2)
    with pytest.raises(UsageError, match="threads="):
        resolve_threads(1, bad, {}, available=2)


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


def test_a_short_spin_is_set_before_torch_starts_unless_a_wait_was_chosen():
    names = "'GOMP_SPINCOUNT', 'KMP_BLOCKTIME', 'OMP_WAIT_POLICY'"
    code = f"import os, lejepa_id; print(*(os.environ.get(k) for k in ({names})))"
    env = {k: v for k, v in os.environ.items() if k not in USER_CHOICES}

    def run(src: str, **extra: str) -> str:
        out = subprocess.run(
            [sys.executable, "-c", src], env={**env, **extra}, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    assert run(code) == "1000 0 None"
    # Any wait the user chose stays, and nothing is added beside it.
    assert run(code, OMP_WAIT_POLICY="ACTIVE") == "None None ACTIVE"
    assert run(code, GOMP_SPINCOUNT="50") == "50 None None"
    assert run(code, KMP_BLOCKTIME="200") == "None 200 None"
    assert run("import torch; " + code) == "None None None"  # too late: the runtime read it
