"""What a results directory holds: the sweep manifest, finished runs and failed runs.

A sweep writes into ``OUT/<experiment>/``:

- ``sweep.json``: the manifest, the resolved experiment (defaults, runs, axes, --set)
  and every run id planned so far with its run name. A later sweep into the same
  directory must resolve every shared run to the same config (all keys but the swept
  axes and the device), or it is refused with the first mismatch named. ``groups``
  lists the run ids of every stacked group planned, so an interrupted group is
  trained again as the same group.
- ``.sweep.lock``: flocked by the running sweep (it holds the pid).
- ``<run_id>/result.json``: written last and atomically by ``RunResult.save``; its
  presence marks a finished (or diverged) run, which a resumed sweep skips once it
  passes its check (its files' sha256 and its metrics' schema): a run whose weights
  were truncated or whose metrics were edited is retrained, with a note.
- ``<run_id>/error.json``: a run that crashed; the next sweep retries it.

Because results appear only complete (atomic renames) and a run is skipped only when
its result parses and matches its config, killing a sweep at any moment and starting
it again finishes the same set of results, none lost, duplicated or corrupt, and
(groups being replayed whole) bit for bit the results of an uninterrupted sweep.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shlex
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from lejepa_id.config.experiments import AXES, Experiment, RunSpec
from lejepa_id.errors import UsageError
from lejepa_id.records.io import atomic_write_json, read_json, read_json_mapping
from lejepa_id.records.result import RESULT_FILE
from lejepa_id.records.validate import record_problem
from lejepa_id.resources import config_spelling
from lejepa_id.sweeps.kinds import kind_of

MANIFEST = "sweep.json"
RESULT = RESULT_FILE
ERROR = "error.json"
# Keys that may differ between invocations without changing what a run computes.
IGNORED_KEYS = ("device",)


def experiment_dir(out: str | Path, experiment: str) -> Path:
    return Path(out) / experiment


def comparable(config: dict[str, Any], drop: set[str]) -> dict[str, Any]:
    """A config dict without the keys that may legitimately differ."""
    return {k: v for k, v in config.items() if k not in drop and k not in IGNORED_KEYS}


def base_configs(exp: Experiment) -> dict[str, dict[str, Any]]:
    """Per run name: its resolved config with the swept fields left out."""
    swept = {AXES.get(k, k) for k in exp.axes}
    return {run: comparable(exp.run_config(run).to_dict(), swept) for run in exp.runs}


def read_result(path: Path) -> dict[str, Any] | None:
    """A result.json as a dict, or None when it is missing, unreadable, malformed or
    fails its check (a file missing or not matching its sha256, a metric not of the
    kind it was written as: see :mod:`lejepa_id.records.validate`)."""
    data, _problem = check_result(path)
    return data


def check_result(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """(the record, None) for a verified run; (None, why) for one that is not done."""
    try:
        data = read_json(path)
    except FileNotFoundError:
        return None, "missing"
    except (OSError, ValueError) as exc:
        return None, exc.strerror if isinstance(exc, OSError) else "not valid JSON"
    problem = record_problem(data, path.parent, resume=True)
    return (None, problem) if problem else (data, None)


def _first_difference(a: dict[str, Any], b: dict[str, Any]) -> str | None:
    for key in sorted(set(a) & set(b)):
        if _normalize(a[key]) != _normalize(b[key]):
            return key
    return None


def _normalize(value: Any) -> Any:
    # JSON round trips turn 1.0 into 1.0 but YAML may give 1; compare numbers as floats.
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    return float(value)


# The manifest's keys and the JSON type each must have.
MANIFEST_SHAPE = {
    "axes": dict,
    "base_configs": dict,
    "run_ids": dict,
    "runs": dict,
    "groups": list,
    "commands": list,
}


def read_manifest(root: Path) -> dict[str, Any] | None:
    """sweep.json of ``root``, None when absent; a malformed one is a one-line UsageError."""
    path = root / MANIFEST
    if not path.exists() and not path.is_symlink():
        return None
    manifest = read_json_mapping(path, "sweep manifest")
    for key, kind in MANIFEST_SHAPE.items():
        if key in manifest and not isinstance(manifest[key], kind):
            raise UsageError(
                f"sweep manifest {str(path)!r}: {key!r} must be a {kind.__name__}; "
                "move the file away to start over"
            )
    groups = manifest.get("groups", [])
    if not all(isinstance(g, list) and all(isinstance(i, str) for i in g) for g in groups):
        raise UsageError(f"sweep manifest {str(path)!r}: 'groups' must be lists of run ids")
    if not all(isinstance(c, dict) for c in manifest.get("base_configs", {}).values()):
        raise UsageError(f"sweep manifest {str(path)!r}: 'base_configs' must map runs to configs")
    if not all(_is_command(c) for c in manifest.get("commands", [])):
        raise UsageError(
            f"sweep manifest {str(path)!r}: 'commands' must be mappings of a 'config' and "
            "lists of strings 'sets', 'plugins' and 'loggers'"
        )
    return manifest


def sweep_command(
    config: str | Path,
    sets: list[str],
    plugins: Sequence[str] = (),
    loggers: Sequence[str] = (),
) -> dict[str, Any]:
    """What the manifest keeps of one ``lejepa-id sweep`` so that it can be given again:
    the config as any folder can name it (a shipped config's name, else the file's
    absolute path), every ``--set`` as it was written and in order (a later one wins), the
    ``--plugin`` files and the trackers (they write files into every run)."""
    return {
        "config": config_spelling(config),
        "sets": list(sets),
        "plugins": list(plugins),
        "loggers": list(loggers),
    }


def _is_command(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("config"), str)
        and all(
            isinstance(value.get(k, []), list) and all(isinstance(v, str) for v in value.get(k, []))
            for k in ("sets", "plugins", "loggers")
        )
    )


def rerun_commands(manifest: dict[str, Any], out: str | Path) -> list[str]:
    """The shell lines that train this experiment again under the results root ``out``:
    one per distinct sweep that wrote into its folder, in the order they ran (each may have
    added runs or seeds); empty for a manifest written before sweeps recorded them."""
    lines = []
    for command in manifest.get("commands", []):
        words = ["lejepa-id", "sweep", command["config"], "--out", str(out)]
        for flag, key in (("--set", "sets"), ("--plugin", "plugins"), ("--logger", "loggers")):
            for value in command.get(key, []):
                words += [flag, value]
        lines.append(shlex.join(words))
    return lines


def check_compatible(exp: Experiment, specs: list[RunSpec], root: Path) -> None:
    """Refuse (UsageError, one line) when ``root`` holds runs of a different config."""
    manifest = read_manifest(root)
    if manifest is not None:
        if manifest.get("experiment") != exp.name:
            raise UsageError(
                f"{root} holds experiment {manifest.get('experiment')!r}, "
                f"not {exp.name!r}; use another --out"
            )
        old_swept = {AXES.get(k, k) for k in manifest.get("axes", {})}
        new = base_configs(exp)
        for run, old_cfg in manifest.get("base_configs", {}).items():
            if run not in new:
                continue
            new_cfg = comparable(new[run], old_swept)
            key = _first_difference(comparable(old_cfg, set()), new_cfg)
            if key is not None:
                raise UsageError(
                    f"{root} holds run {run!r} with {key}={old_cfg[key]!r} but this config "
                    f"has {key}={new_cfg[key]!r}; use another --out or the same config"
                )
    for spec in specs:
        stored = read_result(root / spec.run_id / RESULT)
        if stored is None:
            continue
        want = comparable(spec.config.to_dict(), set())
        key = _first_difference(comparable(stored["config"], set()), want)
        if key is not None:
            raise UsageError(
                f"{root / spec.run_id} was trained with {key}={stored['config'][key]!r} but "
                f"this config has {key}={want[key]!r}; use another --out or the same config"
            )
        _check_plugins(spec, stored, root / spec.run_id)
        kind_of(spec).check_stored(spec, stored, root / spec.run_id)


def _check_plugins(spec: RunSpec, stored: dict[str, Any], run: Path) -> None:
    """A run trained by one version of a plugin is not resumed beside runs of another."""
    now = getattr(spec, "plugin_sha256", {}) or {}
    before = stored.get("plugins") or {}
    if not isinstance(before, dict):
        return
    for path, digest in before.items():
        if path in now and now[path] != digest:
            raise UsageError(
                f"{run} was trained with plugin {path} of sha256 {str(digest)[:12]}..., "
                f"which now hashes {now[path][:12]}...; restore it or use another --out"
            )


def write_manifest(
    exp: Experiment,
    specs: list[RunSpec],
    root: Path,
    groups: list[list[str]] | None = None,
    command: dict[str, Any] | None = None,
) -> None:
    """Write (or extend) sweep.json: the union of every run planned into ``root``, the
    groups trained so far (``groups``: run ids of each group, appended) and each distinct
    command that planned them (``command``, from :func:`sweep_command`, appended)."""
    path = root / MANIFEST
    old = read_manifest(root) or {}
    commands = list(old.get("commands", []))
    if command is not None and command not in commands:
        commands.append(command)
    axes = {k: list(v) for k, v in old.get("axes", {}).items()}
    for key, values in exp.axes.items():
        merged = axes.setdefault(key, [])
        merged.extend(v for v in values if v not in merged)
    run_ids = dict(old.get("run_ids", {}))
    run_ids.update({s.run_id: s.run for s in specs})
    manifest = {
        "experiment": exp.name,
        "description": exp.description,
        "defaults": exp.defaults,
        "runs": {**old.get("runs", {}), **exp.runs},
        "overrides": exp.overrides,
        "axes": axes,
        "base_configs": {**old.get("base_configs", {}), **base_configs(exp)},
        "run_ids": run_ids,
        "groups": recorded_groups(old) + [g for g in groups or [] if g not in recorded_groups(old)],
        "commands": commands,
        "updated": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    atomic_write_json(path, manifest)


def recorded_groups(manifest: dict[str, Any] | None) -> list[list[str]]:
    """The run ids of every group a sweep into this directory has planned.

    Runs trained as one stacked group agree with solo training only to the last bits,
    so a group interrupted between two of its result writes is trained again as the
    same group (see :func:`lejepa_id.sweeps.plan.resume_groups`).
    """
    return [list(g) for g in (manifest or {}).get("groups", [])]


def partition(specs: list[RunSpec], root: Path) -> tuple[list[RunSpec], list[RunSpec], list[str]]:
    """Split runs into (done, todo, notes): done runs have a valid result.json.

    Notes name runs retried after a crash (error.json) and result files found corrupt,
    which are retrained and replaced rather than counted.
    """
    done, todo, notes = [], [], []
    for spec in specs:
        run = root / spec.run_id
        stored, problem = check_result(run / RESULT)
        if stored is not None:
            done.append(spec)
            continue
        # A sweep killed mid-write leaves hidden temporary files; the rename never
        # happened, so they are garbage and the run is trained again.
        for stale in run.glob(".*.tmp"):
            stale.unlink(missing_ok=True)
        if (run / RESULT).exists():
            notes.append(f"{run / RESULT}: {problem}; retraining")
        elif (run / ERROR).exists():
            notes.append(f"{spec.run_id}: failed before ({run / ERROR}), retrying")
        todo.append(spec)
    return done, todo, notes


def write_error(spec: RunSpec, root: Path, message: str, trace: str = "") -> None:
    """Record a crashed run; the next sweep retries it."""
    atomic_write_json(
        root / spec.run_id / ERROR,
        {
            "experiment_kind": kind_of(spec).name,
            "run_id": spec.run_id,
            "run": spec.run,
            "status": "failed",
            "error": message,
            "traceback": trace,
            "config": spec.config.to_dict(),
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        },
    )


def clear_error(spec: RunSpec, root: Path) -> None:
    (root / spec.run_id / ERROR).unlink(missing_ok=True)


LOCK = ".sweep.lock"


@contextlib.contextmanager
def sweep_lock(root: Path, what: str = "sweep") -> Iterator[None]:
    """Refuse a second sweep (or ``what``: a second ``paper``) writing into ``root``
    while this one runs.

    The lock is an exclusive ``flock`` on ``root/.sweep.lock``, taken atomically: of two
    sweeps started together exactly one gets it. The kernel drops it when its holder
    exits, however it exits, so a killed sweep never blocks the resume. The file holds
    the holder's pid, for the message.
    """
    path = root / LOCK
    while True:
        fd = _open_lock(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise UsageError(
                f"another {what} (pid {owner}) is writing into {root}; wait for it or stop it"
            ) from None
        # A holder that finished between our open and our flock unlinked the file we
        # locked: lock the current file instead.
        if _same_file(fd, path):
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        path.unlink(missing_ok=True)
        os.close(fd)


def _open_lock(path: Path) -> int:
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as exc:
        raise UsageError(
            f"cannot open the sweep lock {str(path)!r} ({exc.strerror}); move it away"
        ) from None


def _same_file(fd: int, path: Path) -> bool:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino)
