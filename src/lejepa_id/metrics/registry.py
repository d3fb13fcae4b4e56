"""One registry of metrics: what a run reports, how each is labelled and where it shows.

A metric registered here with a ``compute`` function is evaluated by
:class:`~lejepa_id.metrics.evaluation.Scorer` on every evaluation, from the moments of the latents
and the code (:class:`~lejepa_id.metrics.evaluation.CodeMoments`); the CLI summary, the results
table and the report read their columns and labels from the same entries. Metrics
computed elsewhere (the mixing baseline, the 2D grid scores) are registered without a
``compute`` so they are labelled and shown the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from lejepa_id.errors import UsageError, origin

_METRICS: dict[str, MetricInfo] = {}


@dataclass(frozen=True)
class MetricInfo:
    """A metric's name, label and description, and where it is shown."""

    name: str
    label: str
    """Short label for tables and figures, e.g. ``R²(h→z)``."""
    description: str
    summary: bool = False
    """Printed by ``lejepa-id run`` after a run."""
    report: bool = False
    """A column of the report's results table."""
    compute: Callable[[Any], torch.Tensor] | None = None
    """Function of :class:`~lejepa_id.metrics.evaluation.CodeMoments` -> (R,); None when the
    metric is computed elsewhere."""
    final_only: bool = False
    """Computed at the last evaluation only (costly metrics; no learning curve)."""


def register_metric(
    name: str,
    label: str,
    description: str,
    summary: bool = False,
    report: bool = False,
    final_only: bool = False,
) -> Callable[[Callable[[Any], torch.Tensor]], Callable[[Any], torch.Tensor]]:
    """Decorator: register ``compute(moments) -> (R,)`` as metric ``name``."""

    def add(compute: Callable[[Any], torch.Tensor]) -> Callable[[Any], torch.Tensor]:
        _add(MetricInfo(name, label, description, summary, report, compute, final_only))
        return compute

    return add


def declare_metric(
    name: str, label: str, description: str, summary: bool = False, report: bool = False
) -> None:
    """Register a metric that some other code computes (no ``compute``)."""
    _add(MetricInfo(name, label, description, summary, report, None))


def _add(info: MetricInfo) -> None:
    # Two modules claiming one name would silently replace each other's column.
    if info.name in _METRICS:
        first, second = (
            origin(i.compute) if i.compute else "a declaration" for i in (_METRICS[info.name], info)
        )
        raise UsageError(
            f"metric {info.name!r} is registered twice: by {first} and by {second}; "
            "metric names must be unique"
        )
    _METRICS[info.name] = info


def metric_infos() -> dict[str, MetricInfo]:
    """Every registered metric, in registration order."""
    return dict(_METRICS)
