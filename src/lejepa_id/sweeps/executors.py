"""Executing planned groups: in this process, in a local process pool, or via submitit.

Every executor runs :func:`run_group` on each group: train it with the experiment kind's
``train_and_save`` (which writes each run's result.json last and atomically) and
turn any exception into an ``error.json`` per run, so a crash never stops the sweep and
is retried by the next one. Executors report progress through a :class:`Progress`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Protocol

from tqdm import tqdm

from lejepa_id.config.experiments import RunSpec
from lejepa_id.plugins import load_all as load_plugins
from lejepa_id.sweeps.kinds import kind_of
from lejepa_id.sweeps.plan import Group
from lejepa_id.sweeps.state import RESULT, clear_error, read_result, write_error

# (group index, steps done) messages from workers to the progress display.
StepCallback = Callable[[int, int], None]


class Progress(Protocol):
    """What executors tell the display: a group started, advanced, or ended."""

    def started(self, group: Group) -> None: ...

    def advanced(self, index: int, step: int) -> None: ...

    def finished(self, group: Group, statuses: dict[str, str]) -> None: ...


def run_group(
    index: int,
    specs: Sequence[RunSpec],
    root: str | Path,
    threads: int | None = None,
    on_step: StepCallback | None = None,
    loggers: Sequence[str] = (),
) -> dict[str, str]:
    """Train one group and save its runs; returns {run_id: finished|diverged|failed}.

    ``loggers`` names the trackers (``--logger``) each run of the group writes to.

    This is the unit of work of every executor (it runs in a worker process or a
    SLURM job), so it must never raise for a failed training: the failure is written
    to each run's error.json instead.
    """
    import torch

    root = Path(root)
    if threads:
        torch.set_num_threads(threads)
    # A spawned worker or a cluster job starts with the built-in components only.
    for spec in specs:
        load_plugins(spec.plugins)
    callback = None
    if on_step is not None:

        def callback(step: int, _rows: list[dict[str, float]]) -> None:
            on_step(index, step)

    # Members already saved are in the group only to reproduce it (a resumed group):
    # their results are not written again.
    keep = {s.run_id for s in specs if read_result(root / s.run_id / RESULT) is not None}
    new = [s for s in specs if s.run_id not in keep]
    try:
        kind = kind_of(specs[0])
        # Only passed when asked for: run_sweep refuses loggers for other kinds (Reacher).
        extra: dict[str, Any] = {"loggers": tuple(loggers)} if loggers else {}
        results = kind.train_and_save(
            specs, root, progress=False, on_eval=callback, keep=keep, **extra
        )
    except Exception as exc:  # noqa: BLE001 - any crash becomes an error record
        trace = traceback.format_exc()
        message = f"{type(exc).__name__}: {exc}".splitlines()[0]
        for spec in new:
            write_error(spec, root, message, trace)
        return {spec.run_id: "failed" for spec in new}
    statuses = {}
    for spec, res in zip(specs, results):
        if spec.run_id in keep:
            continue
        clear_error(spec, root)
        statuses[spec.run_id] = res.status
    return statuses


class InlineExecutor:
    """Groups one after another in this process (``--jobs 1``; also the tests' path)."""

    def __init__(self, threads: int | None = None, loggers: Sequence[str] = ()) -> None:
        self.threads, self.loggers = threads, tuple(loggers)

    def run(self, groups: list[Group], root: Path, progress: Progress) -> None:
        for group in groups:
            progress.started(group)
            statuses = run_group(
                group.index, group.specs, root, self.threads, progress.advanced, self.loggers
            )
            progress.finished(group, statuses)


# --- local process pool -------------------------------------------------------------

_QUEUE: Any = None
_PARENT: int | None = None
GPU_VAR = "CUDA_VISIBLE_DEVICES"


def visible_gpus(env: dict[str, str] | None = None, count: int | None = None) -> list[str]:
    """The GPUs a local sweep spreads its workers over: the entries of
    ``CUDA_VISIBLE_DEVICES`` when it is set (indices or UUIDs, as the user gave them), else
    ``0 .. count - 1`` (``count``: torch's device count when not given)."""
    env = dict(os.environ) if env is None else env
    if env.get(GPU_VAR) is not None:
        return [d.strip() for d in env[GPU_VAR].split(",") if d.strip()]
    if count is None:
        import torch

        count = torch.cuda.device_count()
    return [str(i) for i in range(count)]


def _init_worker(threads: int, queue: Any, parent: int, gpus: Any = None) -> None:
    """Pool initializer: limit torch threads so J workers share the cores fairly, and
    give this worker its own GPU when the pool spreads over several (``gpus``: a queue of
    one device per worker). ``CUDA_VISIBLE_DEVICES`` is set before anything in the worker
    asks CUDA for its devices, so the worker's ``cuda`` is that one GPU."""
    global _QUEUE, _PARENT
    if gpus is not None:
        os.environ[GPU_VAR] = gpus.get()
    import torch

    # Ctrl-C reaches the whole process group: the parent alone handles it and stops
    # the workers, which would otherwise each print a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # tqdm's default lock is a multiprocessing semaphore; a worker stopped mid-training
    # would leave it to the resource tracker ("leaked semaphore"). Workers print no bars.
    tqdm.set_lock(threading.RLock())
    torch.set_num_threads(threads)
    _QUEUE, _PARENT = queue, parent


def _post_step(index: int, step: int) -> None:
    # A worker orphaned by a killed sweep stops at its next evaluation instead of
    # finishing a group that the resumed sweep is training again.
    if _PARENT is not None and os.getppid() != _PARENT:
        os._exit(1)
    if _QUEUE is not None:
        _QUEUE.put((index, step))


def _pool_task(
    index: int, specs: list[RunSpec], root: str, loggers: tuple[str, ...]
) -> dict[str, str]:
    return run_group(index, specs, root, None, _post_step, loggers)


class PoolExecutor:
    """J spawned worker processes, each training one group at a time.

    On a GPU the workers share the device: several small groups run concurrently,
    which hides each one's kernel-launch latency. ``gpus`` (several device names, as
    ``CUDA_VISIBLE_DEVICES`` takes them) spreads the workers over those GPUs, worker i on
    ``gpus[i % len(gpus)]``; each sees only its own, as ``cuda``.
    """

    def __init__(
        self, jobs: int, threads: int, loggers: Sequence[str] = (), gpus: Sequence[str] = ()
    ) -> None:
        self.jobs, self.threads, self.loggers = jobs, threads, tuple(loggers)
        self.gpus = tuple(gpus)

    def run(self, groups: list[Group], root: Path, progress: Progress) -> None:
        ctx = multiprocessing.get_context("spawn")
        queue = ctx.Queue()
        pending = list(groups)
        try:
            while pending:
                pending = self._run_pool(ctx, queue, pending, root, progress)
        finally:
            # Closing the queue (and joining its feeder thread) releases its semaphore:
            # left to interpreter exit after an interrupt, it is reported as leaked.
            queue.close()
            queue.join_thread()

    def new_pool(self, ctx: Any, queue: Any) -> ProcessPoolExecutor:
        """A pool of :attr:`jobs` workers; with :attr:`gpus`, one device for each."""
        gpus = None
        if len(self.gpus) > 1:
            gpus = ctx.Queue()
            for i in range(self.jobs):
                gpus.put(self.gpus[i % len(self.gpus)])
        return ProcessPoolExecutor(
            self.jobs,
            mp_context=ctx,
            initializer=_init_worker,
            initargs=(self.threads, queue, os.getpid(), gpus),
        )

    def _run_pool(self, ctx, queue, groups: list[Group], root: Path, progress: Progress):
        """Run groups until done or the pool breaks; returns the groups never started."""
        pool = self.new_pool(ctx, queue)
        waiting = list(groups)
        running: dict[Future, Group] = {}
        try:
            while waiting or running:
                while waiting and len(running) < self.jobs:
                    group = waiting.pop(0)
                    with _workers_ignore_sigint():
                        future = pool.submit(
                            _pool_task, group.index, group.specs, str(root), self.loggers
                        )
                    running[future] = group
                    progress.started(group)
                done, _ = wait(running, timeout=0.5, return_when=FIRST_COMPLETED)
                _drain(queue, progress)
                for future in done:
                    group = running.pop(future)
                    try:
                        statuses = future.result()
                    except BrokenProcessPool:
                        # A worker died (killed, out of memory): record every group that
                        # was in flight and restart a fresh pool for the rest.
                        for g in [group, *running.values()]:
                            _record_crash(g, root, "worker process died", progress)
                        return waiting
                    except Exception as exc:  # noqa: BLE001
                        _record_crash(group, root, f"{type(exc).__name__}: {exc}", progress)
                        continue
                    progress.finished(group, statuses)
            return []
        except BaseException:
            _terminate(pool)
            raise
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


@contextlib.contextmanager
def _workers_ignore_sigint() -> Iterator[None]:
    """Workers spawned inside ignore Ctrl-C from their first instruction: an ignored
    signal stays ignored across exec, and Python then installs no KeyboardInterrupt
    handler, so a worker still importing torch when Ctrl-C reaches the process group
    prints no traceback (the initializer, which ignores it too, runs only after the
    imports). The parent ignores it only while it submits (and so spawns)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _drain(queue: Any, progress: Progress) -> None:
    while True:
        try:
            index, step = queue.get_nowait()
        except Exception:  # noqa: BLE001 - queue.Empty, or a closed queue
            return
        progress.advanced(index, step)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop this pool's own worker processes (an interrupted sweep must not leave them)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(timeout=10)


def _record_crash(group: Group, root: Path, message: str, progress: Progress) -> None:
    new = [spec for spec in group.specs if spec.run_id not in group.keep]
    for spec in new:
        write_error(spec, root, message)
    progress.finished(group, {spec.run_id: "failed" for spec in new})


# --- submitit (SLURM, or its local and debug executors) --------------------------------


class SubmititExecutor:
    """Groups as a submitit job array: one job per group.

    ``executor`` is any configured submitit executor: ``AutoExecutor`` on a SLURM
    cluster, or ``LocalExecutor`` / ``DebugExecutor`` to exercise this path on one
    machine. Progress is per finished group (jobs cannot stream steps back).
    """

    def __init__(self, executor: Any, poll_s: float = 2.0, loggers: Sequence[str] = ()) -> None:
        self.executor, self.poll_s, self.loggers = executor, poll_s, tuple(loggers)

    def run(self, groups: list[Group], root: Path, progress: Progress) -> None:
        if not groups:
            return
        jobs = self.executor.map_array(
            run_group,
            [g.index for g in groups],
            [g.specs for g in groups],
            [str(root)] * len(groups),
            [None] * len(groups),
            [None] * len(groups),
            [self.loggers] * len(groups),
        )
        for g in groups:
            progress.started(g)
        open_jobs = dict(zip(jobs, groups))
        try:
            self._wait(open_jobs, root, progress)
        except BaseException:
            # Interrupted (Ctrl-C, SIGTERM from the scheduler): cancel what is still
            # queued or running, so a resume never trains beside a job of this sweep.
            for job in open_jobs:
                cancel_job(job)
            raise

    def _wait(self, open_jobs: dict[Any, Group], root: Path, progress: Progress) -> None:
        while open_jobs:
            for job, group in list(open_jobs.items()):
                if not job.done():
                    continue
                del open_jobs[job]
                try:
                    statuses = job.result()
                except Exception as exc:  # noqa: BLE001 - timeout, node failure, ...
                    message = f"{type(exc).__name__}: {exc}".splitlines()[0]
                    _record_crash(group, root, f"job {job.job_id}: {message}", progress)
                    continue
                progress.finished(group, statuses)
            if open_jobs:
                time.sleep(self.poll_s)


def cancel_job(job: Any) -> None:
    """Cancel one submitit job (scancel on SLURM, a kill locally); never raises, since
    it runs while an interrupt unwinds and the job may already have ended."""
    try:
        if job.done():
            return
        # submitit's local jobs: its cancel sends SIGINT to the controller process,
        # which prints a KeyboardInterrupt traceback onto our stderr. Killing the
        # controller's tasks instead lets it see them end and exit quietly.
        controller = getattr(job, "_process", None)
        if controller is not None and _kill_children(controller.pid):
            controller.wait(timeout=10)
            return
        job.cancel(check=False)
    except Exception:  # noqa: BLE001 - best effort: a job that already ended, a dead node
        pass


def _kill_children(pid: int) -> bool:
    """SIGKILL the child processes of ``pid`` (Linux /proc); False when none were found."""
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            children += [int(c) for c in (task / "children").read_text().split()]
    for child in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
    return bool(children)


def slurm_executor(
    folder: Path,
    partition: str | None,
    time_min: int | None,
    gpus: int | None,
    array_parallelism: int | None,
) -> Any:
    """A submitit executor for SLURM with the sweep's options."""
    import submitit

    executor = submitit.AutoExecutor(folder=str(folder), cluster="slurm")
    params: dict[str, Any] = {"timeout_min": time_min or 120, "gpus_per_node": gpus or 1}
    if partition:
        params["slurm_partition"] = partition
    if array_parallelism:
        params["slurm_array_parallelism"] = array_parallelism
    executor.update_parameters(**params)
    return executor


def submitit_local_executor(folder: Path, time_min: int | None = None) -> Any:
    """submitit's LocalExecutor: the SLURM code path, run as local subprocesses."""
    import submitit

    executor = submitit.LocalExecutor(folder=str(folder))
    executor.update_parameters(timeout_min=time_min or 60)
    return executor
