"""A user's mixing, checked once on a probe batch before anything trains on it.

A named mixing is built by this package and known to be sound. A callable or module a
user passes (``World.make(my_fn)``, ``train(cfg, worlds=...)``) is run once on a few
latents shaped as training shapes them, ``(views, batch, n)``, and must return a
``torch.Tensor`` of shape ``(views, batch, D)`` with D >= n (an injective map cannot
have fewer observed dimensions than latents) on the latents' device, finite, of a
floating dtype the encoders take:

- float32: used as is;
- float64: cast to float32 with a warning (the encoders and the metrics work in
  float32; the cast loses only digits the float32 training would lose anyway);
- float16, bfloat16, integer, bool and complex outputs are refused: the first two
  would silently lose most digits of x, the others are not observations.

Every refusal is one :class:`~lejepa_id.errors.UsageError` line naming the mixing and
what it returned, instead of a traceback deep in the metrics or the encoders.
"""

from __future__ import annotations

import warnings

import torch
from torch import nn

from lejepa_id.errors import UsageError
from lejepa_id.worlds.mixings import CallableMixing, mixing_label

PROBE_SHAPE = (2, 8)  # (views, batch): the leading dimensions training passes
REFUSED_FLOATS = (torch.float16, torch.bfloat16)


class Float32Output(CallableMixing):
    """A float64 user mixing, its output cast to float32 (see the module docstring);
    it keeps the mixing's name for the run record."""

    def __init__(self, inner: nn.Module) -> None:
        super().__init__(inner, mixing_label(inner))

    def forward(self, z: torch.Tensor) -> torch.Tensor:
        return self.fn(z).to(torch.float32)


def probe_mixing(mixing: nn.Module, dim: int) -> nn.Module:
    """``mixing`` once checked on a probe batch (wrapped to cast a float64 output), or a
    one-line UsageError naming it and what it returned."""
    name = mixing_label(mixing)
    gen = torch.Generator().manual_seed(0)
    z = torch.randn(*PROBE_SHAPE, dim, generator=gen)
    mixing.to(z.device)  # as World.render does: a module follows the latents' device
    try:
        with torch.no_grad():
            x = mixing(z)
    except Exception as exc:  # noqa: BLE001 - any failure of user code is reported in one line
        first = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise UsageError(
            f"mixing {name!r} failed on a probe batch of shape {tuple(z.shape)}: {first}"
        ) from None
    if not isinstance(x, torch.Tensor):
        raise UsageError(
            f"mixing {name!r} returned a {type(x).__module__}.{type(x).__name__}; "
            "it must return a torch.Tensor (wrap NumPy code with torch.as_tensor)"
        )
    if x.ndim != z.ndim or tuple(x.shape[:-1]) != PROBE_SHAPE or x.shape[-1] < 1:
        raise UsageError(
            f"mixing {name!r} mapped latents of shape {tuple(z.shape)} to {tuple(x.shape)}; "
            f"it must map (..., {dim}) to (..., D), keeping the leading dimensions"
        )
    if x.shape[-1] < dim:
        # Fewer observed dimensions than latents: no encoder can recover z from x.
        raise UsageError(
            f"mixing {name!r} maps {dim} latents to {x.shape[-1]} observed dimension"
            f"{'s' if x.shape[-1] > 1 else ''}; an injective mixing needs D >= {dim}"
        )
    if x.device != z.device:
        raise UsageError(
            f"mixing {name!r} returned a tensor on {x.device} for latents on {z.device}; "
            "it must return its output on the latents' device"
        )
    if x.dtype in REFUSED_FLOATS or not x.dtype.is_floating_point:
        raise UsageError(
            f"mixing {name!r} returned {str(x.dtype).removeprefix('torch.')} values; "
            "it must return float32 (or float64, cast to float32)"
        )
    if not bool(torch.isfinite(x).all()):
        raise UsageError(f"mixing {name!r} returned NaN or infinite values on a probe batch")
    _check_invertible(mixing, name, z, x)
    if x.dtype == torch.float64:
        warnings.warn(
            f"mixing {name!r} returns float64; its output is cast to float32 for training",
            stacklevel=3,
        )
        return Float32Output(mixing)
    return mixing


# Singular values below this fraction of the largest are float32 rounding, not a direction.
RANK_RTOL = 1e-5


def _check_invertible(mixing: nn.Module, name: str, z: torch.Tensor, x: torch.Tensor) -> None:
    """Two signs that a mixing cannot be inverted, read off the probe batch: its outputs
    lie in fewer than n dimensions (no continuous injective map of R^n does that), or it
    gives -z the x it gives z (an even map: |z|, z^2, a norm)."""
    flat = x.reshape(-1, x.shape[-1]).double()
    spread = flat - flat.mean(0)
    rank = int(torch.linalg.matrix_rank(spread, rtol=RANK_RTOL))
    need = min(z.shape[-1], flat.shape[0] - 1)
    if rank < need:
        raise UsageError(
            f"mixing {name!r} sends {flat.shape[0]} probe latents into {rank} dimension"
            f"{'s' if rank != 1 else ''} of x; an invertible mixing of {z.shape[-1]} latents "
            f"spans {need}"
        )
    with torch.no_grad():
        mirrored = mixing(-z)
    if isinstance(mirrored, torch.Tensor) and mirrored.shape == x.shape:
        same = (mirrored.double() - x.double()).abs().amax(-1) <= 1e-6 * (1 + x.abs().amax(-1))
        if bool(same.any()):
            raise UsageError(
                f"mixing {name!r} maps a latent z and -z to the same x on a probe batch; "
                "an invertible mixing tells them apart"
            )
