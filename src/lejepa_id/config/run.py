"""Run configuration: one training run's settings, their types and their validation.

A :class:`RunConfig` is one training run: every field has a one-line docstring and a
default from the paper (docs/model.md), and every registered objective adds its
hyperparameters as keys.
:func:`make_run_config` builds one from a mapping (a YAML file's values, ``--set``),
coercing and checking every key and value and raising
:class:`~lejepa_id.errors.UsageError` with one line that names the offending key or value.
Experiment files (sets of runs and sweep axes) are :mod:`lejepa_id.config.experiments`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import types
import typing
from dataclasses import dataclass, field
from typing import Any

import torch

from lejepa_id.config import components
from lejepa_id.config import limits as limits
from lejepa_id.config.components import ComponentKey
from lejepa_id.config.memory import check_memory
from lejepa_id.encoders.stacked import encoder_names, shape_problem
from lejepa_id.errors import UsageError
from lejepa_id.runtime.devices import check_device, is_cuda
from lejepa_id.worlds import (
    COUPLING_DRAWS,
    MIXING_NAMES,
    law_names,
    mixing_names,
    transition_names,
)
from lejepa_id.worlds.cuda_worlds import RECORDED, has_recorded_world
from lejepa_id.worlds.transitions import transition_class

TWO_D_MIXINGS = ("spiral", "banana", "sinusoid")


INITS_OVER = ("encoder", "world")
WORLD_SEED_STRIDE = 1000
"""Start k of an ``inits_over: world`` run is seeded seed + 1000 k, as the published code does."""


@dataclass(init=False)
class RunConfig:
    """One training run (docs/model.md, sections 2 to 6).

    Besides the fields below, the selected objective (``mode``) and transition add their
    own keys (:mod:`lejepa_id.config.components`): ``lam``, ``sigma``, ``num_directions``,
    ``knots``, ``t_max`` for the built-in objectives, ``action_dim`` and ``action_gain``
    for ``linear_action``. Pass one as a keyword (flat, or qualified as ``whiten.lam`` to
    set it for one component only), read it as an attribute: the value given, else the
    selected component's own default. Explicit values are stored in ``params``.
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
    """Coupling weights: float64 (one CPU float64 draw, the same world on every device),
    published (the published code's float32 per-layer draw on the run's device) or
    published_cuda (the worlds that draw gives on CUDA, the paper's own; on a CPU read from
    the recorded ones: layers = 4, dim 2 to 256, seeds 0 to 4)."""
    law: str = "gaussian"
    """Latent law: gaussian, laplace, gennorm or a plugin's (``@register_law``)."""
    alpha: float = 2.0
    """Shape of the gennorm law (2 = Gaussian, 1 = Laplace); > 0."""
    transition: str = "ou"
    """Transition that draws the views: ou, or linear_action (an action-driven world:
    z' = A z + B a + noise, trained with mode lejepa_action)."""
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
    inits_over: str = "encoder"
    """What the ``inits`` starts vary: ``encoder`` (the paper's protocol: K encoder
    initializations on the run's one world) or ``world`` (the published code's: start k
    is a whole run at seed + 1000 k, its own world, data and evaluation set; the kept
    world's seed is recorded as ``kept_seed``)."""
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
    """Component keys set explicitly, flat or qualified (read them as attributes)."""

    def __init__(self, **values: Any) -> None:
        values = _objective_as_mode(values)
        given = {k: v for k, v in values.items() if k != "params"}
        params = dict(values.pop("params", None) or {})
        for f in dataclasses.fields(RunConfig):
            if f.name == "params":
                continue
            if f.default is not dataclasses.MISSING:
                default = f.default
            elif f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            else:  # every RunConfig field has a default (RunConfig() is the paper's run)
                raise TypeError(f"RunConfig.{f.name} has no default")
            setattr(self, f.name, values.pop(f.name, default))
        for key in list(values):
            if components.owners(key) or components.lookup(key):
                params[key] = values.pop(key)
        if values:
            raise UsageError(
                f"unknown config key {next(iter(values))!r}; allowed: {', '.join(run_keys())}"
            )
        self.params = params
        check_value_types(given)

    def __getattr__(self, name: str) -> Any:
        # Only reached for names that are not fields: the selected components' keys.
        if "params" not in self.__dict__:
            raise AttributeError(name)
        own = self.component_keys().get(name)
        if own is None:
            others = components.owners(name)
            where = ", ".join(k.namespace for k in others) or "no component"
            raise AttributeError(
                f"RunConfig has no key {name!r} for mode={self.mode!r}, "
                f"transition={self.transition!r} (it is a key of {where})"
            )
        return self._resolved(own)

    def _resolved(self, key: ComponentKey) -> Any:
        if key.qualified in self.params:
            return self.params[key.qualified]
        return self.params.get(key.name, key.default)

    def component_keys(self) -> dict[str, ComponentKey]:
        """The keys of the selected encoder, transition and objective (unknown names give
        none; a flat name two of them share is the later one's)."""
        table = components.namespaces()
        out: dict[str, ComponentKey] = {}
        for namespace in (self.encoder, self.transition, self.mode):
            out.update(table.get(namespace, {}) if isinstance(namespace, str) else {})
        return out

    def to_dict(self) -> dict[str, Any]:
        """Every key with its value: the core fields and the selected components' keys
        (flat); keys of components the run does not select are not part of it."""
        out = {f: getattr(self, f) for f in CORE_FIELDS}
        out.update({k: self._resolved(v) for k, v in self.component_keys().items()})
        return out

    @property
    def encoder_options(self) -> dict[str, Any]:
        """What the selected encoder's builder receives: the core encoder keys (hidden,
        depth, layers) and the encoder's own keys, explicit or default."""
        own = components.namespaces().get(self.encoder, {})
        return {
            "hidden": self.hidden,
            "depth": self.depth,
            "layers": self.layers,
            **{k: self._resolved(v) for k, v in own.items()},
        }

    @property
    def objective_params(self) -> dict[str, Any]:
        """The selected objective's hyperparameters, explicit or default."""
        own = components.namespaces().get(self.mode, {})
        return {k: self._resolved(v) for k, v in own.items()}

    @property
    def objective(self) -> str:
        """The selected objective's name: ``mode``, under the name the report uses (a
        config may give either key)."""
        return self.mode

    @property
    def objective_class(self) -> Any:
        """The selected objective's registered class: what it declares of itself (its
        views, whether it takes actions) is read from it, never from its name."""
        return components.component("objective", self.mode)

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
        they are: :mod:`lejepa_id.config.limits`.
        """
        values = self.to_dict()
        for key, value in values.items():
            if key in CORE_FIELDS:
                _check_type(key, value)
        _check_choice("mode", self.mode, components.names("objective"))
        _check_choice("transition", self.transition, transition_names())
        for key, value in {**values, **self.params}.items():
            if key not in CORE_FIELDS:
                _check_type(key, value, self._key_of(key))
        if self.mixing not in mixing_names():
            raise UsageError(
                f"mixing={self.mixing!r} is not one of {', '.join(mixing_names())} (a mixing "
                "of your own: register it in a plugin and pass --plugin FILE)"
            )
        _check_choice("coupling_draw", self.coupling_draw, COUPLING_DRAWS)
        _check_choice("inits_over", self.inits_over, INITS_OVER)
        if self.law not in law_names():
            raise UsageError(
                f"law={self.law!r} is not one of {', '.join(law_names())} (a law of your "
                "own: register it in a plugin and pass --plugin FILE)"
            )
        _check_choice("encoder", self.encoder, encoder_names())
        check_device(self.device)
        limits.check_finite(values, _float_keys(values))
        self._validate_rho()
        self._validate_transition()
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
        limits.check_eval_size(self.eval_size, self.dim)
        check_memory(self)
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

    def _key_of(self, key: str) -> ComponentKey:
        """The component key an explicit or resolved name refers to for this run."""
        return components.lookup(key) or self.component_keys().get(key) or components.owners(key)[0]

    def _validate_transition(self) -> None:
        own = self.component_keys()
        for key in self.params:
            owner = components.lookup(key) or own.get(key)
            kind = components.owners(key)[0].kind if components.owners(key) else ""
            if owner is None and kind in ("transition", "encoder"):
                where = ", ".join(k.namespace for k in components.owners(key))
                selected = self.transition if kind == "transition" else self.encoder
                raise UsageError(
                    f"{key}={self.params[key]!r} is a key of {kind} {where} only, not {selected}"
                )
        transition_class(self.transition).validate_config(self)

    def _validate_objectives(self) -> None:
        # Each objective checks its own keys, also those given for other objectives of a
        # sweep's shared defaults (--set sigma=-1 is wrong for every run).
        components.build("objective", self.mode, **self.objective_params)
        for key, value in self.params.items():
            owner = self._key_of(key)
            if owner.kind == "objective" and owner.namespace != self.mode:
                try:
                    components.build("objective", owner.namespace, **{owner.name: value})
                except UsageError as exc:
                    # Name the key as it was given: "barlow.lam=0.0 ...", not "lam=0.0 ...".
                    raise UsageError(
                        f"{owner.namespace}.{exc}" if "." in key else str(exc)
                    ) from None
        components.component("objective", self.mode).validate_config(self)

    def _validate_named_mixing(self) -> None:
        if self.mixing in TWO_D_MIXINGS and self.dim != 2:
            raise UsageError(f"dim={self.dim!r}: mixing {self.mixing} is defined for dim = 2 only")
        if self.mixing == "coupling" and self.dim % 2:
            raise UsageError(f"dim={self.dim!r} must be even for the coupling mixing")
        if self.mixing == "coupling" and self.coupling_draw == "published_cuda":
            self._validate_recorded_world()
        if self.obs_size != self.dim and self.mixing in MIXING_NAMES and self.mixing != "linear":
            raise UsageError(
                f"obs_dim={self.obs_dim!r}: mixing {self.mixing} keeps D = dim = {self.dim}; "
                "only the linear mixing embeds in a larger space"
            )

    def _validate_recorded_world(self) -> None:
        on_cuda = is_cuda(self.device) or (self.device == "auto" and torch.cuda.is_available())
        seed = self.resolved_mixing_seed
        if not on_cuda and not has_recorded_world(self.dim, self.layers, seed):
            raise UsageError(
                f"coupling_draw='published_cuda' without CUDA has no recorded world for "
                f"dim={self.dim}, layers={self.layers}, seed={seed}: recorded are {RECORDED} "
                "(use a CUDA device, or coupling_draw='published')"
            )

    def _validate_sizes(self) -> None:
        for key, low in (("obs_dim", self.dim), ("code_dim", 1)):
            value = getattr(self, key)
            if value is not None and not low <= value <= limits.INT_RANGES["dim"][1]:
                raise UsageError(
                    f"{key}={value!r} must lie in [{low}, {limits.INT_RANGES['dim'][1]:,}]"
                )
        # The encoder's own shape rule (a user's world may change D: the trainer asks again).
        problem = shape_problem(self.encoder, self.dim, self.obs_size, self.code_size)
        if problem is not None:
            raise UsageError(problem)

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
OBJECTIVE_ALIAS = "objective"
"""Accepted beside ``mode`` in configs, files and ``--set`` (records keep writing ``mode``,
so old records and configs read as they always did)."""


def _objective_as_mode(values: dict[str, Any]) -> dict[str, Any]:
    """``objective: X`` read as ``mode: X``; both, naming two objectives, is refused."""
    if OBJECTIVE_ALIAS not in values:
        return values
    values = dict(values)
    objective = values.pop(OBJECTIVE_ALIAS)
    if "mode" in values and values["mode"] != objective:
        raise UsageError(
            f"objective={objective!r} and mode={values['mode']!r} name two objectives; "
            "give one (objective is another name for mode)"
        )
    values["mode"] = objective
    return values


def run_keys() -> tuple[str, ...]:
    """Every flat key a run accepts: the core fields and every component's keys (each
    component key may also be qualified by its component's name: ``whiten.lam``)."""
    return CORE_FIELDS + tuple(k for k in components.flat_keys() if k not in CORE_FIELDS)


@functools.cache
def _core_types(key: str) -> tuple[type, ...]:
    hint = typing.get_type_hints(RunConfig)[key]
    args = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    return tuple(typing.get_origin(a) or a for a in args)  # list[float] -> list


def _allowed_types(key: str, owner: ComponentKey | None = None) -> tuple[type, ...]:
    if key in CORE_FIELDS:
        return _core_types(key)
    owner = owner or components.lookup(key) or components.owners(key)[0]
    return owner.types


def _float_keys(values: dict[str, Any]) -> tuple[str, ...]:
    return tuple(k for k, v in values.items() if isinstance(v, float))


def _check_type(key: str, value: Any, owner: ComponentKey | None = None) -> None:
    """The Python API's type check (files and --set values are coerced first)."""
    allowed = _allowed_types(key, owner)
    if value is None and type(None) in allowed:
        return
    ok = (
        (int in allowed and isinstance(value, int))
        or (float in allowed and isinstance(value, int | float))
        or (str in allowed and isinstance(value, str))
        or (list in allowed and _number_list(value))
    )
    if isinstance(value, bool) or not ok:
        raise UsageError(f"{key}={value!r} must be {_type_name(allowed)}")


def check_value_types(values: dict[str, Any]) -> None:
    """validate()'s type check alone, for the known keys of a mapping: RunConfig's
    constructor runs it on what it was given, and a run record read back runs it on its
    config, so a wrong type is refused at once (UsageError naming the key)."""
    keys = set(run_keys())
    for key, value in values.items():
        if key in keys:
            _check_type(key, value)


def _number_list(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


# Keys naming a registered component, and what a user's own is called in the hint.
PLUGGABLE = {"mode": "an objective", "transition": "a transition", "encoder": "an encoder"}


def _check_choice(key: str, value: Any, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        hint = (
            f" ({PLUGGABLE[key]} of your own: register it in a plugin and pass --plugin FILE)"
            if key in PLUGGABLE
            else ""
        )
        raise UsageError(f"{key}={value!r} is not one of {', '.join(allowed)}{hint}")


def _coerce_owner(key: str, overrides: dict[str, Any]) -> ComponentKey | None:
    """The component whose types a file's value for ``key`` is coerced to: the named one,
    the selected objective or transition when it owns the key, else its first owner."""
    if key in CORE_FIELDS:
        return None
    qualified = components.lookup(key)
    if qualified is not None:
        return qualified
    table = components.namespaces()
    selection = ("mode", "lejepa"), ("transition", "ou"), ("encoder", "mlp")
    for selected in (overrides.get(key, default) for key, default in selection):
        if isinstance(selected, str) and key in table.get(selected, {}):
            return table[selected][key]
    return components.owners(key)[0]


def _coerce(key: str, value: Any, owner: ComponentKey | None = None) -> Any:
    """Coerce a YAML value to the annotated type of config key ``key``."""
    allowed = _allowed_types(key, owner)
    if value is None and type(None) in allowed:
        return None
    if isinstance(value, bool):
        raise UsageError(f"{key}={value!r} must be {_type_name(allowed)}")
    if int in allowed:
        if isinstance(value, int):
            return value
        if isinstance(value, str) and str not in allowed:
            # YAML 1.1 reads 2e3 (no dot) as a string: an integral spelling is an integer.
            with contextlib.suppress(ValueError):
                value = float(value)
        if isinstance(value, float) and value.is_integer():
            return int(value)
    if float in allowed and isinstance(value, int | float | str):
        number = limits.yaml_number(value)
        if not isinstance(number, str):
            return float(number)
    if str in allowed and isinstance(value, str):
        return value
    if list in allowed and isinstance(value, list | tuple) and value:
        return [_coerce_number(key, v, allowed) for v in value]
    raise UsageError(f"{key}={value!r} must be {_type_name(allowed)}")


def _coerce_number(key: str, value: Any, allowed: tuple[type, ...]) -> float:
    if not isinstance(value, bool) and isinstance(value, int | float | str):
        try:
            return float(value)
        except ValueError:
            pass
    raise UsageError(f"{key}={value!r} must be {_type_name(allowed)}")


def _type_name(allowed: tuple[type, ...]) -> str:
    names = {
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a non-empty list of numbers",
        type(None): "null",
    }
    return " or ".join(names.get(t, f"a {t.__name__}") for t in allowed)


def make_run_config(overrides: dict[str, Any], where: str = "config") -> RunConfig:
    """RunConfig from a mapping of field overrides, each key and value checked."""
    if not isinstance(overrides, dict):
        raise UsageError(f"{where} must be a mapping of config keys, got {overrides!r}")
    overrides = _objective_as_mode(overrides)
    values = {}
    keys = run_keys()
    for key, value in overrides.items():
        if key not in keys and not (isinstance(key, str) and components.lookup(key)):
            raise UsageError(
                f"unknown config key {key!r} in {where}; allowed: {', '.join(keys)} "
                "(a component's key may be qualified, e.g. whiten.lam; load your own "
                "components' keys with --plugin)"
            )
        values[key] = _coerce(key, value, _coerce_owner(key, overrides))
    return RunConfig(**values).validate()
