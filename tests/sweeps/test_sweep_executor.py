"""The sweep path: batched groups match one-by-one runs; failures, divergence, executors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from lejepa_id.records.io import load_tensors
from lejepa_id.sweeps import kinds
from lejepa_id.sweeps.executors import PoolExecutor, SubmititExecutor
from lejepa_id.sweeps.runner import ExecutorOptions, run_sweep

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
# Small widths and few SIGReg directions keep each run to a fraction of a second.
TINY = [
    "steps=12",
    "eval_size=300",
    "scatter=0",
    "device=cpu",
    "eval_every=6",
    "eval_every_early=3",
    "early_until=6",
    "hidden=32",
    "num_directions=32",
]


def _results(root: Path) -> dict[str, dict]:
    return {p.parent.name: json.loads(p.read_text()) for p in root.glob("*/result.json")}


def test_batched_group_equals_runs_one_by_one(tmp_path: Path) -> None:
    sets = [*TINY, "runs=[spiral_lejepa, spiral_whiten]", "seeds=[1, 2]"]
    batched = run_sweep(
        CONFIGS / "2d.yaml", sets, tmp_path / "b", ExecutorOptions(jobs=1), progress=False
    )
    solo = run_sweep(
        CONFIGS / "2d.yaml",
        sets,
        tmp_path / "s",
        ExecutorOptions(jobs=1, max_members=1),
        progress=False,
    )
    # The sweep groups compatible runs by itself: 2 objectives x 2 seeds in 2 groups.
    assert batched.groups == 2 and solo.groups == 4
    a, b = _results(tmp_path / "b" / "2d"), _results(tmp_path / "s" / "2d")
    assert sorted(a) == sorted(b) and len(a) == 4
    for run_id in a:
        for key, value in a[run_id]["metrics"].items():
            assert value == pytest.approx(b[run_id]["metrics"][key], rel=1e-4, abs=1e-5), key
        assert a[run_id]["curves"]["loss"] == pytest.approx(
            b[run_id]["curves"]["loss"], rel=1e-4, abs=1e-6
        )
        wa = load_tensors(tmp_path / "b" / "2d" / run_id / "weights.safetensors")
        wb = load_tensors(tmp_path / "s" / "2d" / run_id / "weights.safetensors")
        for name in wa:
            torch.testing.assert_close(wa[name], wb[name], rtol=1e-4, atol=1e-5)


def test_crash_is_recorded_and_retried_divergence_is_kept(tmp_path: Path, monkeypatch) -> None:
    sets = [*TINY, "runs=[spiral_whiten, nvp_whiten]", "seeds=[7]", "runs.spiral_whiten.lr=1000.0"]
    real = kinds.train_and_save

    def flaky(specs, out, progress=True, on_eval=None, keep=(), root=None):
        if any(s.run.startswith("nvp") for s in specs):
            raise RuntimeError("simulated crash")
        return real(specs, out, progress, on_eval, keep, root)

    monkeypatch.setattr(kinds, "train_and_save", flaky)
    summary = run_sweep(
        CONFIGS / "2d.yaml", sets, tmp_path, ExecutorOptions(jobs=1), progress=False
    )
    root = tmp_path / "2d"
    assert summary.statuses == {"spiral_whiten-seed7": "diverged", "nvp_whiten-seed7": "failed"}
    assert (
        json.loads((root / "spiral_whiten-seed7" / "result.json").read_text())["status"]
        == "diverged"
    )
    error = json.loads((root / "nvp_whiten-seed7" / "error.json").read_text())
    assert "simulated crash" in error["error"]
    assert not (root / "nvp_whiten-seed7" / "result.json").exists()
    assert any("failed" in line for line in summary.lines())

    monkeypatch.setattr(kinds, "train_and_save", real)
    again = run_sweep(CONFIGS / "2d.yaml", sets, tmp_path, ExecutorOptions(jobs=1), progress=False)
    assert again.skipped == 1 and again.statuses == {"nvp_whiten-seed7": "finished"}
    assert not (root / "nvp_whiten-seed7" / "error.json").exists()


def test_submitit_debug_executor_runs_the_slurm_path(tmp_path: Path) -> None:
    submitit = pytest.importorskip("submitit")
    sets = [*TINY, "runs=[spiral_lejepa, nvp_lejepa]", "seeds=[3]"]
    executor = SubmititExecutor(submitit.DebugExecutor(folder=str(tmp_path / "sub")), poll_s=0)
    summary = run_sweep(
        CONFIGS / "2d.yaml",
        sets,
        tmp_path / "out",
        ExecutorOptions(kind="slurm"),
        progress=False,
        executor=executor,
    )
    assert set(summary.statuses.values()) == {"finished"}
    assert len(_results(tmp_path / "out" / "2d")) == 2


def test_process_pool_of_two_workers(tmp_path: Path) -> None:
    sets = [*TINY, "runs=[spiral_lejepa, banana_lejepa]", "seeds=[5]"]
    summary = run_sweep(
        CONFIGS / "2d.yaml", sets, tmp_path, ExecutorOptions(jobs=2), progress=False
    )
    # Two jobs split the single compatible class so both workers are busy.
    assert summary.groups == 2
    assert set(summary.statuses.values()) == {"finished"}
    assert len(_results(tmp_path / "2d")) == 2
    assert isinstance(PoolExecutor(2, 1), PoolExecutor)


def _worker_gpu(pause: float) -> tuple[int, str | None]:
    import os
    import time

    time.sleep(pause)  # held long enough that every worker of the pool takes a task
    return os.getpid(), os.environ.get("CUDA_VISIBLE_DEVICES")


def test_visible_gpus_reads_the_mask_or_counts_the_devices():
    from lejepa_id.sweeps.executors import visible_gpus

    assert visible_gpus({"CUDA_VISIBLE_DEVICES": "2, 5,GPU-ab"}) == ["2", "5", "GPU-ab"]
    assert visible_gpus({"CUDA_VISIBLE_DEVICES": ""}) == []
    assert visible_gpus({}, count=3) == ["0", "1", "2"]


def test_a_pool_over_several_gpus_gives_each_worker_its_own():
    """On a node with several GPUs every local worker would otherwise land on cuda:0. A
    fake device list on the CPU: each worker process must see exactly one entry of it."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    pool = PoolExecutor(4, 1, gpus=["3", "5"]).new_pool(ctx, queue)
    try:
        seen = dict(f.result() for f in [pool.submit(_worker_gpu, 3.0) for _ in range(4)])
    finally:
        pool.shutdown()
        queue.close()
        queue.join_thread()
    assert len(seen) == 4  # four workers
    assert sorted(seen.values()) == ["3", "3", "5", "5"]  # worker i on gpus[i % 2]


def test_a_sweep_on_several_gpus_plans_memory_per_device(monkeypatch, tmp_path):
    """Sixteen jobs over four GPUs run four groups at once on each: the planner's memory
    budget is shared four ways, not sixteen, and the pool is told the devices."""
    from lejepa_id.sweeps import runner

    seen: dict[str, object] = {}

    def fake_plan(todo, device_type, jobs, memory, max_members):
        seen["jobs"] = jobs
        return []

    monkeypatch.setattr(runner, "resolve_device", lambda name: torch.device("cuda"))
    monkeypatch.setattr(runner, "_device_memory", lambda device_type: 80 * 2**30)
    monkeypatch.setattr(runner, "visible_gpus", lambda: ["0", "1", "2", "3"])
    monkeypatch.setattr(runner, "plan_groups", fake_plan)
    made = {}
    original = runner._make_executor

    def spy(options, jobs, device_type, root, gpus=()):
        made["jobs"], made["gpus"] = jobs, tuple(gpus)
        return original(options, jobs, device_type, root, gpus)

    monkeypatch.setattr(runner, "_make_executor", spy)
    from lejepa_id.config.experiments import load_experiment

    exp = load_experiment(CONFIGS / "2d.yaml", [*TINY[:-1], "seeds=[0]", "device=cuda"])
    runner.run_experiment(exp, tmp_path, progress=False)
    assert made == {"jobs": 16, "gpus": ("0", "1", "2", "3")}
    assert seen["jobs"] == 4
