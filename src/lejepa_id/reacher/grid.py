"""The Reacher grid: every (training dataset, lambda, seed), one directory per run.

Each run goes to ``OUT/<label>/lam<lam>_seed<seed>/`` (built by
:func:`lejepa_id.records.layout.run_dir`); a finished run (its result file exists and its stored
settings match) is skipped, so an interrupted sweep resumes. A diverged run is a finished
run too: it is recorded, not retrained.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np

from lejepa_id.config.experiments import fmt_value
from lejepa_id.config.limits import check_name
from lejepa_id.errors import UsageError
from lejepa_id.reacher.datasets import FrameData, check_same_size
from lejepa_id.reacher.evaluation import pixel_baseline
from lejepa_id.reacher.training import TrainConfig, fit_indices, train_run
from lejepa_id.records.io import atomic_write_json, read_json
from lejepa_id.records.layout import run_dir
from lejepa_id.records.result import RESULT_FILE
from lejepa_id.records.validate import record_problem


def run_dir_name(lam: float, seed: int) -> str:
    """Directory of one run inside its dataset's label directory (distinct values give
    distinct names: ``lam0.001_seed0``, ``lam0.0010000001_seed0``)."""
    return f"lam{fmt_value(float(lam))}_seed{seed}"


def stored_mismatch(run: Path, cfg: TrainConfig, data: FrameData, gallery: FrameData) -> str | None:
    """Why the finished run in ``run`` is not this run (None: it is, skip it).

    Like the synthetic sweep: a run is reused only when its stored config (every key but
    the device) and the identities of its training and evaluation datasets match.
    Raises UsageError on a mismatch; returns "retrain" for an unreadable result.
    """
    try:
        stored = read_json(run / RESULT_FILE)
    except (OSError, ValueError):
        return "retrain"
    old_cfg = stored.get("config") if isinstance(stored, dict) else None
    old_data = stored.get("data") if isinstance(stored, dict) else None
    if not isinstance(old_cfg, dict) or not isinstance(old_data, dict):
        return "retrain"
    want = {k: v for k, v in cfg.to_dict().items() if k != "device" and k in old_cfg}
    for key, value in want.items():
        if old_cfg[key] != value:
            raise UsageError(
                f"{run} was trained with {key}={old_cfg.get(key)!r} but this run has "
                f"{key}={value!r}; use another --out or the same settings"
            )
    for key, ds in (("train_identity", data), ("eval_identity", gallery)):
        if old_data.get(key) != ds.meta["identity"]:
            raise UsageError(
                f"{run} was trained on another dataset ({key} {old_data.get(key)}); "
                "use another --out or the same --data/--eval"
            )
    # A finished run is a verified run: truncated codes or weights, or edited metrics,
    # mean it is trained again (records/validate.py).
    if record_problem(stored, run, resume=True) is not None:
        return "retrain"
    return None


def check_sweep_values(
    base: TrainConfig, lams: list, seeds: list, labels: list[str] | None, n_datasets: int
) -> None:
    """Refuse a bad lambda, seed or label (they become directory names) up front."""
    for lam in lams:
        TrainConfig(**{**asdict(base), "lam": lam}).validate()
    for seed in seeds:
        TrainConfig(**{**asdict(base), "seed": seed}).validate()
    for key, values in (("--lams", [float(v) for v in lams]), ("--seeds", list(seeds))):
        if not values or len(set(values)) != len(values):
            raise UsageError(f"{key} {values} must be non-empty and list each value once")
    if labels is not None:
        if len(labels) != n_datasets or len(set(labels)) != len(labels):
            raise UsageError(f"need one distinct label per dataset, got {labels}")
        for label in labels:
            check_name("label", label)


def sweep(
    datasets: list[FrameData],
    gallery: FrameData,
    base: TrainConfig,
    lams: list[float],
    seeds: list[int],
    out: str | Path,
    labels: list[str] | None = None,
    progress: bool = True,
) -> list[Path]:
    """Train every (dataset, lambda, seed); finished runs are skipped. Returns run dirs.

    Each dataset's runs go to out/<label>/lam<lam>_seed<seed>/, the label defaulting to
    the dataset directory's name. The pixel baseline R^2(pixels -> z) of each dataset is
    written once to out/<label>/baseline.json. Everything is checked before anything is
    written: the settings of every run, and that each finished run matches its settings.
    """
    base.validate()
    for data in datasets:
        check_same_size(data, gallery)
    labels = labels or [d.path.name for d in datasets]
    check_sweep_values(base, lams, seeds, labels, len(datasets))
    out = Path(out)
    plan = []
    for data, label in zip(datasets, labels):
        for lam in lams:
            for seed in seeds:
                cfg = TrainConfig(**{**asdict(base), "lam": lam, "seed": seed})
                cfg.validate()
                run = run_dir(out, label, run_dir_name(lam, seed))
                todo = not (run / RESULT_FILE).exists() or stored_mismatch(run, cfg, data, gallery)
                plan.append((data, label, cfg, run, bool(todo)))
    done: list[Path] = []
    for data, label in zip(datasets, labels):
        write_baseline(out / label / "baseline.json", data, gallery, base.fit_n)
    for data, _label, cfg, run, todo in plan:
        if todo:
            train_run(data, gallery, cfg, run, progress)
        done.append(run)
    return done


def write_baseline(path: Path, data: FrameData, gallery: FrameData, fit_n: int) -> None:
    """The pixel baseline R^2(pixels -> z) of one training dataset, computed once."""
    if path.exists():
        return
    idx = fit_indices(data.frames.shape[0], fit_n)
    x_fit = data.frames[idx, 0].reshape(len(idx), -1).astype(np.float32) / 255.0
    x_eval = gallery.frames[:, 0].reshape(len(gallery.frames), -1)
    r2_px = pixel_baseline(
        x_fit, data.angles[idx, 0], x_eval.astype(np.float32) / 255.0, gallery.angles[:, 0]
    )
    atomic_write_json(path, {"r2_pixels_pca64_hz": r2_px, "kind": data.kind})
