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


def _decimals(uncertainty: float, figures: int = 1) -> int:
    """Decimal places that show ``uncertainty`` to ``figures`` significant digits (negative:
    rounding left of the point). Computed after rounding, so 0.0096 counts as 0.01."""
    exponent = math.floor(math.log10(uncertainty))
    shown = round(uncertainty / 10.0**exponent, figures - 1)
    if shown >= 10:
        exponent += 1
    return figures - 1 - exponent


def _fixed(value: float, decimals: int) -> str:
    """``value`` to ``decimals`` places (negative: to tens, hundreds, ...), never ``-0``."""
    if decimals < 0:
        value = round(value, decimals)
    text = f"{value:.{max(decimals, 0)}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
SMALL = 1e-3
"""Below this a mean is printed with a power of ten: 7.4×10⁻⁶, not 0.0000074."""


def power_of_ten(exponent: int) -> str:
    """``×10⁻⁶``: the factor a table prints after a mantissa (Unicode; LaTeX gets
    ``{\\times}10^{-6}`` from :func:`lejepa_id.analysis.latex.tex`)."""
    return "×10" + str(exponent).translate(SUPERSCRIPTS)


def fmt_mean_std(mean: float, std: float, digits: int = 4) -> str:
    """``mean ± std`` rounded by the uncertainty, the way a paper prints it: the std to its
    first significant digit and the mean to the same decimal place (0.98425, 0.00031 ->
    ``0.9843 ± 0.0003``). An uncertainty below 10⁻⁴ goes in parentheses after the mean's
    last digit (``0.9999982(6)``: 0.9999982 ± 0.0000006), and a mean below 10⁻³ shares a
    power of ten with its std (``(7.4 ± 0.5)×10⁻⁶``). Without a spread (one value: std NaN)
    the mean alone at ``digits`` places (a small one at three significant digits with its
    power of ten), and so with no spread at all: several equal values (a quantity the seed
    does not change, such as a fixed mixing's R²(x→z)) print as that value, not ``± 0``."""
    if not math.isfinite(mean):
        return "–"
    # Equal values give a std of float rounding (1e-16), not a spread to round by.
    if not math.isfinite(std) or abs(std) <= 1e-12 * max(1.0, abs(mean)):
        if mean != 0 and abs(mean) < SMALL:
            exponent = math.floor(math.log10(abs(mean)))
            return fmt_sig(mean / 10.0**exponent) + power_of_ten(exponent)
        return f"{mean:.{digits}f}"
    std = abs(std)
    if abs(mean) < SMALL and std < SMALL:
        exponent = math.floor(math.log10(max(abs(mean), std)))
        scale = 10.0**exponent
        places = _decimals(std / scale)
        inner = f"{_fixed(mean / scale, places)} ± {_fixed(std / scale, places)}"
        return f"({inner}){power_of_ten(exponent)}"
    places = _decimals(std)
    if places > 4:
        return f"{_fixed(mean, places)}({round(std * 10.0**places)})"
    return f"{_fixed(mean, places)} ± {_fixed(std, places)}"


def fmt_interval(estimate: float, low: float, high: float) -> str:
    """``estimate [low, high]`` rounded by the interval: to the decimal place of the half
    width's second significant digit (an interval's ends are less certain than a sd)."""
    values = (estimate, low, high)
    if not all(math.isfinite(v) for v in values):
        return "–"
    half = (high - low) / 2
    places = _decimals(half, 2) if half > 0 else 3
    a, b, c = (_fixed(v, places) for v in values)
    return f"{a} [{b}, {c}]"


def fmt_sig(value: float | None, figures: int = 3) -> str:
    """A number without an uncertainty at ``figures`` significant digits (``–`` if none)."""
    if value is None or not math.isfinite(value):
        return "–"
    if value == 0:
        return "0"
    return _fixed(value, _decimals(abs(value), figures))


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
