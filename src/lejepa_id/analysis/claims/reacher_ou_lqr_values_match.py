"""Claim ``reacher_ou_lqr_values_match``: the optimal LQR value in the OU code equals the
true value pointwise (Theorem 4). Versions: see :mod:`.reacher_common`."""

from __future__ import annotations

from lejepa_id.analysis.claims import reacher_common as rc
from lejepa_id.analysis.claims.reacher_rules import lqr_claim
from lejepa_id.analysis.claims.registry import ClaimRule

V1 = ClaimRule(
    id="reacher_ou_lqr_values_match",
    version=1,
    date="2026-11-30",
    reason="first registered",
    text="The optimal LQR value in the OU code equals the true value pointwise (Theorem 4)",
    metric="per-run median over the eval set of |V_code - V_true| / V_true",
    filter="kind = ou; all lambdas and seeds; runs whose code is identified; a run without "
    "a stable Riccati solution counts as inf",
    statistic="the largest and the smallest of the identified runs' medians",
    rule="runs whose code is not identified are not shown, never counted (an unmet premise "
    "is not a counterexample); pass: every identified run's median < the plan's margin; "
    "fail: every identified run's > it; else not shown",
    scope="Reacher runs of kind ou",
    premises=(rc.IDENTIFIED,),
    thresholds=rc.THRESHOLDS_V1,
    source="reacher",
    label="reacher",
)
V2 = V1.amend(
    date=rc.V2_DATE,
    reason=rc.V2_REASON,
    filter="kind = ou, runs of one setting (data label and λ; seeds differ); runs whose "
    "code is identified; a run without a stable Riccati solution counts as inf",
    rule="runs whose code is not identified are not shown, never counted; pass: every "
    "identified run's median < 0.05; fail: every identified run's > 0.05; else not shown",
    premises=(rc.REPLICATES, rc.IDENTIFIED),
    thresholds=rc.THRESHOLDS_V2,
)

for _rule in (V1, V2):
    rc.register_ou_claim(_rule, lqr_claim, centre=0.0, lqr=5.0)
