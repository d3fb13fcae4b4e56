"""A new metric in one file: the mean squared code norm, computed from the moments."""

from __future__ import annotations

from lejepa_id.metrics.registry import register_metric


@register_metric("code_energy", "E|h|²", "mean squared norm of the code", summary=True)
def code_energy(m):
    return m.hh_raw.diagonal(dim1=-2, dim2=-1).sum(-1)
