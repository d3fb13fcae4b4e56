"""How long OpenMP's idle threads spin, chosen before torch starts its thread pool.

PyTorch's CPU kernels run on an OpenMP pool. The models here launch thousands of small
parallel regions per second, and between two regions a waiting thread either spins
(ready at once for the next region) or sleeps (and must be woken). GNU OpenMP, which
PyTorch's Linux wheels use, spins for 300,000 rounds by default: on a machine where
another process holds a core the spinning threads steal the time the working thread
needs, and two threads run many times slower than one. Sleeping at once
(``OMP_WAIT_POLICY=PASSIVE``) removes that collapse but pays a wake-up at every region,
which cost a second thread all of its gain on an idle machine. A short spin keeps both:
``GOMP_SPINCOUNT=1000`` (a few microseconds) catches the next region when the machine is
idle and gives the core back almost at once when it is not (measured with
``benchmarks/bench_busy.py --wait-policy passive active spin1000``; docs/speed.md). Other
OpenMP runtimes (LLVM's and Intel's, which read ``KMP_BLOCKTIME``) get
``KMP_BLOCKTIME=0``, their passive wait, since no bounded spin was measured for them.

The runtime reads these variables once, when it is loaded, which happens when torch is
first imported; so :func:`bound_the_spin` runs at the top of ``lejepa_id``'s ``__init__``,
and does nothing if torch was imported earlier or the user chose a wait themselves (any of
``OMP_WAIT_POLICY``, ``GOMP_SPINCOUNT`` or ``KMP_BLOCKTIME`` set, to anything). The wait
changes when threads run, never what they compute: results are the same under every
setting.
"""

from __future__ import annotations

import os
import sys

USER_CHOICES = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME")
SETTINGS = {"GOMP_SPINCOUNT": "1000", "KMP_BLOCKTIME": "0"}


def bound_the_spin() -> bool:
    """Set a short spin (:data:`SETTINGS`) unless a wait was chosen or it is too late;
    True if it did."""
    if any(name in os.environ for name in USER_CHOICES) or "torch" in sys.modules:
        return False
    os.environ.update(SETTINGS)
    return True
