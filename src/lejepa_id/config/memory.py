"""Memory estimates of a run, from what its encoder and objective report they cost."""

from __future__ import annotations

from typing import Any

from lejepa_id.config import components
from lejepa_id.config.limits import MAX_RUN_BYTES
from lejepa_id.encoders.stacked import encoder_cost
from lejepa_id.errors import UsageError


def estimated_bytes(c: Any) -> int:
    """A rough upper estimate of a run's memory (float32 elements x 4 bytes).

    Counts the data drawn 16 steps at a time, the encoder's activations, SIGReg's
    projections, the evaluation set with its codes, and the weights of the encoder and
    the coupling mixing with AdamW's state, for every initialization.
    """
    n, vb, k = c.dim, c.views * c.batch, c.inits
    d, m = c.obs_size, c.code_size
    data = 16 * vb * d * 2
    cost = encoder_cost(c)
    params, acts = cost.weights, vb * cost.activations
    sigreg = 2 * components.build("objective", c.mode, **c.objective_params).memory_floats(c)
    evaluation = c.eval_size * (n + d + m)
    mixing = c.layers * (n // 2) ** 2 * 2 if c.mixing == "coupling" else 0
    elements = data + k * (4 * params + acts + sigreg + evaluation) + mixing
    return 4 * elements


def check_memory(c: Any) -> None:
    need = estimated_bytes(c)
    if need > MAX_RUN_BYTES:
        raise UsageError(
            f"this run would need about {need / 2**30:,.0f} GiB (dim={c.dim}, "
            f"batch={c.batch}, hidden={c.hidden}, eval_size={c.eval_size}); "
            f"the limit is {MAX_RUN_BYTES // 2**30} GiB"
        )
