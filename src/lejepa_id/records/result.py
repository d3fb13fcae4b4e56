"""A run's record: what one training run produced, and how it is saved.

``OUT/<experiment>/<run_id>/`` holds ``weights.safetensors`` (and, for runs that save
one, ``scatter.safetensors``) and, written last and atomically, :data:`RESULT_FILE`:
its presence marks a finished run, and the sha256 of each file and the metrics' schema
it records make that run verifiable (:mod:`lejepa_id.records.validate`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from lejepa_id.records.io import atomic_write_json, file_sha256, jsonable, save_tensors
from lejepa_id.records.validate import RUN_FILES, metrics_schema
from lejepa_id.training.runtime import software_versions

RESULT_FILE = "result.json"


@dataclass
class RunResult:
    """What a run produced: config, final metrics and losses, curves and weights.

    One record for every kind of run: a synthetic run's ``config`` is a
    :class:`~lejepa_id.config.run.RunConfig`, a Reacher run's a
    :class:`~lejepa_id.reacher.training.TrainConfig` (anything with ``to_dict()`` and
    ``seed``). ``curves`` holds column lists of equal length (one entry per evaluation
    of a synthetic run, per epoch of a Reacher run).
    """

    config: Any
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
    device: str = "cpu"
    versions: dict[str, str] = field(default_factory=software_versions)
    weights: dict[str, torch.Tensor] = field(default_factory=dict, repr=False)
    scatter: dict[str, torch.Tensor] | None = field(default=None, repr=False)
    name: str = ""
    mixing: str = ""
    """The mixing actually used: a named one, or ``custom:<name>`` for a user's callable."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Keys of one kind of run only, written at the top level of the result file (a
    Reacher run: its ``data``, ``kind``, ``label``, ``steps`` and ``device_name``)."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"config": self.config.to_dict()}
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
        # A Reacher run writes its codes while it evaluates, just before this record.
        codes = directory / RUN_FILES[2]
        if self.metrics and codes.is_file():
            files[RUN_FILES[2]] = file_sha256(codes)
        record = self.to_dict()
        record["files"] = files
        record["metrics_schema"] = metrics_schema(jsonable(record["metrics"]))
        atomic_write_json(directory / RESULT_FILE, record)
        return directory / RESULT_FILE
