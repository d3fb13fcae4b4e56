"""One check of a run record, the same when it is written and when it is read back.

A finished run is a *verified* run. :meth:`~lejepa_id.records.result.RunResult.save`
records in ``result.json``:

- ``files``: the sha256 of every file the run completed (``weights.safetensors``,
  ``scatter.safetensors``, a Reacher run's ``codes.safetensors``);
- ``metrics_schema``: each metric's kind as written, ``number``, ``nan`` (stored as
  null), ``inf``, ``-inf`` or ``array`` (nested lists of numbers, such as a Reacher run's
  ``code_cov_eval``).

:func:`record_problem` is what every reader asks (the sweep's resume, ``aggregate``,
``figures``, ``report``): it returns None for a sound record, or one line saying what is
wrong: a file missing, truncated or replaced (its hash differs), a metric that is not a
number or not of the kind it was written as (a hand-set NaN, string or null), a config
key of the wrong type (``dim='abc'``), an empty config. Resume retrains such a run; the
readers name it, leave it out and count it.

Legacy records (written before this check, without ``files`` and ``metrics_schema``)
are accepted when their metrics are numbers, null or ``"inf"``/``"-inf"`` and their
config is well typed: their files cannot be verified, only their presence.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lejepa_id.records.io import file_sha256

# Files a run may complete, in the order they are written (result.json comes last).
RUN_FILES = (
    "weights.safetensors",
    "scatter.safetensors",
    "codes.safetensors",
    "init_weights.safetensors",
)
STATUSES = ("finished", "diverged")
NON_FINITE = {"inf": "inf", "-inf": "-inf"}
# What every synthetic record's config has had since the first release; figures group
# and label runs by them, so a record without one could be neither drawn nor counted.
REQUIRED_CONFIG = ("mode", "mixing", "dim", "seed")
SYNTHETIC = "synthetic"

# experiment kind -> the check of its records' config (None: sound; else one line).
# The synthetic runs' check is built in (their RunConfig sits below the records); another
# kind adds its own when it is registered (lejepa_id.sweeps.kinds.register_kind).
_CONFIG_CHECKS: dict[str, Callable[[dict[str, Any]], str | None]] = {}


def register_config_check(kind: str, check: Callable[[dict[str, Any]], str | None]) -> None:
    """Check the config of every record of experiment kind ``kind`` with ``check``."""
    _CONFIG_CHECKS[kind] = check


def experiment_kind(data: dict[str, Any]) -> str:
    """The experiment kind a record was written by: its ``experiment_kind``; a record
    written before that key existed is a Reacher run's when it names its dataset's
    ``label`` and ``kind`` (only those carried them), else a synthetic run's."""
    kind = data.get("experiment_kind")
    if isinstance(kind, str):
        return kind
    legacy_reacher = isinstance(data.get("label"), str) and isinstance(data.get("kind"), str)
    return "reacher" if legacy_reacher else SYNTHETIC


def metric_kind(value: Any) -> str | None:
    """``number``, ``nan``, ``inf``, ``-inf`` or ``array`` for a metric value (as given in memory or
    as stored in JSON: NaN as null, infinities as strings); None for anything else."""
    if value is None:
        return "nan"
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return "number"
    if isinstance(value, str):
        return NON_FINITE.get(value)
    if isinstance(value, list) and value and all(metric_kind(v) for v in value):
        return "array"  # a Reacher run's code covariance: nested lists of numbers
    return None


def metrics_schema(metrics: dict[str, Any]) -> dict[str, str]:
    """What :meth:`RunResult.save` records of the metrics: each one's kind."""
    return {key: metric_kind(value) or "invalid" for key, value in metrics.items()}


def record_problem(data: Any, folder: Path | None = None, resume: bool = False) -> str | None:
    """None when ``data`` (a parsed result.json) is a sound record of a finished or
    diverged run; else one line naming what is wrong. ``folder`` holds the run's files,
    verified against the recorded hashes. ``resume``: the sweep asks whether the run is
    done, so a legacy record (no hashes) must at least have its weights."""
    if not isinstance(data, dict):
        return f"not a JSON object but a {type(data).__name__}"
    config = data.get("config")
    if not isinstance(config, dict) or not config:
        return "no config" if not config else "config is not a mapping"
    if data.get("status") not in STATUSES:
        return f"status {data.get('status')!r} is not one of {', '.join(STATUSES)}"
    problem = config_problem(config, data) or metrics_problem(data)
    if problem is None and folder is not None:
        problem = files_problem(data, folder, resume)
    return problem


def config_problem(config: dict[str, Any], data: dict[str, Any]) -> str | None:
    """The record's config checked by its experiment kind's check (a kind without one:
    only for being a non-empty mapping, done before)."""
    kind = experiment_kind(data)
    if kind == SYNTHETIC:
        return synthetic_config_problem(config)
    check = _CONFIG_CHECKS.get(kind)
    return None if check is None else check(config)


def synthetic_config_problem(config: dict[str, Any]) -> str | None:
    """A synthetic run's config keys must have the types RunConfig gives them."""
    from lejepa_id.config.run import check_value_types
    from lejepa_id.errors import UsageError

    for key in REQUIRED_CONFIG:
        if key not in config:
            return f"config lacks {key!r}"
    try:
        check_value_types(config)
    except UsageError as exc:
        return f"config {exc}"
    return None


def metrics_problem(data: dict[str, Any]) -> str | None:
    metrics = data.get("metrics")
    if not isinstance(metrics, dict):
        return "no metrics" if metrics is None else "metrics is not a mapping"
    if data.get("status") == "finished" and not metrics:
        return "a finished run without metrics"
    for key, value in metrics.items():
        if metric_kind(value) is None:
            return f"metric {key!r} is {value!r}, not a number"
    schema = data.get("metrics_schema")
    if schema is None:
        return None  # a legacy record
    if not isinstance(schema, dict):
        return "metrics_schema is not a mapping"
    if set(schema) != set(metrics):
        missing = sorted(set(schema) ^ set(metrics))
        return f"metrics do not match their schema (metric {missing[0]!r})"
    for key, value in metrics.items():
        if metric_kind(value) != schema[key]:
            return f"metric {key!r} is {value!r} but was written as {schema[key]}"
    return None


def files_problem(data: dict[str, Any], folder: Path, resume: bool = False) -> str | None:
    """Every file the record lists must be there with its recorded sha256; a legacy
    record (no ``files``) is taken as it is, except that resume needs its weights."""
    files = data.get("files")
    if files is None:
        if resume and not (folder / RUN_FILES[0]).is_file():
            return f"{RUN_FILES[0]} is missing"
        return None
    if not isinstance(files, dict):
        return "files is not a mapping"
    for name, digest in files.items():
        path = folder / str(name)
        if not path.is_file():
            return f"{name} is missing"
        try:
            actual = file_sha256(path)
        except OSError as exc:
            return f"{name} is unreadable ({exc.strerror})"
        if actual != digest:
            return f"{name} does not match its recorded sha256 (truncated or replaced)"
    return None
