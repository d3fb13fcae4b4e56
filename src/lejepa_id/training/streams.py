"""Data streams: what a step draws, handed out from chunks drawn ahead.

Every stream here hands out one slice per step from a chunk it drew at once, so a step
costs a view, not a draw: the synthetic worlds' pairs and the objective's random
directions come :data:`CHUNK` steps at a time from each member's own generator, and a
Reacher run's batches one epoch's permutation at a time. The cursor that walks a chunk
and refills it when used up is :class:`ChunkCursor`, the one implementation all of them
use (including :class:`lejepa_id.reacher.training.PairBatches`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

import torch

from lejepa_id.objectives import Objective
from lejepa_id.runtime import generator
from lejepa_id.worlds import World, action_pairs

CHUNK = 16
"""Steps of data and objective randomness drawn at once; fixed so that a run's streams
never depend on the group it is trained in."""

T = TypeVar("T")


class ChunkCursor(Generic[T]):
    """Walks a chunk of ``size`` items, calling ``refill()`` for the next chunk when the
    current one is used up (and before the first).

    ``take()`` returns the chunk and the index of this step's item in it; the caller
    slices (a tensor row, a batch of indices). A fresh cursor, or one after
    :meth:`restart`, refills at its next ``take()``: checkpoints are written at chunk
    boundaries, so a resumed run starts with a fresh chunk.
    """

    def __init__(self, size: int, refill: Callable[[], T]) -> None:
        if size < 1:
            raise ValueError(f"a chunk holds at least one item, got size={size}")
        self.size, self.refill = size, refill
        self.chunk: T | None = None
        self.at = size  # no chunk drawn yet

    def take(self) -> tuple[T, int]:
        if self.at >= self.size:
            self.chunk, self.at = self.refill(), 0
        i, self.at = self.at, self.at + 1
        return self.chunk, i  # type: ignore[return-value]

    def restart(self) -> None:
        """Forget the current chunk: the next ``take()`` refills."""
        self.chunk, self.at = None, self.size


class DrawStream:
    """The objective's randomness (SIGReg's directions) for each member, drawn
    :data:`CHUNK` steps at a time from the member's own generator and stacked once per
    chunk, so a step takes a view and costs no copy.

    Shape: next() -> (R, ...), or None for an objective that draws nothing.
    """

    def __init__(
        self, objective: Objective, code_dim: int, generators: Sequence[torch.Generator]
    ) -> None:
        self.objective, self.code_dim = objective, code_dim
        self.generators = list(generators)
        self.cursor: ChunkCursor[torch.Tensor | None] = ChunkCursor(CHUNK, self._draw)

    def _draw(self) -> torch.Tensor | None:
        """(CHUNK, R, ...): every member's next CHUNK draws, stacked (None: none)."""
        draws = [self.objective.draw(self.code_dim, gen, CHUNK) for gen in self.generators]
        if any(d is None for d in draws):
            return None
        return torch.stack([d for d in draws if d is not None], dim=1)

    def next(self) -> torch.Tensor | None:
        chunk, i = self.cursor.take()
        return None if chunk is None else chunk[i]


class DataStream:
    """Positive pairs of one world from its own generator, drawn ``CHUNK`` steps at a time.

    In an action world the views are (z_t, z_{t+1}) and the chunk's extras hold the
    actions taken, ``{"actions": (CHUNK, B, k)}``, which the engine hands to the objective.

    Shape:
        next_chunk() -> (CHUNK, V, B, D) observations of B latents in V views per step,
        and the extras.
    """

    def __init__(
        self, world: World, batch: int, views: int, seed: int, purpose: int, device: torch.device
    ) -> None:
        self.world, self.batch, self.views = world, batch, views
        self.gen = generator(device, seed, purpose)

    def next_chunk(self) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        B, V = self.batch, self.views
        z = self.world.sample_latents(CHUNK * B, self.gen)
        if self.world.transition.action_size():
            views, actions = action_pairs(self.world, z, self.gen)
            x = self.world.render(views).reshape(V, CHUNK, B, -1)
            return x.transpose(0, 1), {"actions": actions.reshape(CHUNK, B, -1)}
        x = self.world.render(self.world.sample_views(z, V, self.gen))
        return x.reshape(V, CHUNK, B, -1).transpose(0, 1), {}


class MemberBatches:
    """The data source of a stack: every member's stream chunked together, so a step
    takes views into one stacked chunk.

    Shape: next() -> (R, V, B, D), and in an action world the actions {"actions": (R, B, k)}.
    """

    def __init__(self, streams: Sequence[DataStream], members: Sequence[int]) -> None:
        self.streams, self.members = list(streams), list(members)  # member -> its run
        self.cursor = ChunkCursor(CHUNK, self._refill)

    def _refill(self) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        """The next CHUNK steps of every member, stacked once: (CHUNK, R, V, B, D)."""
        chunks = [s.next_chunk() for s in self.streams]
        keys = set(chunks[0][1])
        if any(set(extras) != keys for _, extras in chunks):
            raise ValueError("a group mixes action worlds with worlds without actions")
        x = torch.stack([chunks[r][0] for r in self.members], dim=1)
        extras = {k: torch.stack([chunks[r][1][k] for r in self.members], dim=1) for k in keys}
        return x, extras

    def next(self) -> torch.Tensor | tuple[torch.Tensor, dict[str, torch.Tensor]]:
        (x, extras), i = self.cursor.take()
        return (x[i], {k: v[i] for k, v in extras.items()}) if extras else x[i]
