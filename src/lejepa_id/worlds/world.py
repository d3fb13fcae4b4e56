"""A world: latent law, OU transition and mixing, behind one sampling interface."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import nn

from lejepa_id.worlds.laws import LatentLaw
from lejepa_id.worlds.mixings import as_mixing
from lejepa_id.worlds.transitions import ou_views


@dataclass
class World:
    """Latents z with i.i.d. coordinates, positive views by the OU channel, x = g(z).

    Example:
        >>> world = World.make("spiral", dim=2, rho=0.95)
        >>> z = world.sample_latents(256, torch.Generator().manual_seed(0))
        >>> views = world.sample_views(z, 2, torch.Generator().manual_seed(1))  # (2, 256, 2)
        >>> x = world.render(views)
    """

    law: LatentLaw
    mixing: nn.Module
    dim: int
    rho: float = 0.95

    def __post_init__(self) -> None:
        if not 0.0 < self.rho < 1.0:
            raise ValueError(f"rho={self.rho!r} must lie in the open interval (0, 1)")

    @classmethod
    def make(
        cls,
        mixing: str | nn.Module | Callable[[torch.Tensor], torch.Tensor] = "spiral",
        dim: int = 2,
        rho: float = 0.95,
        law: str = "gaussian",
        alpha: float = 2.0,
        layers: int = 4,
        mixing_seed: int = 0,
        coupling_draw: str = "float64",
        device: torch.device | str | None = None,
    ) -> World:
        """Build a world from names (or a callable mixing) and numbers.

        ``coupling_draw`` and ``device`` choose how a coupling mixing's weights are drawn
        (:func:`~lejepa_id.worlds.mixings.coupling_weights`).
        """
        if isinstance(mixing, str):
            g = as_mixing(
                mixing,
                dim=dim,
                layers=layers,
                seed=mixing_seed,
                draw=coupling_draw,
                device=device,
            )
        else:
            g = as_mixing(mixing)
        return cls(LatentLaw(law, alpha), g, dim, rho)

    def sample_latents(self, n: int, generator: torch.Generator) -> torch.Tensor:
        """Shape: -> (n, N)."""
        return self.law.sample((n, self.dim), generator)

    def sample_views(
        self, z: torch.Tensor, n_views: int, generator: torch.Generator
    ) -> torch.Tensor:
        """Independent OU views of z. Shape: z (B, N) -> (n_views, B, N)."""
        return ou_views(z, self.rho, self.law, n_views, generator)

    @torch.no_grad()
    def render(self, z: torch.Tensor) -> torch.Tensor:
        """Observations x = g(z). Shape: (..., N) -> (..., N)."""
        self.mixing.to(z.device)
        return self.mixing(z)
