"""Run configuration and experiment files.

A :class:`RunConfig` is one training run: every field has a one-line docstring and a
default from SPEC.md. An experiment file (YAML, see ``configs/``) names a set of runs
(``runs``: name -> overrides) on top of shared ``defaults``, plus sweep axes such as
``seeds``; :func:`load_experiment` reads it with the safe YAML loader and validates
every key and value, raising :class:`~lejepa_id.errors.UsageError` with one line that
names the offending key or value.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from lejepa_id.encoders import ENCODER_NAMES
from lejepa_id.errors import UsageError
from lejepa_id.objectives import MODES
from lejepa_id.worlds import COUPLING_DRAWS, LAW_NAMES, MIXING_NAMES

TWO_D_MIXINGS = ("spiral", "banana", "sinusoid")


@dataclass
class RunConfig:
    """One training run (SPEC.md sections 2 to 6)."""

    # --- world ---
    mixing: str = "spiral"
    """Mixing g: spiral, banana, sinusoid (N = 2) or coupling (any even N)."""
    dim: int = 2
    """Latent dimension N."""
    layers: int = 4
    """Coupling layers L of the coupling mixing (and of the matched encoder)."""
    mixing_seed: int | None = None
    """Seed of the coupling mixing's weights; None uses the run's seed."""
    coupling_draw: str = "float64"
    """Coupling weights: float64 (one CPU float64 draw, the same world on every device) or
    published (the published code's float32 per-layer draw on the run's device)."""
    law: str = "gaussian"
    """Latent law: gaussian, laplace or gennorm."""
    alpha: float = 2.0
    """Shape of the gennorm law (2 = Gaussian, 1 = Laplace); > 0."""
    rho: float = 0.95
    """OU channel correlation, in (0, 1)."""
    views: int = 2
    """Views of each latent per step, all drawn by the OU channel."""
    # --- encoder ---
    encoder: str = "mlp"
    """Encoder: mlp or matched (cnn is the Reacher experiment's)."""
    hidden: int = 256
    """Width of the mlp encoder's hidden layers."""
    depth: int = 4
    """Hidden layers of the mlp encoder (Linear(N, H), then depth - 1 x Linear(H, H))."""
    inits: int = 1
    """Encoders trained from different initializations; the lowest final loss is kept."""
    inits_max_dim: int = 1_000_000
    """Train ``inits`` encoders only when dim <= this; larger dims train one."""
    # --- objective ---
    mode: str = "lejepa"
    """Objective: lejepa, whiten or infonce."""
    lam: float = 1e-3
    """Regularizer weight lambda in [0, 1] (lejepa and whiten)."""
    sigma: float = 1.0
    """InfoNCE temperature sigma; > 0."""
    num_directions: int = 256
    """SIGReg: random directions per call."""
    knots: int = 17
    """SIGReg: equally spaced knots on [0, t_max]."""
    t_max: float = 3.0
    """SIGReg: largest knot."""
    # --- training ---
    steps: int = 20_000
    """Optimizer steps."""
    batch: int = 256
    """Latents per step (each seen in ``views`` views)."""
    lr: float = 3e-3
    """Peak AdamW learning rate: constant for the first half, cosine to 0 in the second."""
    weight_decay: float = 0.01
    """AdamW weight decay (PyTorch's default)."""
    seed: int = 0
    """Run seed: data stream, encoder initialization and (by default) the mixing."""
    # --- evaluation ---
    eval_size: int = 10_000
    """Latents in the fixed evaluation set."""
    eval_seed: int = 2026
    """Seed of the evaluation set (fixed, so runs are scored on the same latents)."""
    eval_every: int = 500
    """Evaluate every this many steps ..."""
    eval_every_early: int = 100
    """... and every this many steps up to ``early_until``."""
    early_until: int = 1000
    """End of the dense early evaluation phase."""
    scatter: int = 0
    """Points of (z, x, h) saved for figures at the end (0: none)."""
    device: str = "auto"
    """Device: auto (CUDA when present), cpu or cuda."""

    def validate(self) -> RunConfig:
        """Check every value; raise UsageError naming the first bad one."""
        _check_choice("mixing", self.mixing, MIXING_NAMES)
        _check_choice("coupling_draw", self.coupling_draw, COUPLING_DRAWS)
        _check_choice("law", self.law, LAW_NAMES)
        _check_choice("mode", self.mode, MODES)
        _check_choice("encoder", self.encoder, ENCODER_NAMES[:2])
        if self.device not in ("auto", "cpu", "cuda") and not self.device.startswith("cuda:"):
            raise UsageError(f"device={self.device!r} is not one of auto, cpu, cuda")
        if not 0.0 < self.rho < 1.0:
            raise UsageError(f"rho={self.rho!r} must lie in the open interval (0, 1)")
        if not 0.0 <= self.lam <= 1.0:
            raise UsageError(f"lam={self.lam!r} must lie in [0, 1]")
        if not (self.alpha > 0 and math.isfinite(self.alpha)):
            raise UsageError(f"alpha={self.alpha!r} must be a finite number > 0")
        if not self.sigma > 0:
            raise UsageError(f"sigma={self.sigma!r} must be > 0")
        if not self.t_max > 0:
            raise UsageError(f"t_max={self.t_max!r} must be > 0")
        for name in (
            "dim",
            "layers",
            "views",
            "hidden",
            "depth",
            "inits",
            "num_directions",
            "steps",
            "batch",
            "eval_size",
            "eval_every",
            "eval_every_early",
        ):
            if getattr(self, name) < 1:
                raise UsageError(f"{name}={getattr(self, name)!r} must be >= 1")
        if self.knots < 2:
            raise UsageError(f"knots={self.knots!r} must be >= 2")
        if self.views < 2:
            raise UsageError(f"views={self.views!r} must be >= 2 (alignment needs two views)")
        if self.mode == "infonce" and self.views != 2:
            raise UsageError(f"views={self.views!r}: mode infonce needs exactly 2 views")
        if not self.lr > 0:
            raise UsageError(f"lr={self.lr!r} must be > 0")
        if self.weight_decay < 0:
            raise UsageError(f"weight_decay={self.weight_decay!r} must be >= 0")
        if self.scatter < 0 or self.early_until < 0:
            raise UsageError("scatter and early_until must be >= 0")
        if self.mixing in TWO_D_MIXINGS and self.dim != 2:
            raise UsageError(f"dim={self.dim!r}: mixing {self.mixing} is defined for dim = 2 only")
        if (self.mixing == "coupling" or self.encoder == "matched") and self.dim % 2:
            raise UsageError(
                f"dim={self.dim!r} must be even for the coupling mixing and matched encoder"
            )
        return self

    @property
    def effective_inits(self) -> int:
        """Encoders actually trained: ``inits`` when dim <= ``inits_max_dim``, else 1."""
        return self.inits if self.dim <= self.inits_max_dim else 1

    @property
    def resolved_mixing_seed(self) -> int:
        return self.seed if self.mixing_seed is None else self.mixing_seed

    def eval_steps(self) -> list[int]:
        """Steps after which the run is evaluated (always including the last)."""
        early = range(
            self.eval_every_early, min(self.early_until, self.steps) + 1, self.eval_every_early
        )
        late = range(self.eval_every, self.steps + 1, self.eval_every)
        return sorted(set(early) | set(late) | {self.steps})


RUN_FIELDS = {f.name: f for f in dataclasses.fields(RunConfig)}


def _check_choice(key: str, value: Any, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise UsageError(f"{key}={value!r} is not one of {', '.join(allowed)}")


def _coerce(key: str, value: Any) -> Any:
    """Coerce a YAML value to the annotated type of RunConfig field ``key``."""
    hint = typing.get_type_hints(RunConfig)[key]
    allowed = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    if value is None and type(None) in allowed:
        return None
    if isinstance(value, bool):
        raise UsageError(f"{key}={value!r} must be a {_type_name(allowed)}")
    if int in allowed:
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
    if float in allowed and isinstance(value, int | float | str):
        # YAML 1.1 reads 1e-3 (no dot) as a string; accept any numeric spelling.
        try:
            return float(value)
        except ValueError:
            pass
    if str in allowed and isinstance(value, str):
        return value
    raise UsageError(f"{key}={value!r} must be a {_type_name(allowed)}")


def _type_name(allowed: tuple[type, ...]) -> str:
    names = {int: "integer", float: "number", str: "string", type(None): "null"}
    return " or ".join(names.get(t, t.__name__) for t in allowed)


def make_run_config(overrides: dict[str, Any], where: str = "config") -> RunConfig:
    """RunConfig from a mapping of field overrides, each key and value checked."""
    if not isinstance(overrides, dict):
        raise UsageError(f"{where} must be a mapping of config keys, got {overrides!r}")
    values = {}
    for key, value in overrides.items():
        if key not in RUN_FIELDS:
            raise UsageError(
                f"unknown config key {key!r} in {where}; allowed: {', '.join(RUN_FIELDS)}"
            )
        values[key] = _coerce(key, value)
    return RunConfig(**values).validate()


# Sweep axes: experiment-level list keys, each sweeping one RunConfig field.
AXES = {"dims": "dim", "alphas": "alpha", "lambs": "lam", "rhos": "rho", "seeds": "seed"}
EXPERIMENT_KEYS = ("name", "description", "defaults", "runs", *AXES)


@dataclass
class RunSpec:
    """One expanded run of an experiment: its name, axis values and resolved config."""

    experiment: str
    run: str
    axes: dict[str, Any]
    config: RunConfig

    @property
    def run_id(self) -> str:
        """Directory-safe identity, e.g. ``spiral_lejepa-alpha0.5-seed1337``."""
        parts = [self.run] + [f"{AXES[k]}{_fmt(v)}" for k, v in self.axes.items()]
        return "-".join(parts)


def _fmt(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


@dataclass
class Experiment:
    """A named set of runs with shared defaults and sweep axes (see configs/*.yaml)."""

    name: str
    runs: dict[str, dict[str, Any]]
    defaults: dict[str, Any] = field(default_factory=dict)
    axes: dict[str, list[Any]] = field(default_factory=dict)
    overrides: dict[str, Any] = field(default_factory=dict)
    description: str = ""

    def run_config(self, run: str, **axis_values: Any) -> RunConfig:
        """Resolve one run: defaults, then the run's own keys, then axes, then --set."""
        if run not in self.runs:
            raise UsageError(
                f"run {run!r} is not in experiment {self.name}; allowed: {', '.join(self.runs)}"
            )
        merged = {**self.defaults, **self.runs[run], **axis_values, **self.overrides}
        return make_run_config(merged, where=f"runs.{run}")

    def expand(self) -> list[RunSpec]:
        """Every run: the product of run names and the sweep axes, in a stable order."""
        names = list(self.runs)
        axis_keys = [k for k in AXES if k in self.axes]
        specs = []
        for run in names:
            for combo in itertools.product(*(self.axes[k] for k in axis_keys)):
                values = dict(zip(axis_keys, combo))
                fields = {AXES[k]: v for k, v in values.items()}
                specs.append(RunSpec(self.name, run, values, self.run_config(run, **fields)))
        if not specs:
            raise UsageError(f"experiment {self.name} expands to no runs (an axis is empty)")
        return specs


def parse_set(assignments: list[str]) -> dict[str, Any]:
    """Parse ``key=value`` strings; values are YAML (numbers, strings, lists)."""
    out: dict[str, Any] = {}
    for item in assignments:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"--set {item!r} must look like key=value")
        try:
            out[key] = yaml.safe_load(raw)
        except yaml.YAMLError:
            raise UsageError(f"--set {item!r}: the value is not valid YAML") from None
    return out


def _apply_set(tree: dict[str, Any], key: str, value: Any) -> None:
    """Apply one --set: a RunConfig field overrides every run; an experiment key replaces
    that key; a dotted path (``runs.spiral_lejepa.lam``) sets one leaf of the file."""
    if "." in key:
        node = tree
        parts = key.split(".")
        for part in parts[:-1]:
            child = node.get(part) if isinstance(node, dict) else None
            if not isinstance(child, dict):
                raise UsageError(f"--set {key}: {part!r} is not a section of the config")
            node = child
        node[parts[-1]] = value
    elif key == "runs" and isinstance(value, list):
        known = tree.get("runs", {})
        for name in value:
            if name not in known:
                raise UsageError(f"--set runs: run {name!r} is not one of {', '.join(known)}")
        tree["runs"] = {name: known[name] for name in value}
    elif key in EXPERIMENT_KEYS:
        tree[key] = value
    elif key in RUN_FIELDS:
        tree.setdefault("__overrides__", {})[key] = value
    else:
        raise UsageError(
            f"unknown config key {key!r}; allowed: {', '.join(EXPERIMENT_KEYS)} "
            f"or a run key ({', '.join(RUN_FIELDS)})"
        )


def load_experiment(path: str | Path, sets: list[str] | None = None) -> Experiment:
    """Read and validate an experiment YAML file, applying ``--set`` overrides."""
    path = Path(path)
    if not path.is_file():
        raise UsageError(f"config file {str(path)!r} does not exist")
    try:
        tree = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise UsageError(
            f"config file {str(path)!r} is not valid YAML: {exc}".splitlines()[0]
        ) from None
    if not isinstance(tree, dict):
        raise UsageError(f"config file {str(path)!r} must hold a mapping")
    for key, value in parse_set(sets or []).items():
        _apply_set(tree, key, value)
    overrides = tree.pop("__overrides__", {})
    for key in tree:
        if key not in EXPERIMENT_KEYS:
            raise UsageError(
                f"unknown config key {key!r} in {path.name}; allowed: {', '.join(EXPERIMENT_KEYS)}"
            )
    runs = tree.get("runs") or {}
    if not isinstance(runs, dict) or not runs:
        raise UsageError(f"{path.name}: 'runs' must be a non-empty mapping of run names")
    runs = {str(k): (v or {}) for k, v in runs.items()}
    axes = {}
    for key in AXES:
        if key in tree:
            value = tree[key]
            if not isinstance(value, list):
                value = [value]
            if not value:
                raise UsageError(f"sweep axis {key!r} is empty")
            axes[key] = value
    exp = Experiment(
        name=str(tree.get("name", path.stem)),
        runs=runs,
        defaults=tree.get("defaults") or {},
        axes=axes,
        overrides=overrides,
        description=str(tree.get("description", "")),
    )
    # Validate every run now, so bad input fails before anything runs or is written.
    for run in exp.runs:
        exp.run_config(run)
    return exp
