"""Latent laws: i.i.d. coordinates with zero mean and unit variance (docs/model.md, section 2).

Every sampler takes an explicit ``torch.Generator`` so that a run's randomness is
fully determined by its seed and never by global state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from lejepa_id.errors import UsageError

LAW_NAMES = ("gaussian", "laplace", "gennorm")


@dataclass(frozen=True)
class LatentLaw:
    """A per-coordinate law with zero mean and unit variance.

    ``name`` is one of :data:`LAW_NAMES`; ``alpha`` is the generalized-normal shape
    (used only by ``gennorm``; ``alpha = 2`` is the Gaussian, ``alpha = 1`` the Laplace).
    """

    name: str = "gaussian"
    alpha: float = 2.0

    def __post_init__(self) -> None:
        if self.name not in LAW_NAMES:
            raise UsageError(f"law={self.name!r} is not one of {', '.join(LAW_NAMES)}")
        if not self.alpha > 0 or not math.isfinite(self.alpha):
            raise UsageError(f"alpha={self.alpha!r} must be a finite number > 0")

    @property
    def is_gaussian(self) -> bool:
        """The standard normal law (gennorm with alpha = 2 is one too)."""
        return self.name == "gaussian" or (self.name == "gennorm" and self.alpha == 2.0)

    @property
    def gennorm_scale(self) -> float:
        """The scale beta = sqrt(Gamma(1/alpha) / Gamma(3/alpha)) that gives unit variance."""
        a = self.alpha
        return math.exp(0.5 * (math.lgamma(1.0 / a) - math.lgamma(3.0 / a)))

    def sample(
        self,
        shape: tuple[int, ...],
        generator: torch.Generator,
        dtype: torch.dtype = torch.float32,
    ) -> torch.Tensor:
        """Draw i.i.d. samples of the given shape on the generator's device."""
        device = generator.device
        if self.name == "gaussian":
            return torch.randn(shape, generator=generator, device=device, dtype=dtype)
        # Both non-Gaussian laws are drawn by exact inverse-CDF transforms of uniforms, so
        # they consume the explicit generator like every other sampler.
        u = torch.rand(shape, generator=generator, device=device, dtype=torch.float64)
        sign = torch.where(u < 0.5, -1.0, 1.0)
        v = (2.0 * u - 1.0).abs()  # uniform on [0, 1), independent of the sign
        if self.name == "laplace":
            magnitude = -torch.log1p(-v) / math.sqrt(2.0)
        else:
            # |X| = beta * G^(1/alpha), G ~ Gamma(1/alpha, 1): the inverse of the regularized
            # lower incomplete gamma function maps a uniform to G exactly. SciPy is
            # imported here: only this law needs it, and it costs every run's start.
            from scipy import special

            g = special.gammaincinv(1.0 / self.alpha, v.cpu().numpy())
            g_t = torch.from_numpy(g).to(device)
            magnitude = self.gennorm_scale * g_t.pow(1.0 / self.alpha)
        return (sign * magnitude).to(dtype)
