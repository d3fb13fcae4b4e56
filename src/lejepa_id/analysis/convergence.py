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

Under the shipped schedule (a constant learning rate for the first half, then a cosine
decay to zero) the plateau compares a quarter at 82% of the peak rate on average with one
at 18%: the decay alone lowers the loss, so a run that has finished learning can miss it
(measured 2026-12-06, docs/overnight.md). :func:`end_loss` and :func:`doubling_change`
ask the question the plateau stands in for, whether more training changes where a run
ends: the end loss of a run against that of the same run with its whole schedule twice
as long.
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


def _windows(curves: Mapping[str, Sequence[Any]] | None) -> list[tuple[float, float, float]]:
    """(end step, steps, mean loss) of each ``loss_mean`` window; empty when the curves
    hold none or their steps do not increase."""
    if not isinstance(curves, Mapping) or "step" not in curves or "loss_mean" not in curves:
        return []
    windows, before = [], 0.0
    for step, loss in zip(curves["step"], curves["loss_mean"]):
        try:
            s, v = float(step), float(loss)
        except (TypeError, ValueError):
            return []
        if not math.isfinite(s) or s <= before:
            return []
        windows.append((s, s - before, v))
        before = s
    return windows


def _window_mean(windows: list[tuple[float, float, float]], lo: float, hi: float) -> float:
    """The step-weighted mean loss of the windows ending in (lo, hi]; NaN when none is
    there or one is not finite."""
    inside = [(w, v) for s, w, v in windows if lo < s <= hi]
    if not inside or not all(math.isfinite(v) for _, v in inside):
        return math.nan
    return sum(w * v for w, v in inside) / sum(w for w, _ in inside)


def mean_loss_plateau(curves: Mapping[str, Sequence[Any]] | None) -> float:
    """:func:`loss_plateau` from the mean loss of every training step: the windows of the
    curves' ``loss_mean`` (each the mean over the steps since the evaluation before)
    ending in the third quarter, (end/2, 3 end/4], against those ending in the last, each
    quarter's mean weighted by the windows' steps; NaN when the curves hold no
    ``loss_mean`` (runs recorded before it), when a quarter has no finite window, or
    when the loss there is 0."""
    windows = _windows(curves)
    if not windows:
        return math.nan
    end = windows[-1][0]
    third = _window_mean(windows, 0.5 * end, 0.75 * end)
    last = _window_mean(windows, 0.75 * end, end)
    if not (math.isfinite(third) and math.isfinite(last)) or last == 0:
        return math.nan
    return abs(last - third) / abs(last)


END_SHARE = 0.1
"""The part of the schedule whose mean loss is a run's end loss: its last tenth."""


def end_loss(curves: Mapping[str, Sequence[Any]] | None, share: float = END_SHARE) -> float:
    """The step-weighted mean of the curves' ``loss_mean`` windows ending in the last
    ``share`` of training, ((1 − share) end, end]; NaN when the curves hold no
    ``loss_mean``, its steps do not increase, or a window there is not finite."""
    windows = _windows(curves)
    if not windows:
        return math.nan
    end = windows[-1][0]
    return _window_mean(windows, (1.0 - share) * end, end)


def doubling_change(short: float, long: float) -> float:
    """|end loss of the run twice as long − end loss of the run| / |end loss of the run|:
    how far more training moves where the run ends, either way (lower: it had not
    finished; higher: it left its solution); NaN when either is missing or the run's end
    loss is 0."""
    if not (math.isfinite(short) and math.isfinite(long)) or short == 0:
        return math.nan
    return abs(long - short) / abs(short)
