"""One sweep from start to end: load, check, plan, execute, summarize.

:func:`run_sweep` is what ``lejepa-id sweep`` calls. Everything that can be refused
(bad config, empty sweep, a results directory of a different config) is checked before
anything is written.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from lejepa_id.config.experiments import RunSpec
from lejepa_id.errors import UsageError
from lejepa_id.records.layout import check_path_length, check_run_dirs, ensure_writable
from lejepa_id.records.loggers import check_loggers
from lejepa_id.records.result import RESULT_FILE
from lejepa_id.resources import resolve_config
from lejepa_id.runtime import resolve_device
from lejepa_id.sweeps.capacity import CPU_MEMBER_CAP, GPU_MEMORY_FRACTION
from lejepa_id.sweeps.executors import (
    InlineExecutor,
    PoolExecutor,
    SubmititExecutor,
    slurm_executor,
    submitit_local_executor,
    visible_gpus,
)
from lejepa_id.sweeps.kinds import file_kind, get_kind, kind_of, load_any
from lejepa_id.sweeps.plan import (
    Group,
    plan_groups,
    reindex,
    resume_groups,
)
from lejepa_id.sweeps.state import (
    check_compatible,
    experiment_dir,
    partition,
    read_manifest,
    read_result,
    recorded_groups,
    sweep_command,
    sweep_lock,
    write_manifest,
)


@dataclass
class SweepSummary:
    """What a sweep did: counts per status and the runs that failed or diverged."""

    experiment: str
    root: Path
    total: int
    skipped: int
    groups: int
    statuses: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    wall_s: float = 0.0

    def count(self, status: str) -> int:
        return sum(1 for s in self.statuses.values() if s == status)

    def lines(self) -> list[str]:
        out = [
            f"sweep {self.experiment}: {_runs(self.total)}, {self.skipped} already done, "
            f"{len(self.statuses)} trained in {self.groups} group{'s' * (self.groups != 1)} "
            f"in {self.wall_s:.1f} s: "
            f"{self.count('finished')} finished, {self.count('diverged')} diverged, "
            f"{self.count('failed')} failed",
        ]
        for run_id, status in sorted(self.statuses.items()):
            if status == "diverged":
                out.append(f"  diverged: {run_id} (see {self.root / run_id / RESULT_FILE})")
            elif status == "failed":
                out.append(
                    f"  failed:   {run_id} (see {self.root / run_id / 'error.json'}; "
                    "rerun the sweep to retry)"
                )
        out.append(f"results in {self.root}")
        return out


IN_FLIGHT_SHARE = 0.98
"""The share of a group's cost its training steps count for on the sweep bar; the
rest is added when the group has finished (scored and saved)."""


class ProgressBar:
    """Progress over run-steps weighted by cost, with runs done, running, failed and ETA."""

    def __init__(
        self, groups: list[Group], total_runs: int, done_runs: int, enabled: bool = True
    ) -> None:
        self.groups = {g.index: g for g in groups}
        self.partial: dict[int, float] = {}
        self.total_runs, self.done = total_runs, done_runs
        self.running = self.failed = self.diverged = 0
        self.statuses: dict[str, str] = {}
        self.bar = tqdm(
            total=sum(g.cost for g in groups) or 1.0,
            disable=not enabled,
            desc="sweep",
            dynamic_ncols=True,
            file=sys.stderr,
            bar_format="{desc} {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}] {postfix}",
        )
        self._refresh()

    def _refresh(self) -> None:
        self.bar.set_postfix_str(
            f"runs {self.done}/{self.total_runs} done, {self.running} running, "
            f"{self.failed} failed, {self.diverged} diverged"
        )

    def started(self, group: Group) -> None:
        self.running += group.new_runs
        self.partial[group.index] = 0.0
        self._refresh()

    def advanced(self, index: int, step: int) -> None:
        group = self.groups[index]
        first = group.specs[0]
        # The last evaluation reports every step done, but the final metrics and the
        # saving are still to come: a group counts as complete only once finished, so
        # the bar never reads 100% while runs are still running.
        done = min(step / kind_of(first).progress_total(first), 1.0)
        new = group.cost * IN_FLIGHT_SHARE * done
        self.bar.update(max(new - self.partial.get(index, 0.0), 0.0))
        self.partial[index] = new

    def finished(self, group: Group, statuses: dict[str, str]) -> None:
        self.bar.update(max(group.cost - self.partial.pop(group.index, 0.0), 0.0))
        self.running -= group.new_runs
        self.statuses.update(statuses)
        for status in statuses.values():
            if status == "failed":
                self.failed += 1
            else:
                self.done += 1
                self.diverged += status == "diverged"
        self._refresh()

    def close(self) -> None:
        self.bar.close()


@dataclass
class ExecutorOptions:
    """How to execute: local pool of ``jobs`` workers, or SLURM through submitit."""

    kind: str = "local"
    jobs: int | None = None
    partition: str | None = None
    time_min: int | None = None
    gpus: int | None = None
    array_parallelism: int | None = None
    max_members: int | None = None
    loggers: tuple[str, ...] = ()
    """Trackers every run writes to (``--logger``); see :mod:`lejepa_id.records.loggers`."""


def default_jobs(device_type: str, gpus: int = 1) -> int:
    """Workers: one per core on a CPU; four groups at a time on each GPU."""
    if device_type == "cuda":
        return 4 * max(1, gpus)
    return max(1, os.cpu_count() or 1)


def _device_memory(device_type: str) -> int | None:
    if device_type != "cuda":
        return None
    import torch

    return int(torch.cuda.get_device_properties(0).total_memory)


def run_sweep(
    config: str | Path,
    sets: list[str] | None = None,
    out: str | Path = "runs",
    options: ExecutorOptions | None = None,
    progress: bool = True,
    executor: Any = None,
    plugins: Sequence[str] = (),
) -> SweepSummary:
    """Train every run of an experiment that is not already done under ``out``.

    Args:
        config: experiment YAML, or a shipped config's name (``scaling``).
        sets: ``key=value`` overrides (sweep axes included: ``seeds=[0,1]``).
        out: results root; runs go to ``out/<experiment>/<run_id>/``.
        options: executor kind and options.
        progress: show the progress bar.
        executor: an explicit executor object with ``run(groups, root, progress)``
            (tests pass a submitit DebugExecutor wrapped in SubmititExecutor).
        plugins: the ``--plugin`` files or modules the command named (already loaded),
            canonical; the manifest records them with the config and ``sets``, so the
            report prints a command that trains the same runs again.
    """
    options = options or ExecutorOptions()
    config = resolve_config(config)
    check_loggers(options.loggers)
    kind = get_kind(file_kind(config))
    if options.loggers and not kind.feeds_loggers:
        raise UsageError(
            f"--logger {options.loggers[0]}: {kind.name} runs feed no trackers; their "
            "curves are in each result.json (lejepa-id curves DIR plots them)"
        )
    check_path_length(out)
    exp = _load(config, sets)
    command = sweep_command(config, list(sets or []), plugins, options.loggers)
    return run_experiment(
        exp, experiment_dir(out, exp.name), options, progress, executor, command=command
    )


def run_experiment(
    exp: Any,
    root: str | Path,
    options: ExecutorOptions | None = None,
    progress: bool = True,
    executor: Any = None,
    command: dict[str, Any] | None = None,
) -> SweepSummary:
    """Train every run of a loaded experiment that is not already done in ``root``, the
    experiment's folder (``OUT/<experiment>`` for ``lejepa-id sweep``); each run's result
    goes to ``root/<run_id>``. ``command`` (:func:`~lejepa_id.sweeps.state.sweep_command`)
    is what the manifest records of the command that asked."""
    root = Path(root)
    options = options or ExecutorOptions()
    specs = exp.expand()
    check_run_dirs(root, [s.run_id for s in specs])
    check_compatible(exp, specs, root)
    local = options.kind == "local"
    device_type = resolve_device(specs[0].config.device).type if local else "cuda"
    # A local sweep on several GPUs gives each worker its own (one named GPU: that one).
    gpus = visible_gpus() if local and specs[0].config.device in ("auto", "cuda") else []
    gpus = gpus if device_type == "cuda" else []
    jobs = options.jobs or default_jobs(device_type, len(gpus))
    if executor is None:
        executor = _make_executor(options, jobs, device_type, root, gpus)
    from lejepa_id.objectives.probe import probe_configs

    probe_configs([s.config for s in specs])
    # Every refusal is above this line: from here on the sweep writes.
    ensure_writable(root)
    with sweep_lock(root):
        # Again under the lock: a sweep that held it may have written a manifest since.
        check_compatible(exp, specs, root)
        done, todo, notes = partition(specs, root)
        replayed, fresh, replay_notes = resume_groups(
            todo, specs, recorded_groups(read_manifest(root))
        )
        memory = _device_memory(device_type) if local else None
        # Memory is shared by the groups that run at once on one device.
        per_device = -(-jobs // max(1, len(gpus))) if local else 1
        planned = plan_groups(fresh, device_type, per_device, memory, options.max_members)
        groups = reindex(replayed + planned)
        write_manifest(exp, specs, root, [g.run_ids for g in groups], command)
        notes += replay_notes
        summary = SweepSummary(exp.name, root, len(specs), len(done), len(groups), notes=notes)
        start = time.perf_counter()
        bar = ProgressBar(groups, len(specs), len(done), enabled=progress)
        try:
            executor.run(groups, root, bar)
        finally:
            bar.close()
            summary.statuses = dict(bar.statuses)
            summary.wall_s = time.perf_counter() - start
    return summary


@dataclass
class DryRun:
    """What a sweep would train, computed without writing anything."""

    experiment: str
    root: Path
    total: int
    done: int
    by_run: dict[str, int]
    settings: dict[str, list[str]]
    stacking: list[str] = field(default_factory=list)
    """How the runs still to train would be grouped into stacks (:func:`stacking_lines`)."""

    def lines(self) -> list[str]:
        out = [
            f"{self.experiment}: {_runs(self.total)} under {self.root} ({self.done} done, "
            f"{self.total - self.done} to train); nothing written (--dry-run)"
        ]
        out += [f"  {run}: {_runs(n)}" for run, n in self.by_run.items()]
        out += [f"  {key}: {', '.join(values)}" for key, values in self.settings.items()]
        return out + self.stacking


def counted(n: int, noun: str) -> str:
    """``1 worker``, ``2 workers``: a count with its noun in the number it takes."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _runs(n: int) -> str:
    """``1 run``, ``2 runs``."""
    return counted(n, "run")


# Stacks listed one by one in a dry run; the rest are counted.
DRY_RUN_STACKS = 12


def stacking_lines(
    todo: list[RunSpec], device: str, jobs: int | None, max_members: int | None
) -> list[str]:
    """The planner's grouping of ``todo`` on ``device`` (``cuda`` is planned as for a GPU
    even where none is present, with the memory of this one or an assumed 80 GiB)."""
    if not todo:
        return []
    import torch

    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    present = device == "cuda" and torch.cuda.is_available()
    memory = _device_memory("cuda") if present else None
    jobs = jobs or default_jobs(device)
    groups = plan_groups(todo, device, jobs, memory, max_members)
    if device == "cuda":
        budget = f"{(memory or 80 * 2**30) / 2**30:,.0f} GiB" + ("" if memory else " assumed")
        how = f"memory {budget}, {GPU_MEMORY_FRACTION:.0%} shared by {jobs} concurrent groups"
    else:
        how = f"at most {CPU_MEMBER_CAP.get(todo[0].config.encoder, 1)} per stack on a CPU"
    if max_members:
        how = f"--max-group {max_members}"
    sizes = sorted((len(g.specs) for g in groups), reverse=True)
    out = [f"  stacks on {device} ({how}): {len(groups)} for {_runs(len(todo))}, sizes {sizes}"]
    several_dims = len({spec.config.dim for spec in todo}) > 1
    for g in groups[:DRY_RUN_STACKS]:
        runs = Counter(
            f"{spec.run} N={spec.config.dim}" if several_dims else spec.run for spec in g.specs
        )
        parts = ", ".join(f"{run} x{n}" for run, n in runs.items())
        out.append(f"    stack {g.index}: {_runs(len(g.specs))} ({parts})")
    if len(groups) > DRY_RUN_STACKS:
        out.append(f"    ... and {len(groups) - DRY_RUN_STACKS} more stacks")
    return out


DRY_RUN_KEYS = ("mode", "lam", "steps", "seed", "rho", "code_dim")


def dry_run(
    config: str | Path,
    sets: list[str] | None = None,
    out: str | Path = "runs",
    jobs: int | None = None,
    max_members: int | None = None,
    pace_from: str | None = None,
    project: bool = True,
    probe: bool = False,
) -> DryRun:
    """The runs a sweep would train, refusals included, how they would be stacked (on the
    configs' device, with ``jobs`` concurrent groups) and the wall time that projects
    (:func:`projection_lines`; ``project=False`` leaves it out), with nothing written."""
    exp = _load(resolve_config(config), sets)
    specs = exp.expand()
    root = experiment_dir(out, exp.name)
    check_compatible(exp, specs, root)
    done = sum(read_result(root / s.run_id / RESULT_FILE) is not None for s in specs)
    by_run: dict[str, int] = {}
    values: dict[str, set[str]] = {k: set() for k in DRY_RUN_KEYS}
    for spec in specs:
        by_run[spec.run] = by_run.get(spec.run, 0) + 1
        cfg = spec.config.to_dict()
        for key in DRY_RUN_KEYS:
            values[key].add(str(cfg.get(key)))
    settings = {k: sorted(v) for k, v in values.items()}
    todo = [s for s in specs if read_result(root / s.run_id / RESULT_FILE) is None]
    stacked = [s for s in todo if kind_of(s).stacks]
    device = str(stacked[0].config.device) if stacked else "cpu"
    stacking = stacking_lines(stacked, device, jobs, max_members)
    projection = (
        projection_lines(stacked, device, jobs, max_members, pace_from, probe) if project else []
    )
    return DryRun(exp.name, root, len(specs), done, by_run, settings, stacking + projection)


def projection_lines(
    todo: list[RunSpec],
    device: str,
    jobs: int | None,
    max_members: int | None,
    pace_from: str | None = None,
    probe: bool = False,
) -> list[str]:
    """The projected wall time of training ``todo``, with its range: from paces measured
    on this device (stored ones reused; unknown groups probed under ``probe``, a few
    seconds each on a small group, else named as not projected),
    or from another device's stated paces (``pace_from``, :mod:`lejepa_id.sweeps.stated`)."""
    from lejepa_id.sweeps.pace import (
        PaceStore,
        beyond_probes,
        probe_groups,
        projected_span,
        representatives,
        spread,
    )
    from lejepa_id.sweeps.paper import format_duration

    if not todo:
        return []
    import torch

    def span(low: float, mid: float, high: float) -> str:
        tail = f" (range {format_duration(low)} to {format_duration(high)})"
        return format_duration(mid) + ("" if high <= 1.05 * low else tail)

    if pace_from is not None:
        from lejepa_id.sweeps.stated import load_stated, project_groups

        stated = load_stated(pace_from)
        if not stated.points:
            return [f"  not projected: {stated.source} states no pace of a synthetic group"]
        jobs = jobs or default_jobs(stated.device_type)
        groups = plan_groups(todo, stated.device_type, jobs, None, max_members)
        low, mid, high = project_groups(groups, stated, jobs)
        return [
            f"  projected on {stated.device}: {span(low, mid, high)}, from the paces "
            f"{stated.source} states for groups of like work, {counted(jobs, 'concurrent group')} "
            "(a projection, not a measurement: the benchmarks' setup and evaluations are "
            "in their paces, process start-up is not; the high end runs the groups one "
            "after another)"
        ]
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        return [f"  not projected: no {device} device here (--pace-from h200 projects a GPU)"]
    device_type = "cuda" if device.startswith("cuda") else "cpu"
    jobs = jobs or default_jobs(device_type)
    cores = os.cpu_count() or 1
    torch.set_num_threads(max(1, cores // jobs))
    name = torch.cuda.get_device_name(0) if device_type == "cuda" else f"{cores} CPU cores"
    memory = _device_memory(device_type)
    groups = plan_groups(todo, device_type, jobs, memory, max_members)
    store = PaceStore()
    paces = probe_groups(groups, store, name, measure=probe)
    wanted = len(representatives(groups))
    if len(paces) < wanted:
        return [
            f"  not projected: {wanted - len(paces)} of the {wanted} groups probed for a "
            f"projection have no pace stored for {name} in {store.path}; --probe measures "
            "them (a few seconds each on a small group, longer at large N), --pace-from h200 "
            "projects an H200"
        ]
    low, mid, high = projected_span(groups, paces, jobs)
    far = beyond_probes(groups, paces)
    beyond = (
        f"; {counted(len(far), 'group')} beyond the largest probe extrapolated by two "
        "models of their work"
        if far
        else ""
    )
    return [
        f"  projected here ({name}): {span(low, mid, high * spread(paces))}, {jobs} concurrent "
        "groups without contention (a projection, not a measurement; range: the probes' "
        f"faster and slower timings{beyond}; process start-up not included)",
        *(f"    pace {p.line()}" for p in paces),
    ]


def _load(config: str | Path, sets: list[str] | None) -> Any:
    """The experiment of a config, through the loader of its ``kind:``."""
    return load_any(config, sets)


def _make_executor(
    options: ExecutorOptions, jobs: int, device_type: str, root: Path, gpus: Sequence[str] = ()
) -> Any:
    if options.kind == "slurm":
        if shutil.which("sbatch") is None:
            raise UsageError("--executor slurm needs SLURM's sbatch on PATH; use local")
        return SubmititExecutor(
            slurm_executor(
                root / ".submitit",
                options.partition,
                options.time_min,
                options.gpus,
                options.array_parallelism,
            ),
            poll_s=10.0,
            loggers=options.loggers,
        )
    if options.kind == "submitit-local":
        return SubmititExecutor(
            submitit_local_executor(root / ".submitit", options.time_min),
            poll_s=0.5,
            loggers=options.loggers,
        )
    cores = os.cpu_count() or 1
    threads = max(1, cores // jobs)
    if jobs == 1:
        return InlineExecutor(threads, options.loggers)
    return PoolExecutor(jobs, threads, options.loggers, gpus)
