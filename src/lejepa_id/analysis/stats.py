"""Small statistics for claims and tables: Welch's t-test with its direction."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats


@dataclass(frozen=True)
class Welch:
    """Welch's unequal-variance t-test of mean(a) against mean(b)."""

    t: float
    p_two_sided: float
    p_greater: float  # one-sided p for mean(a) > mean(b)
    diff: float  # mean(a) - mean(b)
    n_a: int
    n_b: int

    @property
    def direction(self) -> str:
        if not math.isfinite(self.diff):
            return "undefined"
        return "a > b" if self.diff > 0 else ("a < b" if self.diff < 0 else "a = b")


def welch(a, b) -> Welch:
    """Welch's t-test; NaN statistics when a side has fewer than 2 values or no spread."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    a, b = a[np.isfinite(a)], b[np.isfinite(b)]
    diff = float(a.mean() - b.mean()) if len(a) and len(b) else math.nan
    if len(a) < 2 or len(b) < 2 or (a.var() == 0 and b.var() == 0):
        return Welch(math.nan, math.nan, math.nan, diff, len(a), len(b))
    res = stats.ttest_ind(a, b, equal_var=False)
    t, p = float(res.statistic), float(res.pvalue)
    # One-sided from the two-sided p: the t distribution is symmetric.
    p_greater = p / 2 if t > 0 else 1 - p / 2
    return Welch(t, p, p_greater, diff, len(a), len(b))


def fmt_p(p: float) -> str:
    if not math.isfinite(p):
        return "–"
    return f"{p:.2g}" if p >= 1e-3 else "<0.001"


def fmt_mean_std(mean: float, std: float, digits: int = 4) -> str:
    if not math.isfinite(mean):
        return "–"
    if not math.isfinite(std):
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ± {std:.2g}"


def tost_summary(
    mean_a: float, sd_a: float, n_a: int, mean_b: float, sd_b: float, n_b: int, margin: float
) -> dict:
    """Welch TOST of |mean_a - mean_b| < margin from summary statistics.

    The two one-sided tests at level 0.05 are the 90% Welch interval of the difference
    lying inside (-margin, margin): ``equivalent``. ``outside`` when that interval lies
    wholly beyond one of the margins (different by more than the margin). With no spread
    on either side the interval is the point difference.
    """
    diff = mean_a - mean_b
    va, vb = sd_a**2 / n_a if n_a > 0 else math.nan, sd_b**2 / n_b if n_b > 0 else math.nan
    se = math.sqrt(va + vb) if n_a >= 2 and n_b >= 2 else math.nan
    if not math.isfinite(se):
        return {"difference": diff, "ci90": None, "p_tost": None, "result": "undetermined"}
    if se == 0:
        low = high = diff
        p = 0.0 if abs(diff) < margin else 1.0
    else:
        df = (va + vb) ** 2 / (va**2 / (n_a - 1) + vb**2 / (n_b - 1))
        half = float(stats.t.ppf(0.95, df)) * se
        low, high = diff - half, diff + half
        p = max(
            float(stats.t.sf((diff + margin) / se, df)),
            float(stats.t.cdf((diff - margin) / se, df)),
        )
    if -margin < low and high < margin:
        result = "equivalent"
    elif low >= margin or high <= -margin:
        result = "outside"
    else:
        result = "undetermined"
    return {"difference": diff, "ci90": [low, high], "p_tost": p, "result": result}
