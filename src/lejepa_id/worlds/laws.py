"""Latent laws: i.i.d. coordinates with zero mean and unit variance (docs/model.md, section 2).

Every sampler takes an explicit ``torch.Generator`` so that a run's randomness is
fully determined by its seed and never by global state. Every name a run's ``law`` key
may take is registered with :func:`register_law`, the built-in ones too, so a plugin's
``@register_law("uniform")`` makes ``law: uniform`` a config value (docs/extending.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from lejepa_id.errors import UsageError, check_registration, origin

LAW_NAMES = ("gaussian", "laplace", "gennorm")
"""The built-in laws (trusted: never probed); :func:`law_names` adds the plugins'."""

LawSampler = Callable[..., torch.Tensor]
_LAWS: dict[str, LawSampler] = {}


def register_law(name: str, override: bool = False) -> Callable[[LawSampler], LawSampler]:
    """Decorator: make ``sampler`` the latent law a run selects with ``law: name``.

    The world calls ``sampler(shape, generator, dtype=..., alpha=...)`` (take the keywords
    you use and ``**_`` for the rest; ``alpha`` is the run's ``alpha`` key, a shape
    parameter a law may read) and expects a floating tensor of exactly ``shape`` drawn
    from ``generator`` on its device: i.i.d. coordinates of zero mean and unit variance
    (the OU transition keeps such a law's variance). A plugin's law is checked once on a
    probe draw before anything trains on it (:func:`probe_law`). A name already
    registered (a built-in's too) is refused in one line naming both origins, unless
    ``override=True`` says the replacement is meant."""

    def add(sampler: LawSampler) -> LawSampler:
        existing = _LAWS.get(name)
        check_registration("law", name, existing, sampler, override, "register_law")
        _LAWS[name] = sampler
        return sampler

    return add


def law_names() -> tuple[str, ...]:
    """Every law a config may name: the built-in ones, then the plugins', in the order
    they were registered."""
    return tuple(_LAWS)


@dataclass(frozen=True)
class LatentLaw:
    """A per-coordinate law with zero mean and unit variance.

    ``name`` is a registered law (:func:`law_names`); ``alpha`` is the generalized-normal
    shape (used by ``gennorm``, and by a plugin law that reads it; ``alpha = 2`` is the
    Gaussian, ``alpha = 1`` the Laplace).
    """

    name: str = "gaussian"
    alpha: float = 2.0

    def __post_init__(self) -> None:
        if self.name not in _LAWS:
            raise UsageError(
                f"law={self.name!r} is not one of {', '.join(_LAWS)} (a law of your own: "
                "register it in a plugin and pass --plugin FILE)"
            )
        if not self.alpha > 0 or not math.isfinite(self.alpha):
            raise UsageError(f"alpha={self.alpha!r} must be a finite number > 0")

    @property
    def is_gaussian(self) -> bool:
        """The standard normal law (gennorm with alpha = 2 is one too)."""
        return self.name == "gaussian" or (self.name == "gennorm" and self.alpha == 2.0)

    @property
    def is_builtin(self) -> bool:
        """One of this package's laws (known sound, never probed)."""
        return self.name in LAW_NAMES and _LAWS[self.name].__module__ == __name__

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
        drawn = _LAWS[self.name](tuple(shape), generator, dtype=dtype, alpha=self.alpha)
        return drawn if drawn.dtype == dtype else drawn.to(dtype)


@register_law("gaussian")
def _gaussian(shape: tuple[int, ...], generator: torch.Generator, dtype: torch.dtype, **_: Any):
    return torch.randn(shape, generator=generator, device=generator.device, dtype=dtype)


def _signed_uniform(shape: tuple[int, ...], generator: torch.Generator):
    """A random sign and an independent uniform on [0, 1), from one float64 uniform."""
    # The non-Gaussian laws are drawn by exact inverse-CDF transforms of uniforms, so
    # they consume the explicit generator like every other sampler.
    u = torch.rand(shape, generator=generator, device=generator.device, dtype=torch.float64)
    sign = torch.where(u < 0.5, -1.0, 1.0)
    return sign, (2.0 * u - 1.0).abs()


@register_law("laplace")
def _laplace(shape: tuple[int, ...], generator: torch.Generator, dtype: torch.dtype, **_: Any):
    sign, v = _signed_uniform(shape, generator)
    return (sign * (-torch.log1p(-v) / math.sqrt(2.0))).to(dtype)


@register_law("gennorm")
def _gennorm(
    shape: tuple[int, ...], generator: torch.Generator, dtype: torch.dtype, alpha: float, **_: Any
):
    # |X| = beta * G^(1/alpha), G ~ Gamma(1/alpha, 1): the inverse of the regularized
    # lower incomplete gamma function maps a uniform to G exactly. SciPy is imported
    # here: only this law needs it, and it costs every run's start.
    from scipy import special

    sign, v = _signed_uniform(shape, generator)
    g = special.gammaincinv(1.0 / alpha, v.cpu().numpy())
    g_t = torch.from_numpy(g).to(generator.device)
    magnitude = LatentLaw("gennorm", alpha).gennorm_scale * g_t.pow(1.0 / alpha)
    return (sign * magnitude).to(dtype)


PROBE_COUNT = 64  # latents drawn by a plugin law's probe


def probe_law(law: LatentLaw, dim: int) -> None:
    """Draw a plugin law once on a probe shape (``PROBE_COUNT`` latents of ``dim``
    coordinates) and refuse, in one line naming it, a sampler that fails or returns
    anything but a finite floating tensor of that exact shape on the generator's device."""
    if law.is_builtin:
        return
    sampler = _LAWS[law.name]
    shape = (PROBE_COUNT, dim)
    gen = torch.Generator().manual_seed(0)
    where = f"law {law.name!r} ({origin(sampler)})"
    try:
        x = sampler(shape, gen, dtype=torch.float32, alpha=law.alpha)
    except Exception as exc:  # noqa: BLE001 - the user's sampler, any error
        first = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
        raise UsageError(f"{where} failed on a probe draw of shape {shape}: {first}") from None
    if not isinstance(x, torch.Tensor):
        raise UsageError(
            f"{where} returned a {type(x).__module__}.{type(x).__name__}; it must return a "
            "torch.Tensor of the shape asked for"
        )
    if tuple(x.shape) != shape:
        raise UsageError(
            f"{where} drew shape {tuple(x.shape)} when asked for {shape}; it must return "
            "exactly the shape asked for (one value per latent coordinate)"
        )
    if not x.dtype.is_floating_point:
        raise UsageError(
            f"{where} returned {str(x.dtype).removeprefix('torch.')} values; it must return "
            "floating point ones"
        )
    if x.device != gen.device:
        raise UsageError(
            f"{where} returned a tensor on {x.device} for a generator on {gen.device}; it "
            "must draw on the generator's device"
        )
    if not bool(torch.isfinite(x).all()):
        raise UsageError(f"{where} returned NaN or infinite values on a probe draw of {shape}")
