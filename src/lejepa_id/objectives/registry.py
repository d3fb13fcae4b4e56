"""Objectives as components: a pure loss plus the dataclass of its own hyperparameters.

An objective is a frozen dataclass whose fields are its hyperparameters (each with a
default and a docstring); :meth:`Objective.validate` checks them and :meth:`Objective.loss`
maps the view tensor to a loss. Registered by name with :func:`register_objective`, it is
selected by a run's ``mode`` key, and its fields are that run's config keys, in the
objective's own namespace (:mod:`lejepa_id.config.components`). The
engine never names an objective: it builds one by name and calls it with keywords.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import torch

from lejepa_id.config import components
from lejepa_id.errors import UsageError


@dataclass(frozen=True)
class Objective:
    """Base class. Subclasses add their hyperparameters as dataclass fields."""

    name: ClassVar[str]
    views: ClassVar[int | None] = None
    """The exact number of views the loss needs (None: any number >= 2)."""
    label: ClassVar[str] = ""
    """How figures and reports name it (empty: its registered name)."""
    color: ClassVar[str] = ""
    """Its matplotlib colour in figures (empty: one from a fixed palette)."""
    order: ClassVar[int] = 100
    """Where figures and tables put it among the objectives, lowest first (the paper's
    lejepa, whiten, infonce are 0, 1, 2); equal ones keep their registration order."""
    takes_actions: ClassVar[bool] = False
    """Whether the loss reads the ``actions`` an action world hands over with a batch (a
    transition that takes actions asks for an objective that does)."""
    per_run: ClassVar[tuple[str, ...]] = ()
    """Hyperparameters that may differ between runs trained in one stack: the engine
    passes them to :meth:`loss` as tensors of shape (R,) instead of the field's value."""

    def validate(self) -> Objective:
        """Raise UsageError naming the first bad hyperparameter; return self."""
        return self

    @classmethod
    def validate_config(cls, config: Any) -> None:
        """Raise UsageError (one line) when a run config cannot train this objective
        (its views, world or sizes); called by ``RunConfig.validate``."""
        if cls.views is not None and config.views != cls.views:
            raise UsageError(
                f"views={config.views!r}: mode {cls.name} needs exactly {cls.views} views"
            )

    def final_scores(
        self, module: dict[str, Any] | None, z: Any, h: Any, world: Any
    ) -> dict[str, float]:
        """Scores of one run at its end that only this objective can compute (of its own
        parameters, say): ``module`` is that run's slice of :meth:`module`'s weights as
        float64 arrays (None without one), ``z`` (N, n) and ``h`` (N, m) float64 arrays of
        its evaluation set, ``world`` its :class:`~lejepa_id.worlds.World`. Register each
        name with ``declare_metric``. None by default."""
        return {}

    def memory_floats(self, config: Any) -> int:
        """Floats per stacked member the loss keeps beyond the codes (for memory
        estimates); 0 by default."""
        return 0

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


def register_objective(
    name: str, override: bool = False
) -> Callable[[type[Objective]], type[Objective]]:
    """Class decorator: make an Objective subclass selectable as ``mode: name``.

    A name already registered (a built-in, another plugin) is refused in one line naming
    both origins, unless ``override=True`` says the replacement is meant."""

    def add(cls: type[Objective]) -> type[Objective]:
        components.register("objective", name, cls, override, "register_objective")
        cls.name = name
        return cls

    return add


def objective_names() -> tuple[str, ...]:
    """The registered objectives, in registration order."""
    return components.names("objective")


def objective_class(name: str) -> type[Objective]:
    """The objective class registered as ``name`` (UsageError naming ``mode`` if none)."""
    cls: type[Objective] = components.component("objective", name)
    return cls


def build_objective(name: str, **params: Any) -> Objective:
    """The objective ``name`` with the given hyperparameters (others at their defaults);
    keys the objective does not have are ignored, so one flat run config serves all."""
    objective: Objective = components.build("objective", name, **params)
    return objective
