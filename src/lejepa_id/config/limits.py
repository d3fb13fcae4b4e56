"""The allowed range of every run setting, and of the names that become paths.

A value outside these ranges is refused with one line naming the key, the value and the
range, before anything is allocated or written. The minimums keep a run meaningful; the
maximums refuse sizes that could only exhaust memory (an N = 10^6 coupling world would
ask for terabytes of weights before its first step).

Why each minimum:

- ``eval_size >= max(100, 4 * dim)``: the R^2 read-outs are in-sample affine fits from
  ``dim`` features; with ``eval_size <= dim + 1`` points every fit is exact (R^2 = 1 for
  any code), and the inflation is about ``dim / eval_size`` above that.
- ``alpha >= 0.1``: below it the gennorm law cannot be sampled in floating point (with
  10^5 draws the sample standard deviation is 0.83 at 0.1, 0.22 at 0.05 and 1e-13 at
  0.01, against the law's 1).
- ``batch >= 2``: every objective compares samples within a batch (the whitening
  covariance, SIGReg's empirical characteristic function, InfoNCE's negatives).
- ``views >= 2``: alignment needs two views of each latent.
"""

from __future__ import annotations

import math
import re
from typing import Any

from lejepa_id.errors import UsageError

# (minimum, maximum) of the integer settings; None: unbounded on that side.
INT_RANGES: dict[str, tuple[int | None, int | None]] = {
    "dim": (1, 16_384),
    "layers": (1, 64),
    "views": (2, 64),
    "hidden": (1, 16_384),
    "depth": (1, 64),
    "inits": (1, 1024),
    "inits_max_dim": (0, None),
    "steps": (1, 100_000_000),
    "batch": (2, 1_048_576),
    "eval_size": (100, 10_000_000),
    # Thresholds, unbounded above on purpose: a huge one means "never" (no intermediate
    # evaluation, best of inits at every dim), a meaning a bound would take away.
    "eval_every": (1, None),
    "eval_every_early": (1, None),
    "early_until": (0, None),
    # Seeds enter derive_seed modulo 2^63: beyond that range two seeds would be one.
    "seed": (0, 2**63 - 1),
    "mixing_seed": (0, 2**63 - 1),
    "eval_seed": (0, 2**63 - 1),
    "scatter": (0, 1_000_000),
}
ALPHA_MIN = 0.1
# A run whose rough memory estimate exceeds this is refused before allocating anything.
MAX_RUN_BYTES = 256 * 2**30
# Names that become directories: no separators, no leading dot, no "..".
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+=-]{0,99}")


def check_int_ranges(values: dict[str, Any]) -> None:
    """Raise UsageError for the first integer setting outside its range (None: unset)."""
    for key, (low, high) in INT_RANGES.items():
        if values[key] is not None:
            check_int_range(key, values[key], low, high)


def check_int_range(key: str, value: int, low: int | None, high: int | None) -> None:
    """Raise UsageError when ``value`` lies outside [low, high] (None: unbounded)."""
    if low is not None and value < low:
        raise UsageError(f"{key}={value!r} must be >= {low}")
    if high is not None and value > high:
        raise UsageError(f"{key}={value!r} must be <= {high:,}")


def check_finite(values: dict[str, Any], keys: tuple[str, ...]) -> None:
    for key in keys:
        if not math.isfinite(values[key]):
            raise UsageError(f"{key}={values[key]!r} must be a finite number")


def check_eval_size(eval_size: int, dim: int) -> None:
    need = max(100, 4 * dim)
    if eval_size < need:
        raise UsageError(
            f"eval_size={eval_size!r} must be >= max(100, 4 * dim) = {need}: the R^2 "
            "read-outs are affine fits that a too small evaluation set makes exact"
        )


def check_name(what: str, name: Any) -> str:
    """A name that becomes a directory under --out; refuse paths and odd characters."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise UsageError(
            f"{what} {name!r} is not allowed: use 1 to 100 letters, digits, '_', '-', "
            "'.', '+' or '=', starting with a letter or digit (no '/', no '..')"
        )
    return name


def yaml_number(value: Any) -> Any:
    """A float for a string YAML 1.1 left unparsed (``1e-3`` without a dot), else the
    value unchanged: every config reader accepts any numeric spelling."""
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value
