"""CPU thread count for training: chosen per model size, overridable, safe on a busy machine.

PyTorch's default (one OpenMP thread per core) suits large matrix products on an idle
machine. The synthetic models here multiply small matrices (512 rows by a few hundred
columns) thousands of times per second: every product is a parallel region whose threads
meet at a barrier. With OpenMP's default long spin, the waiting threads spin when another
process holds a core and the run slows many times over (500 steps of the 2d run took 196 s
with two threads beside four busy processes, 28 s with one); ``lejepa_id`` therefore
starts the runtime with a short spin (:mod:`lejepa_id.openmp`), which removes the
collapse and keeps a second thread's gain on an idle machine. Models whose products are
too small for a second thread to pay off even then (matched encoders up to about N = 64)
get one thread; the rest keep torch's count. Beside four busy processes on 2 cores, two
threads still run somewhat slower than one would (docs/speed.md): pass ``--threads 1``
on a machine you share.

The count is a function of the model and the cores, never of the machine's load of the
moment: it can change the last bits of a run (with two threads the weight gradient of
the matched encoder at N = 2, a reduction over the whole batch, is split and rounded
differently; the 2d mlp and the matched encoder at N = 16 are bit-identical, tested), so
a count chosen by measuring the load would make "same seed, same numbers" depend on
what else the machine was doing. The result records the count it used.

Precedence, first match wins: an explicit ``threads`` argument (the CLI's ``--threads``),
the ``LEJEPA_ID_THREADS`` environment variable, ``OMP_NUM_THREADS`` (taken as the exact
count), then :func:`auto_threads`. ``auto`` anywhere means "choose by size". For large N
the float64 evaluation's reductions split across threads, which can move a metric in its
16th significant digit.

The SIGReg kernels (:mod:`lejepa_id.objectives.ecf`) split their work over the same count
with helper threads of their own (no second OpenMP pool), without changing a bit.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import torch

from lejepa_id.encoders.stacked import encoder_cost
from lejepa_id.errors import UsageError

ENV_VAR = "LEJEPA_ID_THREADS"
# Multiply-adds per sample and step from which a second thread pays off on an idle machine
# (benchmarks/bench_busy.py, docs/speed.md): matched N = 64 (~2e4) ran slower with two,
# the 2d mlp (~2e5) and matched N = 256 (~1.3e5) faster.
MULTI_THREAD_WORK = 100_000


def encoder_work(config: Any) -> int:
    """Multiply-adds per sample of one forward pass of one run: the encoder's own
    :class:`~lejepa_id.encoders.stacked.EncoderCost` work plus a 256-direction projection
    of the code (SIGReg's); a stack of R runs does R times this in each batched product.

    A size measure, not a cost model: it orders configs by how much work each matrix
    product does, which is what decides whether threads pay off.
    """
    return encoder_cost(config).work + config.dim * 256


def auto_threads(work: int, available: int) -> int:
    """One thread for small models; all ``available`` for large ones (pure function)."""
    if available < 1:
        raise UsageError(f"available={available!r} must be >= 1")
    return 1 if work < MULTI_THREAD_WORK else available


def parse_threads(value: str | int | None, source: str) -> int | None:
    """An explicit count (>= 1), or None for ``auto`` / unset; bad values raise UsageError."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "auto")):
        return None
    try:
        n = int(value)
    except (TypeError, ValueError):
        n = 0
    if n < 1 or str(value).strip() != str(n):
        raise UsageError(f"{source}={value!r} must be a whole number >= 1 or 'auto'")
    return n


def resolve_threads(
    work: int,
    requested: str | int | None = None,
    env: Mapping[str, str] | None = None,
    available: int | None = None,
) -> int:
    """The thread count a run uses: explicit request, env vars, else by size.

    ``available`` defaults to torch's current count (the cores, or what a sweep worker
    was given), so the automatic choice never raises it.
    """
    env = os.environ if env is None else env
    for value, source in (
        (requested, "threads"),
        (env.get(ENV_VAR), ENV_VAR),
        (env.get("OMP_NUM_THREADS"), "OMP_NUM_THREADS"),
    ):
        n = parse_threads(value, source)
        if n is not None:
            return n
    return auto_threads(work, available or torch.get_num_threads())


@contextmanager
def torch_threads(n: int) -> Iterator[int]:
    """Run the body with ``n`` torch intra-op threads, then restore the previous count."""
    before = torch.get_num_threads()
    if n != before:
        torch.set_num_threads(n)
    try:
        yield n
    finally:
        if torch.get_num_threads() != before:
            torch.set_num_threads(before)
