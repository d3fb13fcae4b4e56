"""Empirical characteristic function of projections at equally spaced knots, fast.

SIGReg needs, for every run r, direction s and knot t_k = k dt (k = 1 .. K-1),
the means over samples of cos(t_k u) and sin(t_k u), and in the backward pass the sums
sum_k a_k cos(t_k u) + b_k sin(t_k u) for every sample. Both follow from one cosine and
one sine per projection by the angle-addition recurrence. On the CPU the recurrence runs
in compiled Numba loops that keep the running values in registers (several times faster
than the same recurrence as PyTorch tensor operations, which write every knot's values to
memory); on a GPU, or without Numba, it runs as PyTorch operations. The loops work on
independent blocks of directions; when torch has more than one intra-op thread the blocks
are split between the calling thread and persistent helper threads (the loops release
the GIL), so each kernel costs one hand-off per call instead of a second thread pool
spinning beside PyTorch's. Each block is computed exactly as before, so the split never
changes a bit (tested).

Shape convention: u (R, M, S) projections; sums (R, K-1, S); coefficients (R, K-1, S).
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import torch

_BLOCK = 64  # directions per inner block: the running values stay in L1

Kernel = Callable[..., None]


@functools.cache
def _kernels() -> tuple[Kernel, Kernel] | None:
    """The two loops below compiled by Numba, on their first use (importing Numba costs a
    few tenths of a second that a command without SIGReg on the CPU need not pay); None
    without Numba.

    The machine code is cached on disk, so only the first process compiles: beside this
    file, or where the package is read-only in Numba's user-wide cache (``NUMBA_CACHE_DIR``
    chooses another folder); with nowhere writable every process compiles again."""
    try:
        import numba
    except ImportError:  # pragma: no cover - numba is a dependency; this keeps GPUs-only installs
        return None

    def compiled(loops: Callable[..., None]) -> Kernel:
        try:
            return numba.njit(fastmath=True, cache=True, nogil=True)(loops)
        except RuntimeError as exc:  # "cannot cache function ...: no locator available"
            if "cannot cache" not in str(exc):
                raise
            return numba.njit(fastmath=True, nogil=True)(loops)

    return compiled(_means_loops), compiled(_series_loops)


def _means_loops(c1, s1, n_knots, out_c, out_s, lo, hi):  # pragma: no cover - compiled
    R, M, S = c1.shape
    nblk = (S + _BLOCK - 1) // _BLOCK
    for task in range(lo, min(hi, R * nblk)):
        r = task // nblk
        s0 = (task % nblk) * _BLOCK
        w = min(_BLOCK, S - s0)
        cc = np.empty(_BLOCK, c1.dtype)
        ss = np.empty(_BLOCK, c1.dtype)
        acc_c = np.zeros((n_knots, _BLOCK), c1.dtype)
        acc_s = np.zeros((n_knots, _BLOCK), c1.dtype)
        for m in range(M):
            a = c1[r, m, s0 : s0 + w]
            b = s1[r, m, s0 : s0 + w]
            for j in range(w):
                cc[j] = a[j]
                ss[j] = b[j]
                acc_c[0, j] += a[j]
                acc_s[0, j] += b[j]
            for k in range(1, n_knots):
                for j in range(w):
                    cn = cc[j] * a[j] - ss[j] * b[j]
                    sn = ss[j] * a[j] + cc[j] * b[j]
                    cc[j] = cn
                    ss[j] = sn
                    acc_c[k, j] += cn
                    acc_s[k, j] += sn
        for k in range(n_knots):
            for j in range(w):
                out_c[r, k, s0 + j] = acc_c[k, j] / M
                out_s[r, k, s0 + j] = acc_s[k, j] / M


def _series_loops(c1, s1, coef_c, coef_s, out, lo, hi):  # pragma: no cover - compiled
    R, M, S = c1.shape
    n_knots = coef_c.shape[1]
    nblk = (S + _BLOCK - 1) // _BLOCK
    for task in range(lo, min(hi, R * nblk)):
        r = task // nblk
        s0 = (task % nblk) * _BLOCK
        w = min(_BLOCK, S - s0)
        cc = np.empty(_BLOCK, c1.dtype)
        ss = np.empty(_BLOCK, c1.dtype)
        g = np.empty(_BLOCK, c1.dtype)
        # The block's coefficients, contiguous, so the inner loops vectorize.
        kc = np.zeros((n_knots, _BLOCK), c1.dtype)
        ks = np.zeros((n_knots, _BLOCK), c1.dtype)
        for k in range(n_knots):
            for j in range(w):
                kc[k, j] = coef_c[r, k, s0 + j]
                ks[k, j] = coef_s[r, k, s0 + j]
        for m in range(M):
            a = c1[r, m, s0 : s0 + w]
            b = s1[r, m, s0 : s0 + w]
            for j in range(w):
                cc[j] = a[j]
                ss[j] = b[j]
                g[j] = kc[0, j] * a[j] + ks[0, j] * b[j]
            for k in range(1, n_knots):
                for j in range(w):
                    cn = cc[j] * a[j] - ss[j] * b[j]
                    sn = ss[j] * a[j] + cc[j] * b[j]
                    cc[j] = cn
                    ss[j] = sn
                    g[j] += kc[k, j] * cn + ks[k, j] * sn
            for j in range(w):
                out[r, m, s0 + j] = g[j]


_helpers: ThreadPoolExecutor | None = None
_helper_count = 0
_helpers_lock = threading.Lock()


def _forget_helpers() -> None:
    # A forked child inherits the pool object but not its threads: start afresh there.
    global _helpers, _helper_count, _helpers_lock
    _helpers, _helper_count, _helpers_lock = None, 0, threading.Lock()


os.register_at_fork(after_in_child=_forget_helpers)


def _run_split(kernel: Kernel, args: tuple, tasks: int, parts: int) -> None:
    """Run ``kernel(*args, lo, hi)`` over ``range(tasks)`` in ``parts`` contiguous pieces:
    the last piece on this thread, the others on persistent helper threads."""
    global _helpers, _helper_count
    parts = max(1, min(parts, tasks))
    if parts == 1:
        kernel(*args, 0, tasks)
        return
    with _helpers_lock:  # training in several Python threads shares one pool
        if _helpers is None or _helper_count < parts - 1:
            if _helpers is not None:
                _helpers.shutdown(wait=False)  # queued work still runs; new work goes below
            _helpers, _helper_count = ThreadPoolExecutor(parts - 1, "ecf"), parts - 1
        bounds = [tasks * i // parts for i in range(parts + 1)]
        pending = [
            _helpers.submit(kernel, *args, bounds[i], bounds[i + 1]) for i in range(parts - 1)
        ]
    kernel(*args, bounds[-2], bounds[-1])
    for job in pending:
        job.result()


def _tasks(c3: np.ndarray) -> int:
    """The kernels' independent tasks: blocks of directions, per run."""
    return c3.shape[0] * ((c3.shape[2] + _BLOCK - 1) // _BLOCK)


def _numba_kernels(u: torch.Tensor) -> tuple[Kernel, Kernel] | None:
    """The compiled kernels where they serve ``u`` (a float tensor on the CPU), else None."""
    if u.device.type != "cpu" or u.dtype not in (torch.float32, torch.float64):
        return None  # before _kernels(): a GPU run never imports Numba
    return _kernels()


def _as3d(x: torch.Tensor) -> np.ndarray:
    return np.ascontiguousarray(x.reshape(-1, *x.shape[-2:]).numpy())


def ecf_means(
    c1: torch.Tensor, s1: torch.Tensor, n_knots: int
) -> tuple[torch.Tensor, torch.Tensor]:
    """Means over samples of cos(k a) and sin(k a), k = 1 .. n_knots, from c1 = cos a, s1 = sin a.

    Shape:
        c1, s1: (..., M, S) -> two of (n_knots, ..., S)
    """
    batch, S = c1.shape[:-2], c1.shape[-1]
    kernels = _numba_kernels(c1)
    if kernels is not None:
        c3, s3 = _as3d(c1), _as3d(s1)
        out_c = np.empty((c3.shape[0], n_knots, S), c3.dtype)
        out_s = np.empty_like(out_c)
        args = (c3, s3, n_knots, out_c, out_s)
        _run_split(kernels[0], args, _tasks(c3), torch.get_num_threads())
        to = lambda a: torch.from_numpy(a).movedim(1, 0).reshape(n_knots, *batch, S)  # noqa: E731
        return to(out_c), to(out_s)
    c, s = c1, s1
    means_c, means_s = [c.mean(-2)], [s.mean(-2)]
    for _ in range(1, n_knots):
        c, s = c * c1 - s * s1, s * c1 + c * s1
        means_c.append(c.mean(-2))
        means_s.append(s.mean(-2))
    return torch.stack(means_c), torch.stack(means_s)


def ecf_series(
    c1: torch.Tensor, s1: torch.Tensor, coef_c: torch.Tensor, coef_s: torch.Tensor
) -> torch.Tensor:
    """sum_k coef_c[k] cos(k a) + coef_s[k] sin(k a), k = 1 .. K, per sample.

    Shape:
        c1, s1: (..., M, S); coef_c, coef_s: (K, ..., S) -> (..., M, S)
    """
    kernels = _numba_kernels(c1)
    if kernels is not None:
        c3, s3 = _as3d(c1), _as3d(s1)
        to3 = lambda a: np.ascontiguousarray(  # noqa: E731
            a.movedim(0, -2).reshape(c3.shape[0], a.shape[0], -1).numpy().astype(c3.dtype)
        )
        out = np.empty_like(c3)
        args = (c3, s3, to3(coef_c), to3(coef_s), out)
        _run_split(kernels[1], args, _tasks(c3), torch.get_num_threads())
        return torch.from_numpy(out).reshape(c1.shape)
    c, s = c1, s1
    total = coef_c[0].unsqueeze(-2) * c + coef_s[0].unsqueeze(-2) * s
    for k in range(1, coef_c.shape[0]):
        c, s = c * c1 - s * s1, s * c1 + c * s1
        total = total + coef_c[k].unsqueeze(-2) * c + coef_s[k].unsqueeze(-2) * s
    return total
