"""Encoders f: observations -> codes (docs/model.md, section 3).

The synthetic encoders (``mlp``, ``matched``) hold the weights of R independent runs
stacked along a leading dimension and map observations (R, ..., D) to codes
(R, ..., m) with batched matrix products. Because AdamW acts elementwise, training the
stack on the sum of the runs' losses follows exactly the trajectories of R separate
runs; R = 1 is a single run. Each run's weights are drawn from its own seed, so run r
of a stack starts where the same run trained alone would.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from lejepa_id.errors import UsageError, check_registration


@dataclass(frozen=True)
class EncoderCost:
    """What one run's encoder costs: the sweep planner, the memory limit and the thread
    choice read these instead of the encoder's name."""

    weights: int
    """Trainable parameters of one member."""
    activations: int
    """Floats per sample kept for the backward pass."""
    work: int
    """Multiply-adds per sample of one forward pass."""


# name -> builder(obs_dim, code_dim, seeds, **options) of a stacked synthetic encoder.
_ENCODERS: dict[str, Callable[..., nn.Module]] = {}
# name -> cost(config) -> EncoderCost
_COSTS: dict[str, Callable[[Any], EncoderCost]] = {}
# name -> shapes(n, D, m) -> why it cannot map D observations of n latents to m codes
_SHAPES: dict[str, Callable[[int, int, int], str | None]] = {}
ShapeRule = Callable[[int, int, int], str | None]
# name -> the dataclass whose defaulted fields are the encoder's own config keys (or None)
_KEYS: dict[str, type | None] = {}


def register_encoder(
    name: str,
    cost: Callable[[Any], EncoderCost] | None = None,
    shapes: ShapeRule | None = None,
    keys: type | None = None,
    override: bool = False,
) -> Callable[[Callable[..., nn.Module]], Callable[..., nn.Module]]:
    """Decorator: register ``builder(obs_dim, code_dim, seeds, **options) -> nn.Module``.

    The module maps (R, ..., D) to (R, ..., m), one run per seed; ``options`` are the run
    config's encoder keys (``hidden``, ``depth``, ``layers``), to take or ignore. ``cost``
    maps a run config to the encoder's :class:`EncoderCost`; without one, the cost is
    measured from a one-member build on the meta device (weights counted exactly, work
    taken as the weight count, activations as four floats per weight row). ``shapes`` is
    the encoder's shape rule: ``shapes(n, D, m)`` returns None when it can map D
    observations of n latents to m codes, else one line saying why (without one, any
    sizes go); the config and the trainer ask it, never the encoder's name. ``keys`` is a
    dataclass whose defaulted fields are the encoder's own config keys, in its namespace
    (``tanh1.width``), as a transition's are; the builder receives them in ``options``.
    A name already registered is refused in one line naming both origins, unless
    ``override=True`` says the replacement is meant.
    """

    def add(builder: Callable[..., nn.Module]) -> Callable[..., nn.Module]:
        existing = _ENCODERS.get(name)
        check_registration("encoder", name, existing, builder, override, "register_encoder")
        _ENCODERS[name] = builder
        _COSTS[name] = cost or _measured_cost(builder)
        _SHAPES[name] = shapes or (lambda n, D, m: None)
        _KEYS[name] = keys
        return builder

    return add


def _measured_cost(builder: Callable[..., nn.Module]) -> Callable[[Any], EncoderCost]:
    def cost(c: Any) -> EncoderCost:
        with torch.device("meta"):
            module = builder(c.obs_size, c.code_size, [0], **c.encoder_options)
        weights = sum(p.numel() for p in module.parameters())
        rows = sum(p.shape[-1] for p in module.parameters() if p.dim() >= 2)
        return EncoderCost(weights=weights, activations=4 * rows, work=weights)

    return cost


def encoder_cost(config: Any) -> EncoderCost:
    """The cost of the encoder a run config selects."""
    if config.encoder not in _COSTS:
        raise ValueError(f"encoder={config.encoder!r} is not one of {', '.join(_COSTS)}")
    return _COSTS[config.encoder](config)


def _mlp_cost(c: Any) -> EncoderCost:
    widths = [c.obs_size] + [c.hidden] * c.depth + [c.code_size]
    work = sum(a * b for a, b in zip(widths[:-1], widths[1:]))
    return EncoderCost(weights=work, activations=c.hidden * 3 * c.depth, work=work)


def _matched_cost(c: Any) -> EncoderCost:
    # Each coupling layer maps half the coordinates to a scale and a shift of the other half.
    work = c.layers * (c.dim // 2) ** 2
    return EncoderCost(weights=2 * work, activations=c.dim * 4 * c.layers, work=work)


def shape_problem(name: str, n: int, D: int, m: int) -> str | None:
    """Why encoder ``name`` cannot map D observations of n latents to m codes (None:
    it can; an unknown name is left to the name check)."""
    rule = _SHAPES.get(name)
    return None if rule is None else rule(n, D, m)


def encoder_keys(name: str) -> type | None:
    """The dataclass of encoder ``name``'s own config keys (None: it adds none)."""
    return _KEYS.get(name)


def encoder_names() -> tuple[str, ...]:
    """The stacked synthetic encoders (the Reacher cnn is built apart, on pixels)."""
    return tuple(_ENCODERS)


def seeded_generator(seed: int) -> torch.Generator:
    """A CPU generator for one member's initialization."""
    # Derived seeds are 63-bit, so 1_000_003 * seed + i can overflow a C long long.
    return torch.Generator().manual_seed(int(seed) % 2**63)


class StackedLinear(nn.Module):
    """R independent affine maps. Shape: (R, M, fan_in) -> (R, M, fan_out).

    Each run's weight and bias are uniform on +-1/sqrt(fan_in), the default of
    ``torch.nn.Linear``, drawn from that run's generator.
    """

    def __init__(self, fan_in: int, fan_out: int, generators: Sequence[torch.Generator]) -> None:
        super().__init__()
        bound = 1.0 / math.sqrt(fan_in)
        w = [(torch.rand(fan_in, fan_out, generator=g) * 2 - 1) * bound for g in generators]
        b = [(torch.rand(1, fan_out, generator=g) * 2 - 1) * bound for g in generators]
        self.weight = nn.Parameter(torch.stack(w))
        self.bias = nn.Parameter(torch.stack(b))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.baddbmm(self.bias, x, self.weight)


class StackedMLP(nn.Module):
    """Linear(D, H), GELU, (depth - 1) x (Linear(H, H), GELU), Linear(H, m), per run.

    ``seeds`` gives one initialization seed per stacked run; ``out_dim`` is m (default D).

    Shape: (R, ..., D) -> (R, ..., m), R = len(seeds)
    """

    def __init__(
        self,
        dim: int,
        seeds: Sequence[int],
        hidden: int = 256,
        depth: int = 4,
        out_dim: int | None = None,
    ) -> None:
        super().__init__()
        gens = [seeded_generator(s) for s in seeds]
        widths = [dim] + [hidden] * depth + [dim if out_dim is None else out_dim]
        self.layers = nn.ModuleList(
            StackedLinear(a, b, gens) for a, b in zip(widths[:-1], widths[1:])
        )
        self.act = nn.GELU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        h = x.reshape(shape[0], -1, shape[-1])
        for i, layer in enumerate(self.layers):
            h = layer(h)
            if i < len(self.layers) - 1:
                h = self.act(h)
        return h.reshape(*shape[:-1], h.shape[-1])


class StackedMatched(nn.Module):
    """The coupling mixing's exact functional inverse with learnable matrices, per run.

    Layers run in reverse order, subtracting tanh(. W_i). Each W_i starts N(0, 1/(n/2))
    entrywise from its own seed (derived from the run's seed and i). Loading the
    mixing's own weights (:meth:`load_mixing_weights`) makes it invert g exactly.

    Shape: (R, ..., n) -> (R, ..., n), R = len(seeds) (D = m = n)
    """

    def __init__(self, dim: int, seeds: Sequence[int], layers: int = 4) -> None:
        super().__init__()
        if dim % 2:
            raise UsageError(f"dim={dim!r} must be even for the matched encoder")
        half = dim // 2
        runs = []
        for s in seeds:
            mats = [
                torch.randn(half, half, generator=seeded_generator(1_000_003 * int(s) + i))
                / math.sqrt(half)
                for i in range(layers)
            ]
            runs.append(torch.stack(mats))
        self.weight = nn.Parameter(torch.stack(runs))  # (R, L, N/2, N/2)
        self.n_layers = layers

    @torch.no_grad()
    def load_mixing_weights(self, weights: torch.Tensor) -> None:
        """Set every run's matrices to a coupling mixing's (L, N/2, N/2) weights."""
        self.weight.copy_(weights.to(self.weight).expand_as(self.weight))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        # Contiguous halves: the elementwise updates on strided halves cost 5x more.
        a, b = (h.contiguous() for h in x.reshape(shape[0], -1, shape[-1]).chunk(2, dim=-1))
        for i in reversed(range(self.n_layers)):
            w = self.weight[:, i]
            if i % 2 == 0:
                b = b - torch.tanh(torch.bmm(a, w))
            else:
                a = a - torch.tanh(torch.bmm(b, w))
        return torch.cat([a, b], dim=-1).reshape(shape)


@register_encoder("mlp", cost=_mlp_cost)
def _mlp(obs_dim: int, code_dim: int, seeds: Sequence[int], **options: Any) -> nn.Module:
    return StackedMLP(obs_dim, seeds, options.get("hidden", 256), options.get("depth", 4), code_dim)


def _matched_shapes(n: int, D: int, m: int) -> str | None:
    # The inverse of a coupling flow: it splits the n coordinates in halves and keeps
    # the dimension, so observations, codes and latents are one size.
    if n % 2:
        return f"dim={n!r} must be even for the matched encoder"
    if not D == m == n:
        return f"the matched encoder needs observations and codes of dim={n}, got D={D}, m={m}"
    return None


@register_encoder("matched", cost=_matched_cost, shapes=_matched_shapes)
def _matched(obs_dim: int, code_dim: int, seeds: Sequence[int], **options: Any) -> nn.Module:
    if not obs_dim == code_dim:
        raise UsageError(f"the matched encoder needs code_dim = obs_dim, got {code_dim}, {obs_dim}")
    return StackedMatched(obs_dim, seeds, options.get("layers", 4))


def build_encoder(
    kind: str,
    obs_dim: int,
    seeds: Sequence[int],
    code_dim: int | None = None,
    **options: Any,
) -> nn.Module:
    """A stacked synthetic encoder R^D -> R^m (m = ``code_dim``, default D), one run per seed.

    ``options``: ``hidden`` and ``depth`` (mlp), ``layers`` (matched).
    """
    if kind == "cnn":
        raise UsageError("encoder='cnn' takes pixels: build CNNEncoder for the Reacher experiment")
    if kind not in _ENCODERS:
        raise UsageError(f"encoder={kind!r} is not one of {', '.join(_ENCODERS)}")
    return _ENCODERS[kind](obs_dim, obs_dim if code_dim is None else code_dim, seeds, **options)
