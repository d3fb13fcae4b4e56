"""Claim ``code_size``: a code wider than z keeps R²(h → z) near 1 with R²(z → h) near
n / m; a narrower one is a partial isometry of z. Versions: see
:mod:`lejepa_id.analysis.claims.spectral`."""

from __future__ import annotations

import pandas as pd

from lejepa_id.analysis.beyond import codedim_rows, with_predictions
from lejepa_id.analysis.claims import spectral
from lejepa_id.analysis.claims.base import Claim
from lejepa_id.analysis.claims.fabricate import evidence
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim

V1 = ClaimRule(
    id="code_size",
    version=1,
    date="2026-11-30",
    reason="first registered",
    **spectral.statement(
        "A code wider than z keeps R²(h → z) near 1 with R²(z → h) near n / m; a narrower "
        "one is a partial isometry of z (R²(h → z) = m / n, R²(z → h) = 1)",
        "finished Gaussian isotropic runs with code_dim set",
    ),
)
V2 = V1.amend(
    date="2026-12-01",
    reason=spectral.V2_REASON,
    metric=spectral.V2_METRIC,
    rule=spectral.V2_RULE,
    **spectral.V2_CHANGES,
)
V3 = V2.amend(date=spectral.V3_DATE, reason=spectral.V3_REASON, premises=spectral.V3_PREMISES)
V4 = V3.amend(date=spectral.V4_DATE, reason=spectral.V4_REASON, **spectral.V4_CHANGES)


def side(row: pd.Series) -> str:
    m, n = int(row["m"]), int(row["dim"])
    return "m < n" if m < n else "m = n" if m == n else "m > n"


def _judge(rule: ClaimRule, ev: Evidence) -> Claim:
    table = with_predictions(codedim_rows(ev.finished()))
    return spectral.judge_spectral(rule, rule.start(), table, side)


def _widths(r2: float, **row) -> Evidence:
    rows = []
    for m in (1.0, 2.0, 3.0):
        rows += spectral.grid([(0.95, 0.95)], r2, code_dim=m, **row)
    return evidence(rows)


register_claim(
    V1,
    counterexample=lambda rule: _widths(0.0),
    premise_unmet={
        "scope": lambda rule: _widths(0.0, mode="infonce"),
        "converged": lambda rule: _widths(0.0, predicted_alignment_gap=5.0),
        "whitened": lambda rule: evidence(
            spectral.grid([(0.95, 0.95)], 1.0, code_dim=2.0, epsilon=5.0)[:1]
        ),
    },
)(_judge)
# v2 reads the minibatch plateau, v3 the mean over every step, v4 the end loss at twice
# the schedule.
for _rule in (V2, V3, V4):
    register_claim(
        _rule,
        counterexample=lambda rule: _widths(0.0),
        premise_unmet={
            "scope": lambda rule: _widths(0.0, mode="infonce"),
            "converged": lambda rule: _widths(0.0, **{spectral.plateau_column(rule): 0.5}),
            "whitened": lambda rule: _widths(0.0, epsilon=5.0),
        },
    )(_judge)
