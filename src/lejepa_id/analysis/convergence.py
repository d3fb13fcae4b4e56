"""Whether training has converged, judged from the run's own objective alone.

A claim about the optimum training reaches needs a convergence criterion that does not
contain the prediction it tests (a gap to the predicted optimum bounds the error it is
then used to judge). :func:`loss_plateau` is the objective's own relative change over
the last part of training: the mean training loss over the last quarter of the schedule
against the mean over the quarter before, relative to the former.

It reads the curves' ``loss``, the last step's minibatch loss at each evaluation: about
ten samples a quarter at 20,000 steps, each off by 5 to 13% from the next (the overnight
anisotropic runs, 2026-12-06), so the statistic's own noise (about 4%) is above the 2%
the claims ask. :func:`mean_loss_plateau` is the same quantity measured from every step:
the curves' ``loss_mean`` (recorded since 2026-12-06) is the mean loss over the steps
since the evaluation before, and a quarter's mean weights each window by its steps.
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


def mean_loss_plateau(curves: Mapping[str, Sequence[Any]] | None) -> float:
    """:func:`loss_plateau` from the mean loss of every training step: the windows of the
    curves' ``loss_mean`` (each the mean over the steps since the evaluation before)
    ending in the third quarter, (end/2, 3 end/4], against those ending in the last, each
    quarter's mean weighted by the windows' steps; NaN when the curves hold no
    ``loss_mean`` (runs recorded before it), when a quarter has no finite window, or
    when the loss there is 0."""
    if not isinstance(curves, Mapping) or "step" not in curves or "loss_mean" not in curves:
        return math.nan
    windows, before = [], 0.0
    for step, loss in zip(curves["step"], curves["loss_mean"]):
        try:
            s, v = float(step), float(loss)
        except (TypeError, ValueError):
            return math.nan
        if not math.isfinite(s) or s <= before:
            return math.nan
        windows.append((s, s - before, v))
        before = s
    if not windows:
        return math.nan
    end = windows[-1][0]

    def mean(lo: float, hi: float) -> float:
        inside = [(w, v) for s, w, v in windows if lo < s <= hi]
        if not inside or not all(math.isfinite(v) for _, v in inside):
            return math.nan
        return sum(w * v for w, v in inside) / sum(w for w, _ in inside)

    third, last = mean(0.5 * end, 0.75 * end), mean(0.75 * end, end)
    if not (math.isfinite(third) and math.isfinite(last)) or last == 0:
        return math.nan
    return abs(last - third) / abs(last)
