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
import functools
import itertools
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from lejepa_id import limits
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
        """Check every value's type and range; raise UsageError naming the first bad one.

        The ranges and why they are what they are: :mod:`lejepa_id.limits`.
        """
        values = {name: getattr(self, name) for name in RUN_FIELDS}
        for key, value in values.items():
            _check_type(key, value)
        _check_choice("mixing", self.mixing, MIXING_NAMES)
        _check_choice("coupling_draw", self.coupling_draw, COUPLING_DRAWS)
        _check_choice("law", self.law, LAW_NAMES)
        _check_choice("mode", self.mode, MODES)
        _check_choice("encoder", self.encoder, ENCODER_NAMES[:2])
        if self.device not in ("auto", "cpu", "cuda") and not self.device.startswith("cuda:"):
            raise UsageError(f"device={self.device!r} is not one of auto, cpu, cuda")
        limits.check_finite(values, FLOAT_KEYS)
        if not 0.0 < self.rho < 1.0:
            raise UsageError(f"rho={self.rho!r} must lie in the open interval (0, 1)")
        if not 0.0 <= self.lam <= 1.0:
            raise UsageError(f"lam={self.lam!r} must lie in [0, 1]")
        if not self.alpha >= limits.ALPHA_MIN:
            raise UsageError(
                f"alpha={self.alpha!r} must be >= {limits.ALPHA_MIN} (smaller shapes cannot "
                "be sampled in floating point)"
            )
        for key in ("sigma", "t_max", "lr"):
            if not getattr(self, key) > 0:
                raise UsageError(f"{key}={getattr(self, key)!r} must be > 0")
        if self.weight_decay < 0:
            raise UsageError(f"weight_decay={self.weight_decay!r} must be >= 0")
        limits.check_int_ranges(values)
        if self.mode == "infonce" and self.views != 2:
            raise UsageError(f"views={self.views!r}: mode infonce needs exactly 2 views")
        if self.mixing in TWO_D_MIXINGS and self.dim != 2:
            raise UsageError(f"dim={self.dim!r}: mixing {self.mixing} is defined for dim = 2 only")
        if (self.mixing == "coupling" or self.encoder == "matched") and self.dim % 2:
            raise UsageError(
                f"dim={self.dim!r} must be even for the coupling mixing and matched encoder"
            )
        limits.check_eval_size(self.eval_size, self.dim)
        limits.check_memory(self)
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
FLOAT_KEYS = ("alpha", "rho", "lam", "sigma", "t_max", "lr", "weight_decay")


@functools.cache
def _allowed_types(key: str) -> tuple[type, ...]:
    hint = typing.get_type_hints(RunConfig)[key]
    return typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)


def _check_type(key: str, value: Any) -> None:
    """The Python API's type check (files and --set values are coerced first)."""
    allowed = _allowed_types(key)
    if value is None and type(None) in allowed:
        return
    ok = (
        (int in allowed and isinstance(value, int))
        or (float in allowed and isinstance(value, int | float))
        or (str in allowed and isinstance(value, str))
    )
    if isinstance(value, bool) or not ok:
        raise UsageError(f"{key}={value!r} must be a {_type_name(allowed)}")


def _check_choice(key: str, value: Any, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise UsageError(f"{key}={value!r} is not one of {', '.join(allowed)}")


def _coerce(key: str, value: Any) -> Any:
    """Coerce a YAML value to the annotated type of RunConfig field ``key``."""
    allowed = _allowed_types(key)
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
        """Directory-safe identity, e.g. ``spiral_lejepa-alpha0.5-seed1337``.

        Axis values are read from the resolved config, so ``1e-3`` and ``0.001`` are one
        run, and written so that distinct values never share an id (see :func:`fmt_value`).
        """
        parts = [self.run] + [
            f"{AXES[k]}{fmt_value(getattr(self.config, AXES[k]))}" for k in self.axes
        ]
        return "-".join(parts)


def fmt_value(value: Any) -> str:
    """A number as it appears in a run id: short, and distinct for distinct values.

    ``:g`` (6 significant digits) where it gives the value back exactly, as in every
    published config (0.001, 1e-06, 0.125, 2); else the shortest exact form (repr), so
    ``0.0010000001`` never shares the id of ``0.001``.
    """
    if isinstance(value, float):
        short = f"{value:g}"
        return short if float(short) == value else repr(value)
    return str(value)


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
        for key in axis_keys:
            _check_distinct(key, self.axes[key])
        specs = []
        for run in names:
            for combo in itertools.product(*(self.axes[k] for k in axis_keys)):
                values = dict(zip(axis_keys, combo))
                fields = {AXES[k]: v for k, v in values.items()}
                specs.append(RunSpec(self.name, run, values, self.run_config(run, **fields)))
        if not specs:
            raise UsageError(f"experiment {self.name} expands to no runs (an axis is empty)")
        return specs


def _check_distinct(key: str, values: list[Any]) -> None:
    """Refuse an axis listing one value twice (``seeds=[1, 1]``, ``lambs=[1e-3, 0.001]``):
    both would be the same run, trained twice into one folder."""
    seen: dict[Any, Any] = {}
    for value in values:
        number = _coerce(AXES[key], value)
        if number in seen:
            raise UsageError(
                f"sweep axis {key!r} lists the value {number!r} twice "
                f"({seen[number]!r} and {value!r}); each value must appear once"
            )
        seen[number] = value


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
    runs = {limits.check_name("run name", str(k)): (v or {}) for k, v in runs.items()}
    for run, keys in runs.items():
        if not isinstance(keys, dict):
            raise UsageError(f"runs.{run} must be a mapping of config keys, got {keys!r}")
    defaults = tree.get("defaults") or {}
    if not isinstance(defaults, dict):
        raise UsageError(
            f"{path.name}: 'defaults' must be a mapping of config keys, got {defaults!r}"
        )
    name = tree.get("name", path.stem)
    limits.check_name("experiment name", name if isinstance(name, str) else str(name))
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
        name=str(name),
        runs=runs,
        defaults=defaults,
        axes=axes,
        overrides=overrides,
        description=str(tree.get("description", "")),
    )
    # Validate every run now, so bad input fails before anything runs or is written.
    for run in exp.runs:
        exp.run_config(run)
    return exp
