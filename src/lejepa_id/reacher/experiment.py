"""The Reacher lambda x seed grid as an experiment config for ``lejepa-id sweep``.

A YAML file with ``kind: reacher`` names the eval gallery, one run per training dataset
(its label and ``data`` path), the training defaults (the keys of
:class:`~lejepa_id.reacher.training.TrainConfig`) and the axes ``lambs`` and ``seeds``:

```yaml
name: reacher
kind: reacher
eval: data/reacher/eval
defaults: {epochs: 100, batch: 256}
runs:
  ou: {data: data/reacher/ou}
  traj: {data: data/reacher/traj}
lambs: [0.001, 0.01]
seeds: [0, 1, 2]
```

``lejepa-id sweep`` then trains every (dataset, lambda, seed) into
``OUT/<name>/<label>/lam<lam>_seed<seed>/`` (so ``reacher plan --runs OUT/<name>`` reads
them), resumably and on any executor (local pool or SLURM), one run per group.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from lejepa_id.config.experiments import fmt_value, parse_set, read_tree
from lejepa_id.config.limits import check_name
from lejepa_id.errors import UsageError
from lejepa_id.reacher.datasets import FrameData
from lejepa_id.reacher.evaluation import pixel_baseline
from lejepa_id.reacher.training import EXPERIMENT_KIND, TrainConfig, fit_indices, train_run
from lejepa_id.records.io import atomic_write_json
from lejepa_id.records.result import RunResult

KIND_NAME = EXPERIMENT_KIND
AXES = {"lambs": "lam", "seeds": "seed"}
SWEEP_KEYS = ("rhos", "deltas", "traj_kinds")
TRAJ_KINDS = ("traj", "trajmatch")
SEED_FIELD = "{seed}"
TOP_KEYS = ("name", "kind", "description", "eval", "defaults", "runs", *AXES)
TRAIN_KEYS = tuple(f.name for f in fields(TrainConfig))


@dataclass(frozen=True)
class ReacherRunConfig:
    """One run: its training settings and datasets."""

    train: TrainConfig
    data: str
    eval: str
    per_seed: bool = False
    """``data`` came from a path with ``{seed}``: each seed has its own dataset."""

    def to_dict(self) -> dict[str, Any]:
        return {**self.train.to_dict(), "data": self.data, "eval": self.eval}

    @property
    def device(self) -> str:
        return self.train.device


@dataclass
class ReacherSpec:
    """One expanded run; its id ``<label>/lam<lam>_seed<seed>`` is its directory."""

    experiment: str
    run: str
    axes: dict[str, Any]
    config: ReacherRunConfig
    plugins: tuple[str, ...] = ()
    kind = KIND_NAME

    @property
    def run_id(self) -> str:
        return f"{self.run}/{run_dir_name(self.config.train.lam, self.config.train.seed)}"


class ReacherKind:
    """The Reacher grid as an experiment kind of the sweeps (:mod:`lejepa_id.sweeps.kinds`):
    each run trained alone, its progress counted in epochs, a stored result reused only
    when it was trained on the same datasets."""

    name = KIND_NAME
    progress_unit = "epochs"
    stacks = False
    feeds_loggers = False

    def load(
        self, path: str | Path, sets: list[str] | None, only: str | None = None
    ) -> ReacherExperiment:
        return load_reacher_experiment(path, sets, only)

    def stack_key(self, spec: ReacherSpec) -> tuple:
        return ("alone", spec.run_id)

    def members(self, spec: ReacherSpec) -> int:
        return 1

    def member_cap(
        self, spec: ReacherSpec, device_type: str, jobs: int, device_memory: int | None
    ) -> int:
        return 1

    def config_problem(self, config: dict[str, Any]) -> str | None:
        """A Reacher record's config names its grid point (lam, seed); its other keys have
        changed over versions, and old records must still read."""
        missing = [k for k in AXES.values() if k not in config]
        return f"config lacks {missing[0]!r}" if missing else None

    def cost(self, spec: ReacherSpec) -> float:
        # Relative to the synthetic runs' cost: an epoch of 100,000 pixel pairs weighs about
        # as much as a thousand synthetic steps.
        return 1e3 * spec.config.train.epochs

    def progress_total(self, spec: ReacherSpec) -> int:
        return spec.config.train.epochs

    def check_stored(self, spec: ReacherSpec, stored: dict[str, Any], path: Path) -> None:
        from lejepa_id.reacher.datasets import load_angles

        old = stored.get("data")
        if not isinstance(old, dict):
            return
        for key, dataset in (
            ("train_identity", spec.config.data),
            ("eval_identity", spec.config.eval),
        ):
            _, meta = load_angles(dataset)
            if old.get(key) != meta["identity"]:
                raise UsageError(
                    f"{path} was trained on another dataset ({key} {old.get(key)}); "
                    "use another --out or the same datasets"
                )

    def train_and_save(
        self,
        specs: Sequence[ReacherSpec],
        root: Path,
        progress: bool = True,
        on_eval: Callable[[int, list[dict[str, float]]], None] | None = None,
        keep: Collection[str] = (),
        loggers: Sequence[str] = (),
    ) -> list[RunResult | None]:
        """Train each run alone (the sweep executors' entry point); also writes its
        dataset's pixel baseline once."""
        from lejepa_id.reacher.datasets import load_dataset

        on_epoch = None if on_eval is None else (lambda epoch: on_eval(epoch, []))
        results: list[RunResult | None] = []
        for spec in specs:
            if spec.run_id in keep:  # never the case for groups of one; kept for the API
                results.append(None)
                continue
            c = spec.config
            data = _load(c.data, "pairs", load_dataset)
            gallery = _load(c.eval, "eval", load_dataset)
            # One pixel baseline per dataset, beside the runs trained on it.
            name = f"baseline_seed{c.train.seed}.json" if c.per_seed else "baseline.json"
            write_baseline(Path(root) / spec.run / name, data, gallery, c.train.fit_n)
            run = Path(root) / spec.run_id
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

    def data_path(self, run: str, seed: int | None = None) -> str:
        """The training dataset of a run (its ``data``, which --set may override). A
        ``{seed}`` in it names one dataset per seed (rendered with that seed), so that
        replicates differ in their data too; it is filled in when ``seed`` is given."""
        data = {**self.defaults, **self.runs[run], **self.overrides}.get("data")
        if not isinstance(data, str):
            raise UsageError(f"runs.{run}.data must be the path of a training dataset")
        rest = data.replace(SEED_FIELD, "")
        if "{" in rest or "}" in rest:
            raise UsageError(
                f"runs.{run}.data: {data!r} has a brace other than {SEED_FIELD} "
                "(the one field a dataset path may hold)"
            )
        return data if seed is None else data.replace(SEED_FIELD, str(int(seed)))

    def data_paths(self, run: str) -> list[str]:
        """Every training dataset of a run: one, or one per seed of the sweep."""
        data = self.data_path(run)
        if SEED_FIELD not in data:
            return [data]
        return [self.data_path(run, seed) for seed in self.axes.get("seeds", [0])]

    def run_config(self, run: str, **axis_values: Any) -> ReacherRunConfig:
        """Defaults, then the run's keys, then axis values, then --set; validated."""
        merged = {**self.defaults, **self.runs[run], **axis_values, **self.overrides}
        merged.pop("data", None)
        raw, seed = self.data_path(run), merged.get("seed")
        data = raw if seed is None else raw.replace(SEED_FIELD, str(int(seed)))
        train = TrainConfig.from_mapping(merged, where=f"runs.{run} (besides data)")
        return ReacherRunConfig(train, data, self.eval, SEED_FIELD in raw)

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


@dataclass(frozen=True)
class ReacherFile:
    """The parts of a Reacher YAML that ``reacher train`` and ``reacher sweep`` read
    (configs/reacher.yaml, configs/reacher_grid.yaml): each checked for its shape."""

    tree: dict[str, Any]
    defaults: dict[str, Any]
    """Training settings (TrainConfig keys)."""
    axes: dict[str, list[Any]]
    """``lambs`` and ``seeds`` when the file sets them, each a list."""
    sweep: dict[str, list[Any]]
    """The ``sweep`` section (rhos, deltas, traj_kinds), each a list."""


def read_reacher_file(path: str | Path, data_in_defaults: bool = False) -> ReacherFile:
    """The one reader of a Reacher YAML: its top-level mapping (:func:`read_tree` refuses
    a missing file, bad YAML or a list), the training ``defaults`` (known keys only),
    ``lambs`` and ``seeds``, and the ``sweep`` section; a one-line UsageError names the
    file and what is wrong. ``data_in_defaults``: an experiment file's defaults may also
    name the training dataset (``data``) that its runs share."""
    path = Path(path)
    tree = read_tree(path)
    where = path.name
    if "train" in tree:
        raise UsageError(
            f"{where}: the 'train' section is now 'defaults' (the settings) plus top-level "
            "'lambs' and 'seeds', as in configs/reacher_grid.yaml; rename it"
        )
    defaults = tree.get("defaults") or {}
    if not isinstance(defaults, dict):
        raise UsageError(f"{where}: 'defaults' must be a mapping of training settings")
    allowed = (*TRAIN_KEYS, "data") if data_in_defaults else TRAIN_KEYS
    unknown = sorted(str(k) for k in set(defaults) - set(allowed))
    if unknown:
        raise UsageError(
            f"{where}: unknown key {unknown[0]!r} in defaults; allowed: {', '.join(allowed)}"
        )
    axes = {k: _as_list(tree[k]) for k in AXES if k in tree}
    sweep = tree.get("sweep") or {}
    if not isinstance(sweep, dict):
        raise UsageError(
            f"{where}: 'sweep' must be a mapping of {', '.join(SWEEP_KEYS)}, got {sweep!r}"
        )
    unknown = sorted(str(k) for k in set(sweep) - set(SWEEP_KEYS))
    if unknown:
        raise UsageError(
            f"{where}: unknown sweep key(s) {', '.join(unknown)}; allowed: {', '.join(SWEEP_KEYS)}"
        )
    checked = {k: _sweep_values(where, k, _as_list(v)) for k, v in sweep.items()}
    return ReacherFile(tree, dict(defaults), axes, checked)


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _sweep_values(where: str, key: str, values: list[Any]) -> list[Any]:
    for v in values:
        number = isinstance(v, int | float) and not isinstance(v, bool)
        ok = {
            "rhos": number,
            "deltas": number and float(v).is_integer(),
            "traj_kinds": v in TRAJ_KINDS,
        }[key]
        if not ok:
            want = {
                "rhos": "a list of numbers",
                "deltas": "a list of integers",
                "traj_kinds": f"a list of {', '.join(TRAJ_KINDS)}",
            }[key]
            raise UsageError(f"{where}: sweep.{key}={values!r} must be {want}")
    return values


def load_reacher_experiment(
    path: str | Path, sets: list[str] | None = None, only: str | None = None
) -> ReacherExperiment:
    """Read, override (``--set key=value``) and validate a Reacher grid config; ``only``
    keeps that one run (a dataset label)."""
    path = Path(path)
    tree = dict(read_reacher_file(path, data_in_defaults=True).tree)
    overrides: dict[str, Any] = {}
    for key, value in parse_set(sets or []).items():
        _apply_set(tree, overrides, key, value)
    unknown = sorted(set(tree) - set(TOP_KEYS))
    if unknown:
        raise UsageError(f"unknown key {unknown[0]!r} in {path.name}; allowed: {TOP_KEYS}")
    runs, gallery = tree.get("runs"), tree.get("eval")
    if not isinstance(runs, dict) or not runs:
        raise UsageError(f"{path.name}: 'runs' must map dataset labels to {{data: PATH}}")
    if only is not None:
        if only not in runs:
            raise UsageError(f"--run {only!r} is not in {path.name}; allowed: {', '.join(runs)}")
        runs = {only: runs[only]}
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
    check_datasets(exp)
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


def check_datasets(exp: ReacherExperiment) -> None:
    """Complete datasets of the right kinds and one image size, every shard a frame
    array (its header read, not its frames)."""
    from lejepa_id.reacher.datasets import check_shards, load_angles

    _, gallery = load_angles(exp.eval)
    check_shards(exp.eval, gallery)
    if gallery["identity"]["kind"] != "eval":
        raise UsageError(
            f"eval: {exp.eval} holds {gallery['identity']['kind']} pairs; --eval (eval:) "
            "needs an eval dataset"
        )
    for run in exp.runs:
        for path in exp.data_paths(run):
            _, meta = load_angles(path)
            check_shards(path, meta)
            kind, size = meta["identity"]["kind"], meta["identity"]["size"]
            if kind == "eval":
                raise UsageError(f"runs.{run}.data: {path} is an eval dataset, not pairs")
            if size != gallery["identity"]["size"]:
                raise UsageError(
                    f"runs.{run}.data: image sizes differ ({size} vs the eval set's "
                    f"{gallery['identity']['size']}); render both with the same --size"
                )


KIND = ReacherKind()


def run_dir_name(lam: float, seed: int) -> str:
    """Directory of one run inside its dataset's label directory (distinct values give
    distinct names: ``lam0.001_seed0``, ``lam0.0010000001_seed0``)."""
    return f"lam{fmt_value(float(lam))}_seed{seed}"


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
