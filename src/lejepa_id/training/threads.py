"""CPU thread count for training: chosen while the run trains, overridable, safe on a busy machine.

PyTorch's default (one OpenMP thread per core) suits large matrix products on an idle
machine. The synthetic models here multiply small matrices (512 rows by a few hundred
columns) thousands of times per second: every product is a parallel region whose threads
meet at a barrier. With OpenMP's default spinning wait, a run with two threads beside
busy processes slowed many times over (500 steps of the 2d run: 196 s with two threads
beside four busy processes, 28 s with one); ``lejepa_id`` therefore starts the runtime
with a passive wait (:mod:`lejepa_id.openmp`), which removes the collapse but not the
cost of a second thread whose core is taken. Whether a second thread pays off depends
on the model and on the machine's load of the moment, so ``auto`` measures it:
:class:`ThreadPacer` times the steps with one thread and with all available ones, keeps
the faster, and measures again every :data:`REPROBE_S` seconds of training.

Precedence, first match wins: an explicit ``threads`` argument (the CLI's ``--threads``),
the ``LEJEPA_ID_THREADS`` environment variable, ``OMP_NUM_THREADS`` (taken as the exact
count), then ``auto``. ``auto`` anywhere means "measure". The thread count never changes
the trained weights (tests train with 1 and 2 threads, and with the pacer switching
between them, and compare bit for bit), so switching mid-run is safe; for large N the
float64 evaluation's reductions split across threads, which can move a metric in its
16th significant digit.

The SIGReg kernels (:mod:`lejepa_id.objectives.ecf`) are single-threaded Numba loops without a
thread pool of their own, so there is no Numba thread count to set.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import torch

from lejepa_id.encoders.stacked import encoder_cost
from lejepa_id.errors import UsageError

ENV_VAR = "LEJEPA_ID_THREADS"
# Multiply-adds per sample and step above which a second thread pays off (see
# benchmarks/bench_busy.py): the 2d mlp (~2e5) and matched N = 256 (~1.3e5) stay below,
# matched N = 1024 (~1.6e6) is above.
MULTI_THREAD_WORK = 1_000_000


def encoder_work(config: Any) -> int:
    """Multiply-adds per sample of one forward pass of one run: the encoder's own
    :class:`~lejepa_id.encoders.stacked.EncoderCost` work plus a 256-direction projection
    of the code (SIGReg's); a stack of R runs does R times this in each batched product.

    A size measure, not a cost model: it orders configs by how much work each matrix
    product does, which is what decides whether threads pay off.
    """
    return encoder_cost(config).work + config.dim * 256


# Seconds of training between two measurements of the thread counts: the load of a
# shared machine changes on that scale, and a probe costs a few dozen steps.
REPROBE_S = 30.0
# A probe of one count lasts at least this many steps and seconds: a step that draws
# the next chunk of data (every 16th) is slower, and the median must not land on it.
PROBE_STEPS, PROBE_S = 17, 0.3


def auto_threads(work: int, available: int) -> int:
    """The count ``auto`` starts from before it has measured anything: one thread for
    small models, all ``available`` for large ones (pure function)."""
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


def explicit_threads(
    requested: str | int | None = None, env: Mapping[str, str] | None = None
) -> int | None:
    """The count asked for by argument or environment, or None for ``auto``."""
    env = os.environ if env is None else env
    for value, source in (
        (requested, "threads"),
        (env.get(ENV_VAR), ENV_VAR),
        (env.get("OMP_NUM_THREADS"), "OMP_NUM_THREADS"),
    ):
        n = parse_threads(value, source)
        if n is not None:
            return n
    return None


class ThreadPacer:
    """Chooses torch's thread count while a run trains, by timing its steps.

    Call :meth:`tick` after every step and :meth:`skip` after anything that is not a
    step (an evaluation), so the next interval is not counted. Each count in ``counts``
    is tried in turn for at least :data:`PROBE_STEPS` steps and :data:`PROBE_S` seconds
    (first ``warmup`` steps discarded); the count with the lowest median step time is
    kept for ``reprobe_s`` seconds, then all are measured again. :attr:`steps_at` counts
    the steps trained at each count.

    Args:
        counts: candidate thread counts, the first used from the start.
        clock: seconds, monotonic (tests pass a fake one).
        set_threads: applies a count (default ``torch.set_num_threads``).
    """

    def __init__(
        self,
        counts: list[int],
        *,
        reprobe_s: float = REPROBE_S,
        warmup: int = 5,
        clock: Callable[[], float] = time.perf_counter,
        set_threads: Callable[[int], None] = torch.set_num_threads,
    ) -> None:
        if not counts or any(c < 1 for c in counts):
            raise UsageError(f"thread counts {counts!r} must be whole numbers >= 1")
        self.counts = list(dict.fromkeys(counts))
        self.reprobe_s, self.clock, self.set_threads = reprobe_s, clock, set_threads
        self.steps_at = dict.fromkeys(self.counts, 0)
        self.current = self.counts[0]
        self.set_threads(self.current)
        self._warmup = warmup
        self._last: float | None = None
        self._probing = 0  # index into counts while probing; -1 while holding
        self._times: list[float] = []
        self._medians: dict[int, float] = {}
        self._hold_until = 0.0

    def skip(self) -> None:
        self._last = None

    def tick(self) -> None:
        now = self.clock()
        self.steps_at[self.current] += 1
        last, self._last = self._last, now
        if self._warmup > 0:
            self._warmup -= 1
            return
        if last is None:
            return
        if self._probing < 0:
            if now >= self._hold_until:
                self._start_probe(0)
            return
        self._times.append(now - last)
        if len(self._times) >= PROBE_STEPS and sum(self._times) >= PROBE_S:
            self._medians[self.current] = statistics.median(self._times)
            if self._probing + 1 < len(self.counts):
                self._start_probe(self._probing + 1)
            else:
                best = min(self.counts, key=lambda c: self._medians[c])
                self._use(best)
                self._probing, self._hold_until = -1, now + self.reprobe_s

    @property
    def most_used(self) -> int:
        """The count that trained the most steps (ties: the first candidate)."""
        return max(self.counts, key=lambda c: self.steps_at[c])

    def _start_probe(self, index: int) -> None:
        self._probing, self._times = index, []
        self._use(self.counts[index])

    def _use(self, n: int) -> None:
        if n != self.current:
            self.set_threads(n)
            self.current = n
        # The step after a switch pays for waking or parking threads: not counted.
        self._last = None


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
