"""The Reacher lambda x seed grid as an experiment config for ``lejepa-id sweep``.

A YAML file with ``kind: reacher`` names the eval gallery, one run per training dataset
(its label and ``data`` path), the training defaults (the keys of
:class:`~lejepa_id.reacher.training.TrainConfig`) and the axes ``lambs`` and ``seeds``::

    name: reacher
    kind: reacher
    eval: data/reacher/eval
    defaults: {epochs: 100, batch: 256}
    runs:
      ou: {data: data/reacher/ou}
      traj: {data: data/reacher/traj}
    lambs: [0.001, 0.01]
    seeds: [0, 1, 2]

``lejepa-id sweep`` then trains every (dataset, lambda, seed) into
``OUT/<name>/<label>/lam<lam>_seed<seed>/`` (so ``reacher plan --runs OUT/<name>`` reads
them), resumably and on any executor (local pool or SLURM), one run per group.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from lejepa_id.config.experiments import parse_set, read_tree
from lejepa_id.config.limits import check_name
from lejepa_id.errors import UsageError
from lejepa_id.reacher.grid import run_dir_name, write_baseline
from lejepa_id.reacher.training import TRAIN_TYPES, TrainConfig, train_run
from lejepa_id.records.layout import run_dir
from lejepa_id.records.result import RunResult

KIND = "reacher"
AXES = {"lambs": "lam", "seeds": "seed"}
TOP_KEYS = ("name", "kind", "description", "eval", "defaults", "runs", *AXES)
TRAIN_KEYS = tuple(f.name for f in fields(TrainConfig))


@dataclass(frozen=True)
class ReacherRunConfig:
    """One run: its training settings and datasets. ``steps`` counts epochs (progress
    is reported once per epoch)."""

    train: TrainConfig
    data: str
    eval: str
    effective_inits = 1

    def to_dict(self) -> dict[str, Any]:
        return {**self.train.to_dict(), "data": self.data, "eval": self.eval}

    @property
    def device(self) -> str:
        return self.train.device

    @property
    def steps(self) -> int:
        return self.train.epochs

    @property
    def cost(self) -> float:
        """Relative wall time against the synthetic runs' ``spec_cost`` (rough)."""
        return 1e3 * self.train.epochs


@dataclass
class ReacherSpec:
    """One expanded run; its id ``<label>/lam<lam>_seed<seed>`` is its directory."""

    experiment: str
    run: str
    axes: dict[str, Any]
    config: ReacherRunConfig

    @property
    def run_id(self) -> str:
        return f"{self.run}/{run_dir_name(self.config.train.lam, self.config.train.seed)}"

    @staticmethod
    def train_and_save(
        specs: Sequence[ReacherSpec],
        out: str | Path,
        progress: bool = True,
        on_eval: Callable[[int, list[dict[str, float]]], None] | None = None,
        keep: Collection[str] = (),
    ) -> list[RunResult | None]:
        """Train each run alone (the sweep executors' entry point); also writes its
        dataset's pixel baseline once."""
        from lejepa_id.reacher.datasets import load_dataset

        on_epoch = None if on_eval is None else (lambda epoch: on_eval(epoch, []))
        results = []
        for spec in specs:
            if spec.run_id in keep:  # never the case for groups of one; kept for the API
                results.append(None)
                continue
            c = spec.config
            data = _load(c.data, "pairs", load_dataset)
            gallery = _load(c.eval, "eval", load_dataset)
            label_dir = run_dir(out, spec.experiment, spec.run)
            write_baseline(label_dir / "baseline.json", data, gallery, c.train.fit_n)
            run = run_dir(out, spec.experiment, spec.run_id)
            results.append(train_run(data, gallery, c.train, run, progress, on_epoch))
        return results


@functools.lru_cache(maxsize=2)
def _cached(path: str, kind: str, loader: Callable) -> Any:
    return loader(path, expect_kind=kind)


def _load(path: str, kind: str, loader: Callable) -> Any:
    # A worker trains the runs of one dataset after another: read its frames once.
    return _cached(str(Path(path).resolve()), kind, loader)


@dataclass
class ReacherExperiment:
    """The grid: datasets (runs) x lambdas x seeds, with shared training defaults."""

    name: str
    runs: dict[str, dict[str, Any]]
    eval: str
    defaults: dict[str, Any] = field(default_factory=dict)
    axes: dict[str, list[Any]] = field(default_factory=dict)
    overrides: dict[str, Any] = field(default_factory=dict)
    description: str = ""

    def run_config(self, run: str, **axis_values: Any) -> ReacherRunConfig:
        """Defaults, then the run's keys, then axis values, then --set; validated."""
        merged = {**self.defaults, **self.runs[run], **axis_values, **self.overrides}
        data = merged.pop("data", None)
        if not isinstance(data, str):
            raise UsageError(f"runs.{run}.data must be the path of a training dataset")
        unknown = sorted(set(merged) - set(TRAIN_KEYS))
        if unknown:
            raise UsageError(
                f"runs.{run}: unknown key {unknown[0]!r}; allowed: data, {', '.join(TRAIN_KEYS)}"
            )
        for key, value in merged.items():
            # YAML 1.1 reads 1e-3 (no dot) as a string: accept any numeric spelling.
            if TRAIN_TYPES[key] is float and isinstance(value, str):
                with contextlib.suppress(ValueError):
                    merged[key] = float(value)
        train = TrainConfig(**merged)
        train.validate()
        return ReacherRunConfig(train, data, self.eval)

    def expand(self) -> list[ReacherSpec]:
        keys = [k for k in AXES if k in self.axes]
        for key in keys:
            if not self.axes[key]:
                raise UsageError(f"sweep axis {key} is empty")
        specs = []
        for run in self.runs:
            for combo in itertools.product(*(self.axes[k] for k in keys)):
                values = dict(zip(keys, combo))
                fields_ = {AXES[k]: v for k, v in values.items()}
                specs.append(ReacherSpec(self.name, run, values, self.run_config(run, **fields_)))
        # Validated values name the directories, so 0.01 and 1e-2 are one run.
        seen: set[str] = set()
        for spec in specs:
            if spec.run_id in seen:
                raise UsageError(
                    f"sweep axes {', '.join(keys)} must list each value once: "
                    f"{spec.run_id} comes twice"
                )
            seen.add(spec.run_id)
        return specs


def is_reacher_config(path: str | Path) -> bool:
    """Whether an experiment YAML declares ``kind: reacher`` (False when unreadable:
    the synthetic loader then reports the problem)."""
    try:
        tree = yaml.safe_load(Path(path).read_text())
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return False
    return isinstance(tree, dict) and tree.get("kind") == KIND


def load_reacher_experiment(path: str | Path, sets: list[str] | None = None) -> ReacherExperiment:
    """Read, override (``--set key=value``) and validate a Reacher grid config."""
    path = Path(path)
    tree = read_tree(path)
    overrides: dict[str, Any] = {}
    for key, value in parse_set(sets or []).items():
        _apply_set(tree, overrides, key, value)
    unknown = sorted(set(tree) - set(TOP_KEYS))
    if unknown:
        raise UsageError(f"unknown key {unknown[0]!r} in {path.name}; allowed: {TOP_KEYS}")
    runs, gallery = tree.get("runs"), tree.get("eval")
    if not isinstance(runs, dict) or not runs:
        raise UsageError(f"{path.name}: 'runs' must map dataset labels to {{data: PATH}}")
    for label, keys in runs.items():
        if not isinstance(keys, dict):
            raise UsageError(f"runs.{label} must be a mapping like {{data: PATH}}, got {keys!r}")
    if not isinstance(tree.get("defaults") or {}, dict):
        raise UsageError(f"{path.name}: 'defaults' must be a mapping of training settings")
    if not isinstance(gallery, str):
        raise UsageError(f"{path.name}: 'eval' must be the path of the eval dataset")
    exp = ReacherExperiment(
        name=check_name("experiment name", str(tree.get("name", path.stem))),
        runs={check_name("label", str(k)): dict(v) for k, v in runs.items()},
        eval=gallery,
        defaults=dict(tree.get("defaults") or {}),
        axes={k: tree[k] if isinstance(tree[k], list) else [tree[k]] for k in AXES if k in tree},
        overrides=overrides,
        description=str(tree.get("description", "")),
    )
    _check_datasets(exp)
    exp.expand()  # every run's settings are checked before anything is written
    return exp


def _apply_set(tree: dict, overrides: dict, key: str, value: Any) -> None:
    if key in TRAIN_KEYS:
        overrides[key] = value
    elif key == "runs" and isinstance(value, list):
        known = tree.get("runs") or {}
        missing = [v for v in value if v not in known]
        if missing:
            raise UsageError(f"--set runs: {missing[0]!r} is not one of {', '.join(known)}")
        tree["runs"] = {v: known[v] for v in value}
    elif key in TOP_KEYS:
        tree[key] = value
    else:
        raise UsageError(f"unknown key {key!r}; allowed: {', '.join((*TOP_KEYS, *TRAIN_KEYS))}")


def _check_datasets(exp: ReacherExperiment) -> None:
    """Complete datasets of the right kinds and one image size (frames are not read)."""
    from lejepa_id.reacher.datasets import load_angles

    _, gallery = load_angles(exp.eval)
    if gallery["identity"]["kind"] != "eval":
        raise UsageError(f"eval: {exp.eval} is a {gallery['identity']['kind']} dataset")
    for run in exp.runs:
        path = exp.run_config(run).data
        _, meta = load_angles(path)
        kind, size = meta["identity"]["kind"], meta["identity"]["size"]
        if kind == "eval":
            raise UsageError(f"runs.{run}.data: {path} is an eval dataset, not pairs")
        if size != gallery["identity"]["size"]:
            raise UsageError(
                f"runs.{run}.data: image sizes differ ({size} vs the eval set's "
                f"{gallery['identity']['size']}); render both with the same --size"
            )
