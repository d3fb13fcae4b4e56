"""How many synthetic runs fit in one stack: a memory model of one stacked member, and
the caps measured on CPUs and assumed for GPUs (the synthetic kind's ``member_cap``)."""

from __future__ import annotations

from lejepa_id.config.run import RunConfig
from lejepa_id.encoders.stacked import encoder_cost
from lejepa_id.objectives import build_objective

# Largest group on a CPU, by encoder. Measured on 2 cores (benchmarks/bench_sweeps.py):
# stacking 8 runs gains 1.25x run-steps/s for the mlp and 1.29x for the matched encoder
# (1.1x at 4); bigger stacks only add latency before the first results land.
CPU_MEMBER_CAP = {"mlp": 8, "matched": 8}
# Largest group on a GPU regardless of memory: beyond this a group's step time grows
# linearly, and smaller groups let concurrent workers share the device.
GPU_MEMBER_CAP = 256
# Fraction of the GPU's memory the concurrent groups may plan to use.
GPU_MEMORY_FRACTION = 0.6


def member_bytes(config: RunConfig) -> int:
    """Estimated device memory of one stacked member, in bytes (float32).

    Counts the weights with their gradient and two AdamW moments, the training
    activations (kept for backward), SIGReg's projections at every knot, and the fixed
    evaluation set with the codes computed from it. Deliberately generous (x2).
    """
    c = config
    n, vb = c.dim, c.views * c.batch
    cost = encoder_cost(c)
    params, acts = cost.weights, vb * cost.activations
    sigreg = 4 * build_objective(c.mode, **c.objective_params).memory_floats(c)
    evaluation = c.eval_size * n * 8 + 10_000 * 2 * 4  # eval set, codes, 2D grid
    covariances = 8 * n * n * 8  # float64 second moments for the metrics
    floats = 4 * params + acts + sigreg + evaluation
    return 2 * (4 * floats + covariances)


def member_cap(config: RunConfig, device_type: str, jobs: int, device_memory: int | None) -> int:
    """Largest number of stacked members for a group of runs like ``config``."""
    if device_type != "cuda":
        return CPU_MEMBER_CAP.get(config.encoder, 1)
    memory = device_memory or 80 * 2**30
    budget = memory * GPU_MEMORY_FRACTION / max(jobs, 1)
    return max(1, min(GPU_MEMBER_CAP, int(budget // member_bytes(config))))
