"""Objectives as components: a pure loss plus the dataclass of its own hyperparameters.

An objective is a frozen dataclass whose fields are its hyperparameters (each with a
default and a docstring); :meth:`Objective.validate` checks them and :meth:`Objective.loss`
maps the view tensor to a loss. Registered by name with :func:`register_objective`, it is
selected by a run's ``mode`` key, and its fields become keys of every run config. The
engine never names an objective: it builds one by name and calls it with keywords.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import torch

from lejepa_id.errors import UsageError

_OBJECTIVES: dict[str, type[Objective]] = {}


@dataclass(frozen=True)
class Objective:
    """Base class. Subclasses add their hyperparameters as dataclass fields."""

    name: ClassVar[str]
    views: ClassVar[int | None] = None
    """The exact number of views the loss needs (None: any number >= 2)."""
    per_run: ClassVar[tuple[str, ...]] = ()
    """Hyperparameters that may differ between runs trained in one stack: the engine
    passes them to :meth:`loss` as tensors of shape (R,) instead of the field's value."""

    def validate(self) -> Objective:
        """Raise UsageError naming the first bad hyperparameter; return self."""
        return self

    def draw(self, code_dim: int, generator: torch.Generator, steps: int) -> torch.Tensor | None:
        """Randomness the loss needs for ``steps`` steps (None: it needs none).

        Shape: -> (steps, ...); the engine hands one step's slice to :meth:`loss`.
        """
        return None

    def module(self, config: Any, members: int) -> torch.nn.Module | None:
        """Trainable parameters the loss owns, stacked over ``members`` (None: it owns
        none). The engine optimizes them with the encoder's, passes them to :meth:`loss`
        as ``module``, and a run saves their weights under ``objective.``."""
        return None

    def loss(
        self,
        H: torch.Tensor,
        draw: torch.Tensor | None = None,
        generator: torch.Generator | None = None,
        **per_run: torch.Tensor,
    ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        """The loss and its named (detached) terms.

        ``draw`` is this step's slice of :meth:`draw`; an objective that needs randomness
        and gets none draws it from ``generator``. Besides the per-run hyperparameters,
        the keywords hold what the data source hands over with a batch (``actions`` in an
        action world) and, for an objective with one, its :meth:`module`.

        Shape:
            H: (..., V, B, m) -> loss (...), terms {name: (...)}
        """
        raise NotImplementedError

    def value(self, key: str, per_run: dict[str, torch.Tensor]) -> Any:
        """A hyperparameter: the stacked runs' tensor when given, else the field."""
        return per_run.get(key, getattr(self, key))


def register_objective(name: str) -> Callable[[type[Objective]], type[Objective]]:
    """Class decorator: make an Objective subclass selectable as ``mode: name``."""

    def add(cls: type[Objective]) -> type[Objective]:
        cls.name = name
        _OBJECTIVES[name] = cls
        param_fields.cache_clear()
        return cls

    return add


def objective_names() -> tuple[str, ...]:
    return tuple(_OBJECTIVES)


def objective_class(name: str) -> type[Objective]:
    if name not in _OBJECTIVES:
        raise UsageError(f"mode={name!r} is not one of {', '.join(_OBJECTIVES)}")
    return _OBJECTIVES[name]


def build_objective(name: str, **params: Any) -> Objective:
    """The objective ``name`` with the given hyperparameters (others at their defaults);
    keys the objective does not have are ignored, so one flat run config serves all."""
    cls = objective_class(name)
    own = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in params.items() if k in own}).validate()


@dataclass(frozen=True)
class ParamField:
    """A hyperparameter key of some registered objective: its types and default."""

    name: str
    types: tuple[type, ...]
    default: Any
    owners: tuple[str, ...]


@typing.no_type_check
def _field_types(cls: type[Objective], name: str) -> tuple[type, ...]:
    hint = typing.get_type_hints(cls)[name]
    args = typing.get_args(hint)
    return args if args else (hint,)


def _collect() -> dict[str, ParamField]:
    out: dict[str, ParamField] = {}
    for name, cls in _OBJECTIVES.items():
        for f in dataclasses.fields(cls):
            known = out.get(f.name)
            if known is not None and known.default != f.default:
                raise UsageError(
                    f"objectives {known.owners[0]} and {name} give {f.name} different defaults"
                )
            owners = (known.owners if known else ()) + (name,)
            out[f.name] = ParamField(f.name, _field_types(cls, f.name), f.default, owners)
    return out


class _Cache:
    """The union of every registered objective's fields, rebuilt after a registration."""

    value: dict[str, ParamField] | None = None

    def __call__(self) -> dict[str, ParamField]:
        if self.value is None:
            self.value = _collect()
        return self.value

    def cache_clear(self) -> None:
        self.value = None


param_fields = _Cache()
"""``param_fields()``: hyperparameter name -> :class:`ParamField`, over all objectives."""
