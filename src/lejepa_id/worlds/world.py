"""A world: a latent law, a transition and a mixing, behind one sampling interface."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
from torch import nn

from lejepa_id.errors import UsageError
from lejepa_id.worlds.laws import LatentLaw, probe_law
from lejepa_id.worlds.mixings import as_mixing, is_named_mixing, mixing_label
from lejepa_id.worlds.probe import probe_mixing
from lejepa_id.worlds.transitions import OU, Transition


@dataclass
class World:
    """Latents z in R^n with i.i.d. coordinates, views by a transition, x = g(z) in R^D.

    Example:
        >>> world = World.make("spiral", dim=2, rho=0.95)
        >>> z = world.sample_latents(256, torch.Generator().manual_seed(0))
        >>> views = world.sample_views(z, 2, torch.Generator().manual_seed(1))  # (2, 256, 2)
        >>> x = world.render(views)
    """

    law: LatentLaw
    transition: Transition
    mixing: nn.Module
    dim: int
    """Latent dimension n."""

    def __post_init__(self) -> None:
        if isinstance(self.dim, bool) or not isinstance(self.dim, int) or self.dim < 1:
            raise UsageError(f"dim={self.dim!r} must be an integer >= 1")
        self.transition.check(self.dim)
        self._obs_dim: int | None = None
        self._probed = False

    def checked(self) -> World:
        """This world with a user's mixing checked once on a probe batch (shape, dtype,
        device, finiteness: :mod:`lejepa_id.worlds.probe`) and a plugin's law on a probe
        draw (:func:`~lejepa_id.worlds.laws.probe_law`); built-in ones are trusted."""
        if not self._probed:
            probe_law(self.law, self.dim)
        if not self._probed and not is_named_mixing(self.mixing):
            self.mixing = probe_mixing(self.mixing, self.dim)
            self._obs_dim = None
        self._probed = True
        return self

    @classmethod
    def make(
        cls,
        mixing: str | nn.Module | Callable[[torch.Tensor], torch.Tensor] = "spiral",
        dim: int = 2,
        rho: float | Sequence[float] = 0.95,
        law: str = "gaussian",
        alpha: float = 2.0,
        layers: int = 4,
        mixing_seed: int = 0,
        coupling_draw: str = "float64",
        device: torch.device | str | None = None,
        obs_dim: int | None = None,
        transition: Transition | None = None,
    ) -> World:
        """Build a world from names (or a callable mixing) and numbers.

        ``rho`` sets the OU transition (one value, or one per coordinate) unless a
        ``transition`` is given. ``obs_dim`` is D for the mixings that embed R^n in a
        larger space (``linear``); ``coupling_draw`` and ``device`` choose how a coupling
        mixing's weights are drawn (:func:`~lejepa_id.worlds.mixings.coupling_weights`).
        """
        if isinstance(mixing, str):
            g = as_mixing(
                mixing,
                dim=dim,
                layers=layers,
                seed=mixing_seed,
                draw=coupling_draw,
                device=device,
                obs_dim=obs_dim,
            )
            # A plugin's registered mixing is probed like any user callable; a built-in
            # one is trusted (checked() skips it).
            return cls(LatentLaw(law, alpha), transition or OU(rho), g, dim).checked()
        world = cls(LatentLaw(law, alpha), transition or OU(rho), as_mixing(mixing), dim)
        return world.checked()

    @property
    def obs_dim(self) -> int:
        """Observation dimension D, read off the mixing's output (any callable works).

        The probe is made where the mixing's weights are: reading D leaves the mixing on
        its device (a run on a GPU keeps its world there)."""
        if self._obs_dim is None:
            held = next(itertools.chain(self.mixing.parameters(), self.mixing.buffers()), None)
            device = held.device if held is not None else torch.device("cpu")
            probe = torch.zeros(1, self.dim, device=device)
            with torch.no_grad():
                self._obs_dim = int(self.mixing(probe).shape[-1])
        return self._obs_dim

    @property
    def mixing_name(self) -> str:
        """The mixing's name: a named mixing's, else the user callable's own name."""
        return mixing_label(self.mixing)

    def correlations(self) -> torch.Tensor:
        """Corr(z_i, z'_i) per coordinate under the transition. Shape: -> (n,) float64."""
        return self.transition.correlations(self.dim)

    def bound_rho(self) -> float:
        """The one correlation Theorem 3 uses; NaN for a transition without one."""
        return self.transition.bound_rho(self.dim)

    def sample_latents(self, count: int, generator: torch.Generator) -> torch.Tensor:
        """``count`` latents drawn from the law. Shape: -> (count, n)."""
        return self.law.sample((count, self.dim), generator)

    def sample_views(
        self,
        z: torch.Tensor,
        n_views: int,
        generator: torch.Generator,
        actions: torch.Tensor | None = None,
    ) -> torch.Tensor:
        """Independent views of z by the transition. Shape: z (B, n) -> (n_views, B, n)."""
        return self.transition.views(z, n_views, self.law, generator, actions)

    @torch.no_grad()
    def render(self, z: torch.Tensor) -> torch.Tensor:
        """Observations x = g(z). Shape: (..., n) -> (..., D)."""
        self.mixing.to(z.device)
        return self.mixing(z)
