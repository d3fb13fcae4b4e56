"""A run's record: what one training run produced, and how it is saved.

``OUT/<experiment>/<run_id>/`` holds ``weights.safetensors`` (and, for runs that save
one, ``scatter.safetensors``) and, written last and atomically, :data:`RESULT_FILE`:
its presence marks a finished run, and the sha256 of each file and the metrics' schema
it records make that run verifiable (:mod:`lejepa_id.records.validate`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from lejepa_id.records.io import atomic_write_json, file_sha256, jsonable, save_tensors
from lejepa_id.records.validate import RUN_FILES, metrics_schema
from lejepa_id.runtime import software_versions

RESULT_FILE = "result.json"


INIT_METRICS = ("r2_hz", "r2_zh", "orth_err", "mcc")
"""The metrics kept for every initialization of a best-of-K run (with its loss terms)."""


@dataclass
class RunResult:
    """What a run produced: config, final metrics and losses, curves and weights.

    One record for every kind of run: a synthetic run's ``config`` is a
    :class:`~lejepa_id.config.run.RunConfig`, a Reacher run's a
    :class:`~lejepa_id.reacher.training.TrainConfig` (anything with ``to_dict()`` and
    ``seed``).

    ``curves`` is one table in columns: every key has one entry per evaluation of a
    synthetic run (per epoch of a Reacher run), so ``pd.DataFrame(result.curves)``
    works. A metric not computed at an evaluation is NaN there (``null`` in
    result.json): the final-only metrics (``mcc``, the 2D ``grid_*`` scores, the
    action scores) have a value in the last row only; their final values are also in
    ``metrics``. Result files written before this rule (short final-only columns) are
    read back aligned by :func:`aligned_curves`.
    """

    config: Any
    experiment_kind: str = "synthetic"
    """The experiment kind that trained the run (:mod:`lejepa_id.sweeps.kinds`): readers
    such as the record check and the tables know a run's kind by this key."""
    status: str = "finished"
    diverged_step: int | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    losses: dict[str, float] = field(default_factory=dict)
    curves: dict[str, list[float]] = field(default_factory=dict)
    wall_time_s: float = 0.0
    steps_per_s: float = 0.0
    threads: int = 0
    selected_init: int = 0
    init_final_losses: list[float] = field(default_factory=list)
    init_final_metrics: list[dict[str, float]] = field(default_factory=list)
    """Each initialization's final identification metrics (``INIT_METRICS``) and loss, in
    init order: best of K keeps one encoder, but how often a single initialization stalls
    is a result of its own (docs/stall.md)."""
    device: str = "cpu"
    versions: dict[str, str] = field(default_factory=software_versions)
    weights: dict[str, torch.Tensor] = field(default_factory=dict, repr=False)
    init_weights: dict[str, torch.Tensor] = field(default_factory=dict, repr=False)
    """Every initialization's weights as ``init<k>.<name>`` when more than one was trained
    (``init_weights.safetensors``): a stalled start can be studied beside the kept one."""
    scatter: dict[str, torch.Tensor] | None = field(default=None, repr=False)
    name: str = ""
    mixing: str = ""
    """The mixing actually used: a named one, or ``custom:<name>`` for a user's callable."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Keys of one kind of run only, written at the top level of the result file (a
    Reacher run: its ``data``, ``kind``, ``label``, ``steps`` and ``device_name``)."""

    def curves_frame(self) -> Any:
        """``curves`` as a pandas DataFrame, one row per evaluation."""
        return curves_frame(self.curves)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "experiment_kind": self.experiment_kind,
            "config": self.config.to_dict(),
        }
        if self.mixing:
            out["config"]["mixing"] = self.mixing
        for key in (
            "status",
            "diverged_step",
            "metrics",
            "losses",
            "curves",
            "wall_time_s",
            "steps_per_s",
            "threads",
            "selected_init",
            "init_final_losses",
            "init_final_metrics",
            "device",
            "versions",
            "name",
        ):
            out[key] = getattr(self, key)
        out["seed"] = self.config.seed
        out.update(self.extra)
        return out

    def save(self, directory: str | Path) -> Path:
        """Write weights (and scatter) first, the result file last: its presence marks a
        finished run. Each file is written atomically."""
        directory = Path(directory)
        files = {RUN_FILES[0]: save_tensors(directory / RUN_FILES[0], self.weights)}
        if self.scatter is not None:
            files[RUN_FILES[1]] = save_tensors(directory / RUN_FILES[1], self.scatter)
        if self.init_weights:
            files[RUN_FILES[3]] = save_tensors(directory / RUN_FILES[3], self.init_weights)
        # A Reacher run writes its codes while it evaluates, just before this record.
        codes = directory / RUN_FILES[2]
        if self.metrics and codes.is_file():
            files[RUN_FILES[2]] = file_sha256(codes)
        record = self.to_dict()
        record["files"] = files
        record["metrics_schema"] = metrics_schema(jsonable(record["metrics"]))
        atomic_write_json(directory / RESULT_FILE, record)
        return directory / RESULT_FILE


def append_curve_row(curves: dict[str, list[float]], row: Mapping[str, float]) -> None:
    """Append one evaluation to ``curves`` in place, keeping every column one entry per
    row: a key first seen now gets NaN for the earlier rows, a known key missing from
    ``row`` gets NaN in this one. (:data:`math.nan` itself, one object, so that two
    identical runs' curves still compare equal with ``==``.)"""
    n = len(next(iter(curves.values()), []))
    for key in [*curves, *(k for k in row if k not in curves)]:
        curves.setdefault(key, [math.nan] * n).append(row.get(key, math.nan))


def aligned_curves(curves: Mapping[str, list[Any]]) -> dict[str, list[float]]:
    """Curves read from a result file as columns of equal length, NaN for ``null``.

    Files written before curves were padded hold the final-only metrics as short
    columns (one entry, at the last evaluation): they are aligned to the end, which
    is where their values were computed.
    """
    n = max((len(v) for v in curves.values()), default=0)
    out: dict[str, list[float]] = {}
    for key, values in curves.items():
        col = [_number(v) for v in values]
        out[key] = [math.nan] * (n - len(col)) + col
    return out


def _number(value: Any) -> float:
    # atomic_write_json stores NaN as null and infinities as "inf" / "-inf"; steps and
    # epochs stay integers.
    if value is None:
        return math.nan
    return value if isinstance(value, int | float) else float(value)


def curves_frame(curves: Mapping[str, list[Any]]) -> Any:
    """A run's curves (a RunResult's, or a result file's ``curves``) as a DataFrame."""
    import pandas as pd

    return pd.DataFrame(aligned_curves(curves))
