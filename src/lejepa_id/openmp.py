"""OpenMP's wait policy, chosen before torch starts its thread pool.

PyTorch's CPU kernels run on an OpenMP pool whose idle threads, by default, spin at
every barrier for a while before sleeping. The models here launch thousands of small
parallel regions per second; on a machine where another process holds a core, the
spinning threads steal the time the working thread needs, and two threads run slower
than one (measured with ``benchmarks/bench_busy.py --wait-policy active passive``). With
``OMP_WAIT_POLICY=PASSIVE`` a waiting thread sleeps at once, which costs a little on an
idle machine and removes the collapse on a busy one.

The runtime reads the variable once, when it is loaded, which happens when torch is
first imported; so :func:`prefer_passive_wait` runs at the top of ``lejepa_id``'s
``__init__``, and does nothing if torch was imported earlier or the user chose a policy
(``OMP_WAIT_POLICY`` set to anything, ``active`` included, is left as it is).
"""

from __future__ import annotations

import os
import sys

VARIABLE = "OMP_WAIT_POLICY"


def prefer_passive_wait() -> bool:
    """Set ``OMP_WAIT_POLICY=PASSIVE`` unless set already or too late; True if it did."""
    if VARIABLE in os.environ or "torch" in sys.modules:
        return False
    os.environ[VARIABLE] = "PASSIVE"
    return True
