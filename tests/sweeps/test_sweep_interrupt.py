"""An interrupted sweep on a cluster: submitted jobs are cancelled (a resume must never
train beside a job of the sweep it replaces), SIGTERM exits 143, and the local pool's
workers end without leaked-semaphore warnings."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_sweep_executor import TINY

import lejepa_id
from lejepa_id.sweeps.executors import SubmititExecutor
from lejepa_id.sweeps.plan import Group

CONFIG = Path(__file__).resolve().parents[2] / "configs" / "2d.yaml"


class FakeJob:
    """A submitted job that never ends; the executor's n-th poll of any job raises once
    (a Ctrl-C or a SIGTERM arriving while the sweep waits)."""

    def __init__(self, executor: FakeExecutor, name: str) -> None:
        self.executor, self.job_id = executor, name

    def done(self) -> bool:
        self.executor.polls -= 1
        if self.executor.polls == 0:
            raise KeyboardInterrupt
        return False

    def cancel(self, check: bool = True) -> None:
        self.executor.cancelled.append(self.job_id)


class FakeExecutor:
    def __init__(self, polls: int = 7) -> None:
        self.cancelled: list[str] = []
        self.polls = polls

    def map_array(self, fn, indices, *arrays):
        return [FakeJob(self, f"job{i}") for i in indices]


class Silent:
    def started(self, group) -> None: ...

    def advanced(self, index, step) -> None: ...

    def finished(self, group, statuses) -> None: ...


def test_interrupt_cancels_every_submitted_job(tmp_path):
    fake = FakeExecutor()
    groups = [Group(index=i, specs=[]) for i in range(3)]
    with pytest.raises(KeyboardInterrupt):
        SubmititExecutor(fake, poll_s=0).run(groups, tmp_path, Silent())
    assert sorted(fake.cancelled) == ["job0", "job1", "job2"]


def _sweep(out: Path, *extra: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(Path(lejepa_id.__file__).parents[1])}
    sets = [f"--set={s}" for s in TINY if not s.startswith("steps")]
    return subprocess.Popen(
        [sys.executable, "-m", "lejepa_id", "sweep", str(CONFIG), "--out", str(out),
         "--no-progress", "--set=steps=100000", "--set=runs=[spiral_lejepa, spiral_whiten]",
         "--set=seeds=[0]", "--max-group=1", *sets, *extra],
        stderr=subprocess.PIPE, env=env, start_new_session=True,
    )  # fmt: skip


def _wait_for(path: Path, proc: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.2)


def test_sigterm_cancels_submitit_local_jobs_and_exits_143(tmp_path):
    pytest.importorskip("submitit")
    out = tmp_path / "out"
    proc = _sweep(out, "--executor", "submitit-local")
    _wait_for(out / "2d" / "sweep.json", proc)
    time.sleep(8)  # the jobs start training
    jobs = sorted((out / "2d" / ".submitit").rglob("*"))
    assert jobs, "no submitit job folder"
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err.decode()
    assert time.monotonic() - start < 30  # it does not wait for the jobs to finish
    assert "Traceback" not in err.decode()
    time.sleep(1)
    # No job process of this sweep is left running.
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert str(out / "2d" / ".submitit") not in ps


def test_interrupted_pool_leaks_no_semaphores(tmp_path):
    out = tmp_path / "out"
    proc = _sweep(out, "--jobs", "2")
    _wait_for(out / "2d" / "sweep.json", proc)
    time.sleep(10)  # both workers are importing torch or training
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the whole process group, workers too
    _, err = proc.communicate(timeout=60)
    text = err.decode()
    assert proc.returncode == 130, text
    assert "leaked semaphore" not in text and "Traceback" not in text, text


def _report_sigint(queue) -> None:
    queue.put(signal.getsignal(signal.SIGINT) == signal.SIG_IGN)


def test_pool_workers_ignore_ctrl_c_from_their_first_import():
    # A worker still importing torch when Ctrl-C arrives must not print a traceback: it
    # is spawned with SIGINT ignored (kept across exec), before any initializer runs.
    import multiprocessing

    from lejepa_id.sweeps.executors import _workers_ignore_sigint

    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    before = signal.getsignal(signal.SIGINT)
    with _workers_ignore_sigint():
        child = ctx.Process(target=_report_sigint, args=(queue,))
        child.start()
    assert signal.getsignal(signal.SIGINT) is before  # the parent's handler is back
    assert queue.get(timeout=120) is True
    child.join(timeout=60)
    plain = ctx.Process(target=_report_sigint, args=(queue,))
    plain.start()
    assert queue.get(timeout=120) is False  # without it a worker would raise KeyboardInterrupt
    plain.join(timeout=60)
    queue.close()
    queue.join_thread()
