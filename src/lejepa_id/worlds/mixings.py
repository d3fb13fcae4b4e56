"""Invertible mixings g: the world's "renderer" from latents z to observations x.

A mixing is any callable mapping latents of shape (..., n) to observations of shape
(..., D), D >= n. The named ones below follow docs/model.md, section 2 (D = n), plus ``linear``,
an isometric embedding of R^n in R^D; :func:`as_mixing` also accepts any user-supplied
torch callable. Every name a run's ``mixing`` key may take is registered with
:func:`register_mixing`, the built-in ones too, so a plugin's ``@register_mixing("swirl")``
makes ``mixing: swirl`` a config value (see docs/extending.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from lejepa_id.errors import UsageError, check_registration, origin
from lejepa_id.worlds.cuda_worlds import recorded_world

MIXING_NAMES = ("spiral", "banana", "sinusoid", "coupling", "linear")
"""The built-in mixings (trusted: never probed); :func:`mixing_names` adds the plugins'."""

MixingBuilder = Callable[..., Any]
_MIXINGS: dict[str, MixingBuilder] = {}


def register_mixing(name: str, override: bool = False) -> Callable[[MixingBuilder], MixingBuilder]:
    """Decorator: make ``builder`` the mixing a run selects with ``mixing: name``.

    The world calls ``builder(dim=n, seed=s, obs_dim=D, layers=L, draw=d, device=dev)``
    (the run's ``dim``, ``resolved_mixing_seed``, ``obs_dim`` (None: D = n), ``layers``,
    ``coupling_draw`` and device; take the ones you use and ``**_`` for the rest) and
    renders with what it returns: an ``nn.Module`` or any torch callable mapping
    (..., n) to (..., D). A plugin's mixing is checked once on a probe batch before
    anything trains on it (:mod:`lejepa_id.worlds.probe`). A name already registered (a
    built-in's too) is refused in one line naming both origins, unless ``override=True``
    says the replacement is meant."""

    def add(builder: MixingBuilder) -> MixingBuilder:
        existing = _MIXINGS.get(name)
        check_registration("mixing", name, existing, builder, override, "register_mixing")
        _MIXINGS[name] = builder
        return builder

    return add


def mixing_names() -> tuple[str, ...]:
    """Every mixing a config may name: the built-in ones, then the plugins', in the order
    they were registered."""
    return tuple(_MIXINGS)


COUPLING_DRAWS = ("float64", "published", "published_cuda")


class Spiral(nn.Module):
    """Rotate z by the angle pi * |z| (n = 2); measure preserving."""

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        angle = math.pi * z.norm(dim=-1, keepdim=True)
        c, s = torch.cos(angle), torch.sin(angle)
        z0, z1 = z[..., :1], z[..., 1:]
        return torch.cat([c * z0 - s * z1, s * z0 + c * z1], dim=-1)


class Banana(nn.Module):
    """x0 = z0, x1 = z1 + z0^2 (n = 2)."""

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        z0, z1 = z[..., :1], z[..., 1:]
        return torch.cat([z0, z1 + z0 * z0], dim=-1)


class Sinusoid(nn.Module):
    """x0 = z0 + sin(1.5 z1), x1 = z1 (n = 2)."""

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        z0, z1 = z[..., :1], z[..., 1:]
        return torch.cat([z0 + torch.sin(1.5 * z1), z1], dim=-1)


def coupling_weights(
    dim: int,
    layers: int,
    seed: int,
    draw: str = "float64",
    device: torch.device | str | None = None,
) -> torch.Tensor:
    """The coupling mixing's weights: ``layers`` random orthogonal (n/2 x n/2) matrices times 2.

    Each is the Q factor of the QR decomposition of a Gaussian matrix. Two draws:

    - ``float64``: all layers at once in float64 from a CPU generator seeded with ``seed``
      (device independent, so a CPU and a GPU run see the same world);
    - ``published``: the published code's procedure, on ``device``: a generator seeded with
      ``seed`` as ``torch.manual_seed(seed)`` seeds the device's default one, then per layer
      one float32 ``randn(n/2, n/2)`` on that device and its QR factor. These are the paper's
      worlds only on the device they were drawn on: CUDA's random stream differs from the
      CPU's, so a CPU run gets the published procedure's CPU worlds, not the paper's.
    - ``published_cuda``: the worlds the published procedure gives on CUDA, the paper's
      own, on any device: drawn afresh on a CUDA device, read from the weights recorded on
      CUDA (:mod:`lejepa_id.worlds.cuda_worlds`) elsewhere.

    Q is deliberately not sign-corrected to a Haar draw: for N = 2 the 1 x 1 factor is
    then always +1 (every W_i = 2), the world of the paper's "nvp" runs. With Haar signs
    half of those worlds flip some layers, and a matched encoder initialized N(0, 1)
    often stalls in a sign-mismatched optimum (R^2 0.85 instead of 0.96 at 4,000 steps).

    Shape:
        -> (layers, n/2, n/2)
    """
    if dim < 2 or dim % 2:
        raise UsageError(f"dim={dim!r} must be an even number >= 2 for a coupling mixing")
    if layers < 1:
        raise UsageError(f"layers={layers!r} must be >= 1")
    if draw not in COUPLING_DRAWS:
        raise UsageError(f"coupling_draw={draw!r} is not one of {', '.join(COUPLING_DRAWS)}")
    half = dim // 2
    device = torch.device(device or "cpu")
    if draw == "published" or (draw == "published_cuda" and device.type == "cuda"):
        return _published_weights(half, layers, seed, device)
    if draw == "published_cuda":
        return recorded_world(dim, layers, seed).to(device)
    gen = torch.Generator().manual_seed(int(seed))
    gauss = torch.randn((layers, half, half), generator=gen, dtype=torch.float64)
    q, _ = torch.linalg.qr(gauss)
    return 2.0 * q


def _published_weights(half: int, layers: int, seed: int, device: torch.device) -> torch.Tensor:
    # One draw per layer matters: the CPU's normal sampler takes a different path for
    # tensors of 16 or more elements, so one (L, n, n) draw would not give the same numbers.
    gen = torch.Generator(device=device).manual_seed(int(seed))
    mats = []
    for _ in range(layers):
        gauss = torch.randn((half, half), generator=gen, device=device, dtype=torch.float32)
        q, _ = torch.linalg.qr(gauss)
        mats.append(2.0 * q)
    return torch.stack(mats)


class Coupling(nn.Module):
    """RealNVP-style additive coupling: L layers over the halves z = (a, b).

    Layer i adds tanh(a W_i) to b when i is even and tanh(b W_i) to a when i is odd.
    """

    weights: torch.Tensor  # (L, n/2, n/2), a buffer

    def __init__(
        self,
        dim: int,
        layers: int = 4,
        seed: int = 0,
        draw: str = "float64",
        device: torch.device | str | None = None,
    ) -> None:
        super().__init__()
        self.dim, self.layers, self.seed, self.draw = dim, layers, seed, draw
        weights = coupling_weights(dim, layers, seed, draw, device).float()
        self.register_buffer("weights", weights)

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        w = self.weights.to(z.dtype)
        # Contiguous halves: the elementwise updates on strided halves cost 5x more.
        a, b = (h.contiguous() for h in z.chunk(2, dim=-1))
        for i in range(self.layers):
            if i % 2 == 0:
                b = b + torch.tanh(a @ w[i])
            else:
                a = a + torch.tanh(b @ w[i])
        return torch.cat([a, b], dim=-1)

    def inverse(self, x: torch.Tensor) -> torch.Tensor:
        """The exact inverse: layers in reverse order, subtracting instead of adding."""
        w = self.weights.to(x.dtype)
        a, b = x.chunk(2, dim=-1)
        for i in reversed(range(self.layers)):
            if i % 2 == 0:
                b = b - torch.tanh(a @ w[i])
            else:
                a = a - torch.tanh(b @ w[i])
        return torch.cat([a, b], dim=-1)


class Linear(nn.Module):
    """x = M z with M (D x n) having orthonormal columns: an isometric embedding of R^n.

    M is the Q factor of a float64 Gaussian (D x n) matrix drawn from ``seed``, so the
    matched linear read-out M^T inverts it exactly. Shape: (..., n) -> (..., D).
    """

    matrix: torch.Tensor  # (D, n), a buffer

    def __init__(self, dim: int, obs_dim: int | None = None, seed: int = 0) -> None:
        super().__init__()
        obs_dim = dim if obs_dim is None else obs_dim
        if obs_dim < dim:
            raise UsageError(f"obs_dim={obs_dim!r} must be >= dim={dim} for the linear mixing")
        gen = torch.Generator().manual_seed(int(seed))
        q, _ = torch.linalg.qr(torch.randn((obs_dim, dim), generator=gen, dtype=torch.float64))
        self.register_buffer("matrix", q.float())

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        return z @ self.matrix.to(z.dtype).T


class CallableMixing(nn.Module):
    """Wrap a user-supplied callable (..., n) -> (..., D) as a mixing, keeping its name."""

    def __init__(self, fn: Callable[[torch.Tensor], torch.Tensor], name: str | None = None) -> None:
        super().__init__()
        self.fn = fn
        self.label: str = name or str(getattr(fn, "__name__", type(fn).__name__))

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        return self.fn(z)


def build_mixing(
    name: str,
    dim: int,
    layers: int = 4,
    seed: int = 0,
    draw: str = "float64",
    device: torch.device | str | None = None,
    obs_dim: int | None = None,
) -> nn.Module:
    """Build a registered mixing; the 2D ones require ``dim == 2``.

    ``draw`` and ``device`` choose how the coupling mixing's weights are drawn (see
    :func:`coupling_weights`); ``obs_dim`` is D for ``linear``, the one built-in mixing
    with D > n. A plugin's mixing comes back wrapped under its registered name, which
    its probe messages and the run's record use.
    """
    if name not in _MIXINGS:
        raise UsageError(f"mixing={name!r} is not one of {', '.join(_MIXINGS)}")
    builder = _MIXINGS[name]
    options = dict(dim=dim, seed=seed, obs_dim=obs_dim, layers=layers, draw=draw, device=device)
    if name in MIXING_NAMES:
        return builder(**options)
    try:
        made = builder(**options)
    except UsageError:
        raise
    except Exception as exc:  # noqa: BLE001 - the user's builder, any error
        first = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise UsageError(
            f"mixing {name!r} ({origin(builder)}) failed to build for dim={dim}: {first}"
        ) from None
    if not callable(made):
        raise UsageError(
            f"mixing {name!r} ({origin(builder)}) built a {type(made).__name__}; it must "
            "return an nn.Module or a callable mapping (..., n) to (..., D)"
        )
    return CallableMixing(made, name)


def _keeps_dim(name: str, dim: int, obs_dim: int | None) -> None:
    if obs_dim is not None and obs_dim != dim:
        raise UsageError(f"obs_dim={obs_dim!r}: the {name} mixing keeps D = dim = {dim}")


def _two_d(name: str, dim: int, obs_dim: int | None) -> None:
    _keeps_dim(name, dim, obs_dim)
    if dim != 2:
        raise UsageError(f"dim={dim!r}: the {name} mixing is defined for dim = 2 only")


@register_mixing("spiral")
def _spiral(dim: int, obs_dim: int | None = None, **_: Any) -> nn.Module:
    _two_d("spiral", dim, obs_dim)
    return Spiral()


@register_mixing("banana")
def _banana(dim: int, obs_dim: int | None = None, **_: Any) -> nn.Module:
    _two_d("banana", dim, obs_dim)
    return Banana()


@register_mixing("sinusoid")
def _sinusoid(dim: int, obs_dim: int | None = None, **_: Any) -> nn.Module:
    _two_d("sinusoid", dim, obs_dim)
    return Sinusoid()


@register_mixing("coupling")
def _coupling(
    dim: int,
    seed: int,
    layers: int,
    draw: str,
    device: torch.device | str | None,
    obs_dim: int | None = None,
) -> nn.Module:
    _keeps_dim("coupling", dim, obs_dim)
    return Coupling(dim, layers, seed, draw, device)


@register_mixing("linear")
def _linear(dim: int, seed: int, obs_dim: int | None = None, **_: Any) -> nn.Module:
    return Linear(dim, obs_dim, seed)


def as_mixing(
    mixing: str | nn.Module | Callable[[torch.Tensor], torch.Tensor], **kwargs
) -> nn.Module:
    """Accept a mixing name, an ``nn.Module`` or any torch callable."""
    if isinstance(mixing, str):
        return build_mixing(mixing, **kwargs)
    if isinstance(mixing, nn.Module):
        return mixing
    if callable(mixing):
        return CallableMixing(mixing)
    raise UsageError(f"mixing={mixing!r} is neither a mixing name nor a callable")


_LABELS = {Spiral: "spiral", Banana: "banana", Sinusoid: "sinusoid", Coupling: "coupling"}


def is_named_mixing(mixing: nn.Module) -> bool:
    """Whether ``mixing`` is one this package builds (and need not be probed)."""
    return type(mixing) in _LABELS or isinstance(mixing, Linear)


def mixing_label(mixing: nn.Module) -> str:
    """A mixing's name: the named mixing's, else the user callable's (or module class's)."""
    if isinstance(mixing, CallableMixing):
        return mixing.label
    if isinstance(mixing, Linear):
        return "linear"
    return _LABELS.get(type(mixing), type(mixing).__name__)
