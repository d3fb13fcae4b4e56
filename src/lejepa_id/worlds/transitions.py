"""Transitions: the channel turning a latent z into its positive views (docs/model.md, section 2).

A transition is a component of a :class:`~lejepa_id.worlds.World`. It samples views of a
batch of latents and reports what the metrics and the Theorem-3 bound need to know about
it: the correlation between a coordinate of z and the same coordinate of a view.
Register a new transition with :func:`register_transition`; the engine then builds it by
the name in a run's ``transition`` key (see docs/extending.md).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import torch

from lejepa_id.errors import UsageError, check_registration
from lejepa_id.worlds.laws import LatentLaw

_TRANSITIONS: dict[str, type[Transition]] = {}


class Transition(ABC):
    """Draws views z' of latents z: z' keeps the mean and covariance of z (for a Gaussian z,
    its law)."""

    name: ClassVar[str]
    keys: ClassVar[type | None] = None
    """A frozen dataclass whose fields (with defaults and docstrings) are config keys this
    transition adds (:mod:`lejepa_id.config.components`); None: it adds none."""
    stack_keys: ClassVar[tuple[str, ...]] = ()
    """Keys that runs must share to be trained in one stack (the size of what it hands
    the objective, such as the action dimension)."""
    takes_actions: ClassVar[bool] = False
    """Whether actions drive it (an objective that needs actions checks this)."""

    @abstractmethod
    def views(
        self,
        z: torch.Tensor,
        n_views: int,
        law: LatentLaw,
        generator: torch.Generator,
        actions: torch.Tensor | None = None,
    ) -> torch.Tensor:
        """Independent views of each latent, given the latent law (and optional actions).

        Shape:
            z: (B, n), actions: (n_views, B, k) or None -> (n_views, B, n)
        """

    @abstractmethod
    def correlations(self, dim: int) -> torch.Tensor:
        """Corr(z_i, z'_i) for each of the n coordinates. Shape: -> (n,) float64."""

    def check(self, dim: int) -> None:  # noqa: B027 (optional hook, no-op by default)
        """Raise ValueError when this transition cannot act on n = ``dim`` latents."""

    def action_size(self) -> int:
        """Dimension k of the actions that drive this transition (0: it takes none)."""
        return 0

    def bound_rho(self, dim: int) -> float:
        """The single correlation Theorem 3 is stated for; NaN when the coordinates differ
        (the theorem, and the bound the metrics report, assume one rho for all of them)."""
        rho = self.correlations(dim)
        return float(rho[0]) if bool((rho == rho[0]).all()) else math.nan

    @classmethod
    def validate_config(cls, config: Any) -> None:
        """Raise UsageError (one line, naming the key) when a run config's values do not
        fit this transition; called by ``RunConfig.validate`` for the selected one."""
        return None

    @classmethod
    def from_config(cls, config: Any) -> Transition:
        """Build from a run config (the engine's route); reads the keys it needs."""
        raise NotImplementedError(f"transition {cls.name!r} cannot be built from a config")


def register_transition(
    name: str, override: bool = False
) -> Callable[[type[Transition]], type[Transition]]:
    """Class decorator: make a Transition subclass buildable by ``name``; a name already
    registered is refused in one line naming both origins, unless ``override=True``."""

    def add(cls: type[Transition]) -> type[Transition]:
        existing = _TRANSITIONS.get(name)
        check_registration("transition", name, existing, cls, override, "register_transition")
        cls.name = name
        _TRANSITIONS[name] = cls
        return cls

    return add


def transition_names() -> tuple[str, ...]:
    return tuple(_TRANSITIONS)


def transition_class(name: str) -> type[Transition]:
    if name not in _TRANSITIONS:
        raise UsageError(f"transition={name!r} is not one of {', '.join(_TRANSITIONS)}")
    return _TRANSITIONS[name]


@register_transition("ou")
@dataclass(frozen=True)
class OU(Transition):
    """Ornstein-Uhlenbeck channel z' = rho z + sqrt(1 - rho^2) eta, eta drawn from the law.

    ``rho`` is one correlation for every coordinate (the paper's isotropic channel) or a
    sequence with one per coordinate (an anisotropic channel). The noise follows the latent
    law, so z' keeps zero mean and unit variance for every law (and the law of z exactly
    when it is Gaussian).
    """

    rho: float | Sequence[float] = 0.95

    def __post_init__(self) -> None:
        values = [self.rho] if isinstance(self.rho, int | float) else list(self.rho)
        if not values:
            raise UsageError("rho=[] must hold at least one correlation")
        for r in values:
            if isinstance(r, bool) or not isinstance(r, int | float) or not 0.0 < r < 1.0:
                raise UsageError(f"rho={r!r} must lie in the open interval (0, 1)")
        if not isinstance(self.rho, int | float):
            object.__setattr__(self, "rho", tuple(float(r) for r in values))

    @classmethod
    def from_config(cls, config: Any) -> OU:
        return cls(config.rho)

    def check(self, dim: int) -> None:
        if isinstance(self.rho, tuple) and len(self.rho) != dim:
            raise UsageError(f"rho lists {len(self.rho)} correlations for dim={dim} latents")

    def correlations(self, dim: int) -> torch.Tensor:
        self.check(dim)
        if isinstance(self.rho, int | float):
            return torch.full((dim,), float(self.rho), dtype=torch.float64)
        return torch.tensor(self.rho, dtype=torch.float64)

    def views(
        self,
        z: torch.Tensor,
        n_views: int,
        law: LatentLaw,
        generator: torch.Generator,
        actions: torch.Tensor | None = None,
    ) -> torch.Tensor:
        if actions is not None:
            raise UsageError("the ou transition takes no actions")
        eta = law.sample((n_views, *z.shape), generator, dtype=z.dtype)
        if isinstance(self.rho, int | float):
            # Scalar arithmetic, as in the published code, so isotropic worlds keep their
            # numbers.
            r = float(self.rho)
            return r * z.unsqueeze(0) + math.sqrt(1.0 - r * r) * eta
        rho = self.correlations(z.shape[-1])
        scale = torch.sqrt(1.0 - rho * rho)
        return rho.to(z) * z.unsqueeze(0) + scale.to(z) * eta
