"""One tidy table of a results directory: one row per run, config columns and final metrics.

The reader walks ``DIR/<experiment>/<run_id>/`` (or an experiment directory itself),
taking each ``result.json`` (finished or diverged runs) and each ``error.json`` (runs
that crashed, status ``failed``, no metrics). A Reacher grid is read when ``DIR`` is the
grid's own directory (``OUT/<name>/``, runs in ``<label>/lam<lam>_seed<seed>/``): its rows
have run ``<label>``, run id ``<label>/lam<lam>_seed<seed>``, the training settings and
the training dataset's ``kind``. A results root leaves ``reacher/`` out (the Reacher
commands' own outputs there are not synthetic runs). A result file that cannot be parsed,
or fails the record check of :mod:`lejepa_id.records.validate` (no or an empty config, a
config key of the wrong type, a metric that is not a number or not of the kind it was
written as, a file missing or not matching its recorded sha256), is listed in
:attr:`Table.skipped` with its reason in :attr:`Table.reasons`, and never counted.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from lejepa_id.analysis.convergence import end_loss, loss_plateau, mean_loss_plateau
from lejepa_id.config.experiments import AXES
from lejepa_id.config.run import run_keys
from lejepa_id.metrics.registry import metric_infos
from lejepa_id.records.io import atomic_write_group
from lejepa_id.records.layout import ensure_writable
from lejepa_id.records.validate import experiment_kind, record_problem

# Final metrics on the fixed 2D grid (N = 2 runs only; NaN for the others).

# Directories under a results root that hold other experiments' formats.
EXCLUDED_DIRS = ("reacher", "figures", ".submitit")
CONFIG_COLUMNS = list(run_keys())
LEADING = [
    "experiment",
    "experiment_kind",
    "run",
    "run_id",
    "status",
    "diverged_step",
    "mode",
    "mixing",
    "encoder",
    "law",
    "alpha",
    "dim",
    "rho",
    "lam",
    "sigma",
    "seed",
    "steps",
]


@dataclass
class Table:
    """Rows of runs plus the files that were skipped and the files written."""

    frame: pd.DataFrame
    skipped: list[Path] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    reasons: dict[Path, str] = field(default_factory=dict)
    """Why each skipped file was left out (one line each)."""

    def counts(self) -> str:
        if self.frame.empty:
            return "no runs"
        return ", ".join(f"{n} {s}" for s, n in self.frame["status"].value_counts().items())


def _run_files(root: Path) -> list[Path]:
    """result.json and error.json files of runs under ``root`` (at most two levels)."""
    files = []
    for name in ("result.json", "error.json"):
        for depth in ("*", "*/*"):
            for path in root.glob(f"{depth}/{name}"):
                rel = path.relative_to(root).parts
                if rel[0] in EXCLUDED_DIRS:
                    continue
                # A run's error.json is stale when its result.json exists.
                if name == "error.json" and (path.parent / "result.json").exists():
                    continue
                files.append(path)
    return sorted(set(files))


def _run_name(run_id: str, manifest: dict[str, Any]) -> str:
    """The run's name in its experiment: from sweep.json, else the id minus axis parts."""
    if run_id in manifest.get("run_ids", {}):
        return str(manifest["run_ids"][run_id])
    fields = "|".join(AXES.values())
    return re.sub(rf"(-({fields})-?[0-9][^-]*)+$", "", run_id)


def _manifest(directory: Path) -> dict[str, Any]:
    try:
        data = json.loads((directory / "sweep.json").read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _row(path: Path, manifests: dict[Path, dict[str, Any]]) -> dict[str, Any] | str:
    """One table row from a result or error file, or why it is not a valid record."""
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return (exc.strerror or str(exc)) if isinstance(exc, OSError) else "not valid JSON"
    if path.name == "error.json":
        if not isinstance(data, dict) or not isinstance(data.get("config"), dict):
            return "an error record without a config"
        if data.get("status") != "failed":
            return f"an error record with status {data.get('status')!r}"
    else:
        problem = record_problem(data, path.parent)
        if problem is not None:
            return problem
    status = data["status"]
    # A run whose id has two parts (a Reacher run's <label>/<run>: its record's name, an
    # error record's run id) lies one level deeper: <experiment>/<label>/<run>/. Records
    # written before names held the id say so by their dataset's label.
    run_name = data.get("run_id") or data.get("name")
    nested = "/" in str(run_name or "") or isinstance(data.get("label"), str)
    exp_dir = path.parents[2] if nested else path.parent.parent
    manifest = manifests.setdefault(exp_dir, _manifest(exp_dir))
    label = path.parent.parent.name
    run_id = f"{label}/{path.parent.name}" if nested else path.parent.name
    row: dict[str, Any] = {
        "experiment": manifest.get("experiment", exp_dir.name),
        "experiment_kind": experiment_kind(data),
        "run": label if nested else _run_name(run_id, manifest),
        "run_id": run_id,
        "status": status,
        "diverged_step": data.get("diverged_step"),
    }
    row.update({k: data["config"].get(k) for k in CONFIG_COLUMNS})
    # Keys of any other kind or component (a Reacher run's epochs and clip, a plugin's
    # own keys), and the training data's kind when the record names one.
    row.update(
        {k: v for k, v in data["config"].items() if k not in row and not isinstance(v, dict | list)}
    )
    if isinstance(data.get("kind"), str):
        row["kind"] = data["kind"]
    row.update(_rho_columns(row.get("rho")))
    for key, value in (data.get("metrics") or {}).items():
        row[key] = _number(value)
    for key, value in (data.get("losses") or {}).items():
        row[f"final_{key}"] = _number(value)
    # The objective's own plateau over the last half of training (analysis.convergence).
    row["loss_plateau"] = loss_plateau(data.get("curves"))
    row["loss_plateau_mean"] = mean_loss_plateau(data.get("curves"))
    # Where the run ends, to compare with the same run trained twice as long.
    row["loss_end"] = end_loss(data.get("curves"))
    for key in ("wall_time_s", "steps_per_s", "selected_init", "kept_seed", "device"):
        row[key] = data.get(key)
    row.update(_init_columns(data.get("init_final_metrics")))
    row["error"] = data.get("error") if status == "failed" else None
    row["path"] = str(path.parent)
    return row


INIT_COLUMNS = ("r2_hz", "orth_err", "loss_last100")
"""Per-initialization values a best-of-K run's row carries, as ``init<k>_<key>``."""
MAX_INIT_COLUMNS = 32
"""Rows carry the first this many initializations (the paper trains 3); the rest stay in
the run's result.json, so a table of a huge K does not grow thousands of columns."""


def _init_columns(per_init: Any) -> dict[str, Any]:
    """``inits_trained`` and ``init<k>_r2_hz`` etc. from a record's ``init_final_metrics``
    (records written before it have neither)."""
    if not isinstance(per_init, list) or not per_init:
        return {}
    out: dict[str, Any] = {"inits_trained": len(per_init)}
    for k, values in enumerate(per_init[:MAX_INIT_COLUMNS]):
        values = values if isinstance(values, dict) else {}
        out.update({f"init{k}_{key}": _number(values.get(key)) for key in INIT_COLUMNS})
    return out


def _rho_columns(rho: Any) -> dict[str, Any]:
    """A per-coordinate rho list as table columns: ``rho`` (the common value, NaN when
    they differ), ``rho_first`` and ``rho_rest`` (the first and the others' common value,
    the axes of a rho_grid sweep) and ``rho_list`` (the list as text)."""
    if not isinstance(rho, list):
        return {"rho_first": rho, "rho_rest": rho, "rho_list": None}
    values = [float(v) for v in rho]
    rest = values[1:] or values
    return {
        "rho": values[0] if len(set(values)) == 1 else float("nan"),
        "rho_first": values[0],
        "rho_rest": rest[0] if len(set(rest)) == 1 else float("nan"),
        "rho_list": "x".join(f"{v:g}" for v in values),
    }


def _number(value: Any) -> float:
    # atomic_write_json stores NaN as null and infinities as strings.
    if value is None:
        return float("nan")
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def of_kind(frame: pd.DataFrame, kind: str) -> pd.DataFrame:
    """The rows of runs of one experiment kind (records without ``experiment_kind`` were
    given theirs when read: see :func:`lejepa_id.records.validate.experiment_kind`)."""
    if frame.empty or "experiment_kind" not in frame.columns:
        return frame
    return frame[frame["experiment_kind"] == kind]


def collect(directory: str | Path) -> Table:
    """Read every run under ``directory`` into a Table (corrupt files are skipped)."""
    root = Path(directory)
    rows, skipped = [], []
    manifests: dict[Path, dict[str, Any]] = {}
    reasons: dict[Path, str] = {}
    for path in _run_files(root):
        row = _row(path, manifests)
        if isinstance(row, str):
            skipped.append(path)
            reasons[path] = row
        else:
            rows.append(row)
    frame = pd.DataFrame(rows)
    if frame.empty:
        # No runs is still a table: the leading columns and every metric's, so runs.csv
        # reads back in pandas as an empty frame (a header-less file would not parse).
        frame = pd.DataFrame(columns=[*LEADING, *metric_infos()])
    else:
        # Results written before a metric existed lack its column: present it as NaN
        # ("not measured") rather than failing every figure that reads it.
        for name in metric_infos():
            if name not in frame.columns:
                frame[name] = np.nan
        lead = [c for c in LEADING if c in frame.columns]
        frame = frame[lead + [c for c in frame.columns if c not in lead]]
        frame = frame.sort_values(["experiment", "run_id"], kind="stable").reset_index(drop=True)
    return Table(frame, skipped, reasons=reasons)


def write_table(directory: str | Path, out: str | Path | None = None) -> Table:
    """Collect ``directory`` and write runs.csv and runs.parquet into ``out`` (or it)."""
    table = collect(directory)
    out_dir = ensure_writable(Path(out) if out is not None else Path(directory))
    csv_path, parquet_path = out_dir / "runs.csv", out_dir / "runs.parquet"
    # Parquet needs one type per column; mixed object columns are stored as strings.
    frame = table.frame.copy()
    for col in frame.columns:
        if frame[col].dtype == object:
            frame[col] = frame[col].map(lambda v: None if v is None else str(v))
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    # Both files are built in memory and replaced together: a kill or a full disk
    # leaves the old pair or the new one, never a CSV that disagrees with the Parquet.
    csv = table.frame.to_csv(index=False).encode()
    atomic_write_group({csv_path: csv, parquet_path: buffer.getvalue()})
    table.written = [csv_path, parquet_path]
    return table
