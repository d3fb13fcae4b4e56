"""Whether training has converged, judged from the run's own objective alone.

A claim about the optimum training reaches needs a convergence criterion that does not
contain the prediction it tests (a gap to the predicted optimum bounds the error it is
then used to judge). :func:`loss_plateau` is the objective's own relative change over
the last part of training: the mean training loss over the last quarter of the schedule
against the mean over the quarter before, relative to the former.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any


def loss_plateau(curves: Mapping[str, Sequence[Any]] | None) -> float:
    """|mean loss over the last quarter − mean over the third quarter| / |mean over the
    last quarter|, from a result's evaluation curves (``step`` and ``loss``); NaN when
    either quarter holds no finite value or the loss there is 0."""
    if not isinstance(curves, Mapping) or "step" not in curves or "loss" not in curves:
        return math.nan
    pairs = []
    for step, loss in zip(curves["step"], curves["loss"]):
        try:
            s, v = float(step), float(loss)
        except (TypeError, ValueError):
            continue
        if math.isfinite(s) and math.isfinite(v):
            pairs.append((s, v))
    if not pairs:
        return math.nan
    end = max(s for s, _ in pairs)
    last = [v for s, v in pairs if s >= 0.75 * end]
    before = [v for s, v in pairs if 0.5 * end <= s < 0.75 * end]
    if not last or not before:
        return math.nan
    a, b = sum(last) / len(last), sum(before) / len(before)
    return abs(a - b) / abs(a) if a != 0 else math.nan
