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
import math
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from lejepa_id import limits
from lejepa_id.encoders import encoder_names
from lejepa_id.errors import UsageError
from lejepa_id.objectives import build_objective, objective_class, objective_names, param_fields
from lejepa_id.worlds import COUPLING_DRAWS, LAW_NAMES, MIXING_NAMES, transition_names

TWO_D_MIXINGS = ("spiral", "banana", "sinusoid")


@dataclass(init=False)
class RunConfig:
    """One training run (SPEC.md sections 2 to 6).

    Besides the fields below, every hyperparameter of a registered objective is a key
    (``lam``, ``sigma``, ``num_directions``, ``knots``, ``t_max`` for the built-in ones):
    pass it as a keyword, read it as an attribute; it is stored in ``params`` and its
    default is the objective's own.
    """

    # --- world ---
    mixing: str = "spiral"
    """Mixing g: spiral, banana, sinusoid (n = 2), coupling (any even n) or linear."""
    dim: int = 2
    """Latent dimension n."""
    obs_dim: int | None = None
    """Observation dimension D >= n (None: D = n); only the linear mixing has D > n."""
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
    transition: str = "ou"
    """Transition that draws the views: ou (the only built-in one)."""
    rho: float | list[float] = 0.95
    """OU channel correlation in (0, 1): one for every coordinate, or a list of ``dim``
    (an anisotropic channel)."""
    views: int = 2
    """Views of each latent per step, all drawn by the transition."""
    # --- encoder ---
    encoder: str = "mlp"
    """Encoder: mlp or matched (cnn is the Reacher experiment's)."""
    code_dim: int | None = None
    """Code dimension m (None: m = n); the matched encoder needs m = n."""
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
    """Objective: a registered one (lejepa, whiten, infonce); its hyperparameters are keys."""
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
    params: dict[str, Any] = field(default_factory=dict)
    """Objective hyperparameters set explicitly (read them as attributes)."""

    def __init__(self, **values: Any) -> None:
        params = dict(values.pop("params", None) or {})
        for f in dataclasses.fields(RunConfig):
            if f.name == "params":
                continue
            default = f.default_factory() if f.default is dataclasses.MISSING else f.default
            setattr(self, f.name, values.pop(f.name, default))
        known = param_fields()
        for key in list(values):
            if key in known:
                params[key] = values.pop(key)
        if values:
            raise TypeError(f"RunConfig got unknown keys: {', '.join(values)}")
        self.params = params

    def __getattr__(self, name: str) -> Any:
        # Only reached for names that are not fields: objective hyperparameters.
        known = param_fields()
        if name in known and "params" in self.__dict__:
            return self.params.get(name, self._param_default(name))
        raise AttributeError(f"RunConfig has no key {name!r}")

    def _param_default(self, name: str) -> Any:
        owner = objective_class(self.mode) if self.mode in objective_names() else None
        if owner is not None and name in {f.name for f in dataclasses.fields(owner)}:
            return next(f.default for f in dataclasses.fields(owner) if f.name == name)
        return param_fields()[name].default

    def to_dict(self) -> dict[str, Any]:
        """Every key with its value, objective hyperparameters included (flat)."""
        out = {f: getattr(self, f) for f in CORE_FIELDS}
        out.update({k: getattr(self, k) for k in param_fields()})
        return out

    @property
    def objective_params(self) -> dict[str, Any]:
        """The hyperparameters of every registered objective, explicit or default."""
        return {k: getattr(self, k) for k in param_fields()}

    @property
    def code_size(self) -> int:
        """m: the code dimension (``code_dim``, or n when unset)."""
        return self.dim if self.code_dim is None else self.code_dim

    @property
    def obs_size(self) -> int:
        """D: the observation dimension (``obs_dim``, or n when unset)."""
        return self.dim if self.obs_dim is None else self.obs_dim

    def validate(self, custom_world: bool = False) -> RunConfig:
        """Check every value's type and range; raise UsageError naming the first bad one.

        ``custom_world``: the run gets a user's world, so the checks that tie a named
        mixing to its dimensions are left to the world. The ranges and why they are what
        they are: :mod:`lejepa_id.limits`.
        """
        values = self.to_dict()
        for key, value in values.items():
            _check_type(key, value)
        _check_choice("mixing", self.mixing, MIXING_NAMES)
        _check_choice("coupling_draw", self.coupling_draw, COUPLING_DRAWS)
        _check_choice("law", self.law, LAW_NAMES)
        _check_choice("transition", self.transition, transition_names())
        _check_choice("mode", self.mode, objective_names())
        _check_choice("encoder", self.encoder, encoder_names())
        if self.device not in ("auto", "cpu", "cuda") and not self.device.startswith("cuda:"):
            raise UsageError(f"device={self.device!r} is not one of auto, cpu, cuda")
        limits.check_finite(values, _float_keys(values))
        self._validate_rho()
        if not self.alpha >= limits.ALPHA_MIN:
            raise UsageError(
                f"alpha={self.alpha!r} must be >= {limits.ALPHA_MIN} (smaller shapes cannot "
                "be sampled in floating point)"
            )
        if not self.lr > 0:
            raise UsageError(f"lr={self.lr!r} must be > 0")
        if self.weight_decay < 0:
            raise UsageError(f"weight_decay={self.weight_decay!r} must be >= 0")
        limits.check_int_ranges(values)
        self._validate_objectives()
        self._validate_sizes()
        if not custom_world:
            self._validate_named_mixing()
        if self.encoder == "matched" and self.dim % 2:
            raise UsageError(f"dim={self.dim!r} must be even for the matched encoder")
        limits.check_eval_size(self.eval_size, self.dim)
        limits.check_memory(self)
        return self

    def _validate_rho(self) -> None:
        values = self.rho if isinstance(self.rho, list) else [self.rho]
        for r in values:
            if not (math.isfinite(r) and 0.0 < r < 1.0):
                raise UsageError(f"rho={r!r} must lie in the open interval (0, 1)")
        if isinstance(self.rho, list) and len(self.rho) != self.dim:
            raise UsageError(
                f"rho={self.rho!r} lists {len(self.rho)} correlations; dim={self.dim} needs "
                f"{self.dim} (or one number for all)"
            )

    def _validate_objectives(self) -> None:
        # Every objective checks its own keys, so a bad value is refused even on a run
        # whose objective ignores it (--set sigma=-1 is wrong for every run).
        for name in objective_names():
            build_objective(name, **self.objective_params)
        need = objective_class(self.mode).views
        if need is not None and self.views != need:
            raise UsageError(f"views={self.views!r}: mode {self.mode} needs exactly {need} views")

    def _validate_named_mixing(self) -> None:
        if self.mixing in TWO_D_MIXINGS and self.dim != 2:
            raise UsageError(f"dim={self.dim!r}: mixing {self.mixing} is defined for dim = 2 only")
        if self.mixing == "coupling" and self.dim % 2:
            raise UsageError(f"dim={self.dim!r} must be even for the coupling mixing")
        if self.obs_size != self.dim and self.mixing != "linear":
            raise UsageError(
                f"obs_dim={self.obs_dim!r}: mixing {self.mixing} keeps D = dim = {self.dim}; "
                "only the linear mixing embeds in a larger space"
            )

    def _validate_sizes(self) -> None:
        for key, low in (("obs_dim", self.dim), ("code_dim", 1)):
            value = getattr(self, key)
            if value is not None and not low <= value <= limits.INT_RANGES["dim"][1]:
                raise UsageError(
                    f"{key}={value!r} must lie in [{low}, {limits.INT_RANGES['dim'][1]:,}]"
                )
        if self.encoder == "matched" and not self.obs_size == self.code_size == self.dim:
            raise UsageError(
                f"code_dim={self.code_dim!r}: the matched encoder needs code_dim = dim = {self.dim}"
            )

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


CORE_FIELDS = tuple(f.name for f in dataclasses.fields(RunConfig) if f.name != "params")


def run_keys() -> tuple[str, ...]:
    """Every key a run accepts: the core fields and every objective's hyperparameters."""
    return CORE_FIELDS + tuple(k for k in param_fields() if k not in CORE_FIELDS)


@functools.cache
def _core_types(key: str) -> tuple[type, ...]:
    hint = typing.get_type_hints(RunConfig)[key]
    args = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    return tuple(typing.get_origin(a) or a for a in args)  # list[float] -> list


def _allowed_types(key: str) -> tuple[type, ...]:
    return _core_types(key) if key in CORE_FIELDS else param_fields()[key].types


def _float_keys(values: dict[str, Any]) -> tuple[str, ...]:
    return tuple(
        k for k, v in values.items() if float in _allowed_types(k) and isinstance(v, float)
    )


def _check_type(key: str, value: Any) -> None:
    """The Python API's type check (files and --set values are coerced first)."""
    allowed = _allowed_types(key)
    if value is None and type(None) in allowed:
        return
    ok = (
        (int in allowed and isinstance(value, int))
        or (float in allowed and isinstance(value, int | float))
        or (str in allowed and isinstance(value, str))
        or (list in allowed and _number_list(value))
    )
    if isinstance(value, bool) or not ok:
        raise UsageError(f"{key}={value!r} must be a {_type_name(allowed)}")


def _number_list(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


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
    if list in allowed and isinstance(value, list | tuple) and value:
        return [_coerce_number(key, v, allowed) for v in value]
    raise UsageError(f"{key}={value!r} must be a {_type_name(allowed)}")


def _coerce_number(key: str, value: Any, allowed: tuple[type, ...]) -> float:
    if not isinstance(value, bool) and isinstance(value, int | float | str):
        try:
            return float(value)
        except ValueError:
            pass
    raise UsageError(f"{key}={value!r} must be a {_type_name(allowed)}")


def _type_name(allowed: tuple[type, ...]) -> str:
    names = {
        int: "integer",
        float: "number",
        str: "string",
        list: "non-empty list of numbers",
        type(None): "null",
    }
    return " or ".join(names.get(t, t.__name__) for t in allowed)


def make_run_config(overrides: dict[str, Any], where: str = "config") -> RunConfig:
    """RunConfig from a mapping of field overrides, each key and value checked."""
    if not isinstance(overrides, dict):
        raise UsageError(f"{where} must be a mapping of config keys, got {overrides!r}")
    values = {}
    keys = run_keys()
    for key, value in overrides.items():
        if key not in keys:
            raise UsageError(f"unknown config key {key!r} in {where}; allowed: {', '.join(keys)}")
        values[key] = _coerce(key, value)
    return RunConfig(**values).validate()


# Sweep axes: experiment-level list keys, each sweeping one RunConfig field.
AXES = {
    "dims": "dim",
    "code_dims": "code_dim",
    "alphas": "alpha",
    "lambs": "lam",
    "rhos": "rho",
    "rho_grid": "rho",
    "seeds": "seed",
}
# rho_grid sweeps an anisotropic channel: each value (r1, r2) gives the first latent
# correlation r1 and every other one r2, whatever the run's dim.
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
    if isinstance(value, list):
        return "x".join(fmt_value(float(v)) for v in value)
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

    def _grid_rho(self, run: str, fields: dict[str, Any], pair: list[float]) -> list[float]:
        merged = {**self.defaults, **self.runs[run], **fields, **self.overrides}
        dim = _coerce("dim", merged.get("dim", RunConfig().dim))
        first, rest = (_coerce_number("rho_grid", v, (float,)) for v in pair)
        return [first] + [rest] * (dim - 1)

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
                if "rho_grid" in values:
                    fields["rho"] = self._grid_rho(run, fields, values["rho_grid"])
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
        number = tuple(number) if isinstance(number, list) else number
        if number in seen:
            raise UsageError(
                f"sweep axis {key!r} lists the value {number!r} twice "
                f"({seen[number]!r} and {value!r}); each value must appear once"
            )
        seen[number] = value


def _rho_grid(value: Any) -> list[list[float]]:
    """``{first: [...], rest: [...]}`` -> every pair (r1, r2) of the product."""
    if not isinstance(value, dict) or set(value) != {"first", "rest"}:
        raise UsageError(f"rho_grid={value!r} must be a mapping with lists 'first' and 'rest'")
    lists = []
    for part in ("first", "rest"):
        items = value[part] if isinstance(value[part], list) else [value[part]]
        if not items:
            raise UsageError(f"rho_grid.{part} is empty")
        lists.append([_coerce_number(f"rho_grid.{part}", v, (float,)) for v in items])
    return [[a, b] for a in lists[0] for b in lists[1]]


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
    elif key in run_keys():
        tree.setdefault("__overrides__", {})[key] = value
    else:
        raise UsageError(
            f"unknown config key {key!r}; allowed: {', '.join(EXPERIMENT_KEYS)} "
            f"or a run key ({', '.join(run_keys())})"
        )


def load_experiment(
    path: str | Path, sets: list[str] | None = None, only: str | None = None
) -> Experiment:
    """Read and validate an experiment YAML file, applying ``--set`` overrides.

    ``only`` keeps (and validates) that one run, so an override that suits it is not
    refused because another run of the file would be invalid with it.
    """
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
    if only is not None:
        if only not in runs:
            raise UsageError(f"--run {only!r} is not in {path.name}; allowed: {', '.join(runs)}")
        runs = {only: runs[only]}
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
            if key == "rho_grid":
                value = _rho_grid(value)
            if not isinstance(value, list):
                value = [value]
            if not value:
                raise UsageError(f"sweep axis {key!r} is empty")
            axes[key] = value
    if "rhos" in axes and "rho_grid" in axes:
        raise UsageError("sweep axes 'rhos' and 'rho_grid' both set rho; use one")
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
