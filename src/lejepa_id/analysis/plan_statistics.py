"""Statistics of the planning comparison: equivalence tests, bootstrap intervals, directions.

The unit of replication across seeds is the run: each run is first summarized by one
number (its mean over the K start/goal pairs), and tests across seeds use those numbers
only, so K pairs of one run are never counted as K independent seeds. Within one run the
pairs are the replicates (a statement about that trained encoder).

"Not rejected" never means "indistinguishable": equivalence is claimed only by a TOST
(two one-sided t-tests) with a stated margin on the log cost ratio, and every difference
test reports its direction.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

ALPHA = 0.05
N_BOOT = 2000


def _finite(x) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    return x[np.isfinite(x)]


def direction(mean: float, above: str, below: str) -> str:
    """The sign of an effect in words ('none' for an exact zero)."""
    return above if mean > 0 else below if mean < 0 else "none"


def tost_one_sample(values, margin: float) -> dict:
    """TOST of H0: |mean| >= margin against H1: |mean| < margin (t-based, df = n - 1).

    p_tost = max of the two one-sided p-values; equivalence at level alpha when it is
    below alpha, which is the same as the (1 - 2 alpha) t interval lying inside
    (-margin, margin). None when there are fewer than two values or no spread.
    """
    x = _finite(values)
    n = x.size
    out = {"n": int(n), "margin": float(margin), "mean": float(x.mean()) if n else None}
    if n < 2 or not np.std(x, ddof=1) > 0:
        return {**out, "p_tost": None}
    se = float(np.std(x, ddof=1) / np.sqrt(n))
    m = float(x.mean())
    p_low = float(stats.t.sf((m + margin) / se, n - 1))  # H0: mean <= -margin
    p_high = float(stats.t.cdf((m - margin) / se, n - 1))  # H0: mean >= +margin
    return {**out, "se": se, "p_lower": p_low, "p_upper": p_high, "p_tost": max(p_low, p_high)}


def t_test_zero(values, above: str, below: str) -> dict:
    """Two-sided one-sample t-test of mean 0, with the direction of the mean."""
    x = _finite(values)
    if x.size < 2 or not np.std(x, ddof=1) > 0:
        return {
            "n": int(x.size),
            "p": None,
            "direction": direction(float(np.mean(x)) if x.size else 0.0, above, below),
        }
    res = stats.ttest_1samp(x, 0.0)
    return {
        "n": int(x.size),
        "p": float(res.pvalue),
        "direction": direction(float(x.mean()), above, below),
    }


def wilcoxon_zero(values, above: str, below: str) -> dict:
    """Two-sided Wilcoxon signed-rank test of a symmetric centre 0, with the median's sign."""
    x = _finite(values)
    d = direction(float(np.median(x)) if x.size else 0.0, above, below)
    if x.size < 2 or np.allclose(x, 0):
        return {"n": int(x.size), "p": None, "direction": d}
    return {"n": int(x.size), "p": float(stats.wilcoxon(x).pvalue), "direction": d}


def bootstrap_pairs(values, seed: int = 0, level: float = 0.95) -> list[float] | None:
    """Percentile interval of the mean of one run's per-pair values (pairs resampled)."""
    x = _finite(values)
    if x.size < 2:
        return None
    rng = np.random.default_rng([seed, 21])
    means = x[rng.integers(0, x.size, (N_BOOT, x.size))].mean(1)
    return _percentiles(means, level)


def bootstrap_runs_pairs(matrix, seed: int = 0, level: float = 0.95) -> list[float] | None:
    """Interval of the grand mean of a (runs, pairs) matrix by a two-level bootstrap.

    Runs are resampled with replacement, and so are the pairs (one draw of pair indices
    shared by all runs, since every run plans the same pairs). Both sources of variation
    enter; with one run only the pairs vary.
    """
    m = np.asarray(matrix, dtype=np.float64)
    if m.ndim != 2 or m.shape[1] < 2 or not np.isfinite(m).all():
        return None
    rng = np.random.default_rng([seed, 22])
    R, K = m.shape
    runs = rng.integers(0, R, (N_BOOT, R))
    pairs = rng.integers(0, K, (N_BOOT, K))
    means = np.array([m[np.ix_(r, p)].mean() for r, p in zip(runs, pairs)])
    return _percentiles(means, level)


def bootstrap_difference(a, b, seed: int = 0, level: float = 0.95) -> list[float] | None:
    """Interval of mean(a) - mean(b) for two (runs, pairs) matrices over the same pairs."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1] or a.shape[1] < 2:
        return None
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        return None
    rng = np.random.default_rng([seed, 23])
    K = a.shape[1]
    diffs = np.empty(N_BOOT)
    for i in range(N_BOOT):
        p = rng.integers(0, K, K)
        ra = rng.integers(0, a.shape[0], a.shape[0])
        rb = rng.integers(0, b.shape[0], b.shape[0])
        diffs[i] = a[np.ix_(ra, p)].mean() - b[np.ix_(rb, p)].mean()
    return _percentiles(diffs, level)


def _percentiles(x: np.ndarray, level: float) -> list[float]:
    lo, hi = np.quantile(x, [(1 - level) / 2, (1 + level) / 2])
    return [float(lo), float(hi)]


def compare_two(a_runs, b_runs, names: tuple[str, str], margin: float) -> dict:
    """Two groups of per-run values: Welch t, exact Mann-Whitney, two-sample TOST, direction.

    The direction names the group with the lower mean (lower cost is better).
    """
    a, b = _finite(a_runs), _finite(b_runs)
    out: dict = {"n": [int(a.size), int(b.size)], "margin": float(margin)}
    if a.size == 0 or b.size == 0:
        return {**out, "p_welch": None, "p_mannwhitney": None, "p_tost": None}
    diff = float(a.mean() - b.mean())
    out["difference"] = diff
    out["direction"] = direction(
        diff, f"{names[0]} costs more than {names[1]}", f"{names[0]} costs less than {names[1]}"
    )
    out["p_mannwhitney"] = float(stats.mannwhitneyu(a, b, alternative="two-sided").pvalue)
    if a.size < 2 or b.size < 2:
        return {**out, "p_welch": None, "p_tost": None}
    va, vb = np.var(a, ddof=1) / a.size, np.var(b, ddof=1) / b.size
    se = float(np.sqrt(va + vb))
    if not se > 0:
        return {**out, "p_welch": None, "p_tost": None}
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))  # Welch-Satterthwaite
    out["p_welch"] = float(2 * stats.t.sf(abs(diff) / se, df))
    p_low = float(stats.t.sf((diff + margin) / se, df))
    p_high = float(stats.t.cdf((diff - margin) / se, df))
    out["p_tost"] = max(p_low, p_high)
    return out


def verdict(p_tost: float | None, p_diff: float | None) -> str:
    """equivalent (TOST), different (two-sided test) or not shown; never 'pass' by default."""
    if p_tost is not None and p_tost < ALPHA:
        return "equivalent"
    if p_diff is not None and p_diff < ALPHA:
        return "different"
    return "not shown"


# Run-level inference honest at the number of runs (issue 22). A two-level bootstrap over
# R runs can draw only R distinct values of the run effect: with few runs its interval is
# far narrower than the run-to-run spread warrants. Below this many runs per group it is
# not computed; t intervals and exact permutation intervals are reported instead.
BOOTSTRAP_MIN_RUNS = 10


def t_interval(values, level: float = 0.95) -> list[float] | None:
    """Student t interval of the mean of per-run values (df = n - 1)."""
    x = _finite(values)
    if x.size < 2:
        return None
    half = float(stats.t.ppf((1 + level) / 2, x.size - 1) * np.std(x, ddof=1) / np.sqrt(x.size))
    return [float(x.mean() - half), float(x.mean() + half)]


def welch_interval(a, b, level: float = 0.95) -> list[float] | None:
    """Welch t interval of mean(a) - mean(b) (Welch-Satterthwaite df)."""
    a, b = _finite(a), _finite(b)
    if a.size < 2 or b.size < 2:
        return None
    va, vb = np.var(a, ddof=1) / a.size, np.var(b, ddof=1) / b.size
    if not va + vb > 0:
        return None
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    half = float(stats.t.ppf((1 + level) / 2, df) * np.sqrt(va + vb))
    d = float(a.mean() - b.mean())
    return [d - half, d + half]


MAX_SPLITS = 20000  # beyond this many splits, a seeded random sample of them


def _splits(n_a: int, n_b: int) -> np.ndarray:
    """Assignments of n_a + n_b values to group a, as a boolean matrix: all of them, or
    MAX_SPLITS drawn with a fixed seed when there are more."""
    import itertools
    from math import comb

    n = n_a + n_b
    if comb(n, n_a) <= MAX_SPLITS:
        idx = np.array(list(itertools.combinations(range(n), n_a)))
    else:
        rng = np.random.default_rng([n_a, n_b, 24])
        idx = np.argsort(rng.random((MAX_SPLITS, n)), axis=1)[:, :n_a]
    masks = np.zeros((len(idx), n), dtype=bool)
    np.put_along_axis(masks, idx, True, axis=1)
    return masks


def min_permutation_p(n_a: int, n_b: int) -> float:
    """The smallest two-sided p an exact permutation test of n_a against n_b can give."""
    from math import comb

    return 2.0 / comb(n_a + n_b, n_a)


def _grid(centre: float, values: np.ndarray) -> np.ndarray:
    span = float(np.ptp(values)) or float(np.abs(values).max()) or 1.0
    return centre + np.linspace(-10 * span, 10 * span, 4001)


def permutation_interval_two(a, b, level: float = 0.95) -> dict:
    """Exact permutation interval of the shift mean(a) - mean(b): the shifts not rejected
    by the two-sided permutation test of the difference in means.

    Unbounded when even the most extreme split cannot reach 1 - level: then no data of
    that size can exclude any shift, and the interval says so.
    """
    a, b = _finite(a), _finite(b)
    alpha = 1 - level
    if a.size == 0 or b.size == 0:
        return {"interval": None, "min_p": None}
    floor = min_permutation_p(a.size, b.size)
    if floor > alpha:
        return {"interval": [-math.inf, math.inf], "min_p": floor}
    masks = _splits(a.size, b.size)
    pooled = np.concatenate([a, b])
    in_a = np.r_[np.ones(a.size), np.zeros(b.size)]
    # Shifting a by d moves each split's statistic by -d * slope, the observed one by -d.
    stat0 = masks @ pooled / a.size - (~masks) @ pooled / b.size
    slope = masks @ in_a / a.size - (~masks) @ in_a / b.size
    obs0 = float(a.mean() - b.mean())
    grid = _grid(obs0, pooled)
    p = (np.abs(stat0[:, None] - grid * slope[:, None]) >= np.abs(obs0 - grid) - 1e-12).mean(0)
    kept = grid[p > alpha]
    return {"interval": [float(kept.min()), float(kept.max())] if kept.size else None,
            "min_p": floor}  # fmt: skip


def sign_flip_interval(values, level: float = 0.95) -> dict:
    """Exact sign-flip (one-sample permutation) interval of the mean of per-run values."""
    x = _finite(values)
    alpha = 1 - level
    if x.size == 0:
        return {"interval": None, "min_p": None}
    floor = 2.0 / 2**x.size
    if floor > alpha:
        return {"interval": [-math.inf, math.inf], "min_p": floor}
    if x.size <= 14:
        signs = np.array(np.meshgrid(*[[-1.0, 1.0]] * x.size)).reshape(x.size, -1).T
    else:
        signs = np.random.default_rng([x.size, 25]).choice([-1.0, 1.0], (MAX_SPLITS, x.size))
    grid = _grid(float(x.mean()), x)
    y = x[None, :] - grid[:, None]  # (grid, n)
    flipped = np.abs(y @ signs.T) / x.size  # (grid, signs)
    p = (flipped >= np.abs(y.mean(1))[:, None] - 1e-12).mean(1)
    kept = grid[p > alpha]
    return {"interval": [float(kept.min()), float(kept.max())] if kept.size else None,
            "min_p": floor}  # fmt: skip


def welch_power(n_a: int, n_b: int, sd: float, effect: float, alpha: float = ALPHA) -> float:
    """Power of the two-sided two-sample t-test to detect a true difference ``effect``
    with a common per-run standard deviation ``sd`` (noncentral t, df = n_a + n_b - 2)."""
    if n_a < 2 or n_b < 2 or not sd > 0:
        return math.nan
    df = n_a + n_b - 2
    nc = effect / (sd * math.sqrt(1 / n_a + 1 / n_b))
    crit = float(stats.t.ppf(1 - alpha / 2, df))
    return float(stats.nct.sf(crit, df, nc) + stats.nct.cdf(-crit, df, nc))


def runs_for_power(sd: float, effect: float, power: float = 0.8, limit: int = 10000) -> int | None:
    """The smallest number of runs per group that gives ``power``; None above ``limit``."""
    if not sd > 0 or not effect:
        return None
    for n in range(2, limit + 1):
        if welch_power(n, n, sd, effect) >= power:
            return n
    return None


def tost_power(n: int, sd: float, margin: float, mean: float = 0.0, alpha: float = ALPHA) -> float:
    """Power of the one-sample TOST (two one-sided t-tests at ``alpha``, df = n - 1) to
    conclude |mean| < ``margin`` when the true mean is ``mean`` and the per-run standard
    deviation ``sd``: P(T(d1) > t) + P(T(d2) < -t) - 1 with noncentral t's, d1 = (mean +
    margin) / se and d2 = (mean - margin) / se (the usual approximation, which treats the
    two tests' shared standard deviation as independent; clipped at 0)."""
    if n < 2 or not sd > 0 or not margin > 0:
        return math.nan
    df, se = n - 1, sd / math.sqrt(n)
    crit = float(stats.t.ppf(1 - alpha, df))
    upper = float(stats.nct.sf(crit, df, (mean + margin) / se))
    lower = float(stats.nct.cdf(-crit, df, (mean - margin) / se))
    return max(0.0, upper + lower - 1.0)


def runs_for_tost(
    sd: float, margin: float, power: float = 0.8, mean: float = 0.0, limit: int = 10000
) -> int | None:
    """The smallest number of runs whose one-sample TOST reaches ``power``; None above
    ``limit`` or when no number can (|mean| >= margin)."""
    if not sd > 0 or not margin > abs(mean):
        return None
    for n in range(2, limit + 1):
        if tost_power(n, sd, margin, mean) >= power:
            return n
    return None


def sd_upper(sd: float, n: int, level: float = 0.8) -> float:
    """One-sided ``level`` upper confidence bound of a standard deviation estimated from
    ``n`` values (chi-square, df = n - 1): sizing a study from a small pilot's SD itself
    underpowers it about half the time."""
    if n < 2 or not sd >= 0:
        return math.nan
    df = n - 1
    return float(sd * math.sqrt(df / stats.chi2.ppf(1 - level, df)))
