"""The one chunk cursor, and the streams built on it: a step takes the next item of a
chunk drawn ahead, and a new chunk is drawn exactly when the last one is used up."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from lejepa_id.reacher.training import FrameNormalizer, PairBatches
from lejepa_id.training.streams import CHUNK, ChunkCursor


def test_the_cursor_refills_exactly_when_a_chunk_is_used_up():
    refills: list[int] = []

    def refill() -> list[int]:
        refills.append(len(refills))
        return [10 * len(refills) + j for j in range(3)]

    cursor = ChunkCursor(3, refill)
    taken = [cursor.take() for _ in range(7)]
    assert [chunk[i] for chunk, i in taken] == [10, 11, 12, 20, 21, 22, 30]
    assert refills == [0, 1, 2]
    cursor.restart()
    chunk, i = cursor.take()
    assert (chunk[i], i, len(refills)) == (40, 0, 4)


def test_a_cursor_needs_a_positive_size():
    with pytest.raises(ValueError, match="size=0"):
        ChunkCursor(0, list)


def test_pair_batches_walk_one_permutation_per_epoch():
    # 10 pairs, batches of 3: 3 batches per epoch (the last pair dropped), and the
    # batches of an epoch are consecutive slices of torch.randperm from the order seed.
    n, batch = 10, 3
    frames = np.arange(n * 2 * 1 * 1 * 3, dtype=np.uint8).reshape(n, 2, 1, 1, 3)
    normalize = FrameNormalizer({"mean": [0.0] * 3, "std": [1.0] * 3}, torch.device("cpu"), False)
    source = PairBatches(frames, batch, normalize, torch.Generator().manual_seed(5))
    reference = torch.Generator().manual_seed(5)
    for _epoch in range(2):
        perm = torch.randperm(n, generator=reference)
        for b in range(n // batch):
            out = source.next()  # (2 B, 3, 1, 1): view 0 of the batch, then view 1
            idx = perm[b * batch : (b + 1) * batch].numpy()
            want = frames[idx].swapaxes(0, 1).reshape(2 * batch, 1, 1, 3)
            got = out.permute(0, 2, 3, 1).numpy() * 255.0
            np.testing.assert_allclose(got, want, atol=1e-4)


def test_chunk_is_sixteen_steps():
    # Fixed forever: a run's streams must not depend on the group it is trained in.
    assert CHUNK == 16
