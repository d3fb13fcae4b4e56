"""What the four Reacher claims share: their premises, thresholds and fabricated plans.

v1 took any runs of a kind as replicates; the sweep's claims pooled different settings
(OU ρ = 0.5 with 0.95, both seed 0; trajectory Δ = 4 with 16) as if they were seeds. v2
adds the premise ``replicates`` (a kind's runs share one setting: data label and λ) and
states in a note what the spread across runs includes: training seeds only when a kind's
runs share one rendered dataset, the data's variation too when each run has its own
rendering (``reacher_rules.dataset_note``). Its thresholds are the rule's own, not the
plan's, and its power statements state the degrees of freedom behind them.
"""

from __future__ import annotations

import math

from lejepa_id.analysis.claims import plan_fabricate as fabricate
from lejepa_id.analysis.claims.base import Premise
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim

IDENTIFIED = Premise(
    "identified",
    "Theorem 4 assumes a code that is a rotation of the true state: per run R²(h → z) ≥ "
    "0.95 and orthogonality error of the whitened fit ≤ 0.2",
)
REPLICATES = Premise(
    "replicates",
    "the runs of each kind compared are replicates of one setting (one data label and one "
    "λ; seeds differ): runs of different settings are not pooled as replicates",
)
THRESHOLDS_V1 = {"r2": 0.95, "orth": 0.2}
THRESHOLDS_V2 = {"r2": 0.95, "orth": 0.2, "margin_log": math.log1p(0.05), "margin": 0.05}
V2_DATE = "2026-12-01"
V2_REASON = (
    "v1 pooled different settings as replicates (OU ρ 0.5 with 0.95, trajectory Δ 4 with "
    "16) and took its margin from the plan; v2 requires replicates of one setting, fixes "
    "the margin in the rule, and states that runs share one rendered dataset"
)


def evidence(runs: list[dict]) -> Evidence:
    return Evidence(plan=fabricate.plan(runs))


def ou(centre: float, r2: float = 0.99, lqr: float = 0.01, labels=("ou", "ou")) -> list[dict]:
    return [
        fabricate.fake_run("ou", centre, seed, r2=r2, lqr=lqr, label=label)
        for seed, label in zip(range(3), (*labels, labels[-1]))
    ]


def other(kind: str, centre: float, labels: tuple[str, ...] | None = None) -> list[dict]:
    names = labels or (kind,) * 3
    return [fabricate.fake_run(kind, centre, seed, label=names[seed]) for seed in range(3)]


def register_ou_claim(rule: ClaimRule, judge, **false_run: float) -> None:
    """Register a claim about the OU encoder's runs: its counterexample is three identified
    OU runs with ``false_run``'s values (``ou(**false_run)``), its unmet premises the same
    runs unidentified and, from v2 on, spread over two settings. ``judge(rule, plan)``
    judges a plan."""
    unmet = {"identified": lambda r: evidence(ou(**false_run, r2=0.5))}
    if rule.version > 1:
        unmet["replicates"] = lambda r: evidence(ou(**false_run, labels=("ou_a", "ou_b")))
    register_claim(
        rule,
        counterexample=lambda r: evidence(ou(**false_run)),
        premise_unmet=unmet,
    )(lambda r, ev: judge(r, ev.plan) if ev.plan else r.start())
