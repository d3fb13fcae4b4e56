"""Rounding by uncertainty: the one rule every table and the report use."""

from __future__ import annotations

import math

import pytest

from lejepa_id.analysis.stats import fmt_interval, fmt_mean_std, fmt_sig


@pytest.mark.parametrize(
    ("mean", "sd", "text"),
    [
        (0.98425, 0.00031, "0.9842 ± 0.0003"),
        (0.6575, 0.016, "0.66 ± 0.02"),
        (0.678, 0.319, "0.7 ± 0.3"),
        (0.0096, 0.0096, "0.01 ± 0.01"),  # 0.0096 rounds up to one digit: 0.01
        (123.4, 12.3, "120 ± 10"),
        # Below 4 places the uncertainty goes in parentheses, in the mean's last digit.
        (0.9999982, 5.6e-7, "0.9999982(6)"),
        (0.9999896, 7.4e-6, "0.999990(7)"),
        # A small mean shares a power of ten with its std; alone, it keeps three digits.
        (7.4e-6, 5.2e-7, "(7.4 ± 0.5)×10⁻⁶"),
        (-3.1e-5, 1.2e-5, "(-3 ± 1)×10⁻⁵"),
        (3e-7, math.nan, "3.00×10⁻⁷"),
        (-0.00001, 0.001, "0.000 ± 0.001"),  # never "-0.000"
        # Equal values (a fixed mixing's R² over seeds): the value, as a paper prints it.
        (0.7842, 0.0, "0.7842"),
        (0.99, 1.1e-16, "0.9900"),  # float rounding is no spread
        (4e-6, 0.0, "4.00×10⁻⁶"),
        (0.999, math.nan, "0.9990"),  # one seed: no spread to round by
        (math.nan, 0.1, "–"),
    ],
)
def test_mean_and_std_are_rounded_to_the_std_first_digit(mean, sd, text) -> None:
    assert fmt_mean_std(mean, sd) == text


def test_intervals_and_lone_numbers() -> None:
    assert fmt_interval(0.259, 0.0749, 0.476) == "0.26 [0.07, 0.48]"
    assert fmt_interval(0.3, -1.6, 2.1) == "0.3 [-1.6, 2.1]"
    assert fmt_sig(0.00197143) == "0.00197" and fmt_sig(51.46) == "51.5" and fmt_sig(None) == "–"
