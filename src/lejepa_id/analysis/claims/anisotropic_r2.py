"""Claim ``anisotropic_r2``: with per-coordinate OU correlations the code's R² both ways
is that of the top-n eigenfunctions (the spectral prediction, docs/spectral.md).
Versions: see :mod:`lejepa_id.analysis.claims.spectral`."""

from __future__ import annotations

import pandas as pd

from lejepa_id.analysis.beyond import anisotropic_rows, with_predictions
from lejepa_id.analysis.claims import spectral
from lejepa_id.analysis.claims.base import Claim
from lejepa_id.analysis.claims.fabricate import evidence
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim

CELLS, FILTER = spectral.CELLS, spectral.ANISO_FILTER
V1 = ClaimRule(
    id="anisotropic_r2",
    version=1,
    date="2026-11-30",
    reason="first registered",
    **spectral.statement(
        "With per-coordinate OU correlations the code's R² both ways is that of the top-n "
        "eigenfunctions: 1 when min ρ > max ρ², else L / n with L the linear ones",
        FILTER,
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
    return "predicted linear" if row["identifiable"] else "predicted non-linear"


def _judge(rule: ClaimRule, ev: Evidence) -> Claim:
    table = with_predictions(anisotropic_rows(ev.finished()))
    return spectral.judge_spectral(rule, rule.start(), table, side)


def _cells(r2: float, **row) -> Evidence:
    return evidence(spectral.grid(CELLS, r2, **row))


register_claim(
    V1,
    counterexample=lambda rule: _cells(0.0),
    premise_unmet={
        "scope": lambda rule: _cells(0.0, mode="infonce"),
        "converged": lambda rule: _cells(0.0, predicted_alignment_gap=5.0),
        # v1 reported "whitened" without requiring it: one seed is what leaves it unshown.
        "whitened": lambda rule: evidence(
            [r for r in spectral.grid([(0.9, 0.9), (0.5, 0.5)], 1.0, epsilon=5.0) if r["seed"] == 0]
        ),  # fmt: skip
    },
)(_judge)
# v2 reads the minibatch plateau, v3 the mean over every step, v4 the end loss at twice
# the schedule.
for _rule in (V2, V3, V4):
    register_claim(
        _rule,
        counterexample=lambda rule: _cells(0.0),
        premise_unmet={
            "scope": lambda rule: _cells(0.0, mode="infonce"),
            "converged": lambda rule: _cells(0.0, **{spectral.plateau_column(rule): 0.5}),
            "whitened": lambda rule: _cells(0.0, epsilon=5.0),
        },
    )(_judge)
