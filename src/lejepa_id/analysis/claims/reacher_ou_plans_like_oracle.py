"""Claim ``reacher_ou_plans_like_oracle``: straight-line planning in the OU encoder's code
is as good as in the true angles (Theorem 4). Versions: see :mod:`.reacher_common`."""

from __future__ import annotations

from lejepa_id.analysis.claims import reacher_common as rc
from lejepa_id.analysis.claims.reacher_rules import equivalence_claim
from lejepa_id.analysis.claims.registry import ClaimRule

V1 = ClaimRule(
    id="reacher_ou_plans_like_oracle",
    version=1,
    date="2026-11-30",
    reason="first registered",
    text="Straight-line planning in the OU encoder's code is as good as in the true angles "
    "(Theorem 4)",
    metric="per-run mean over the K pairs of log(J/J_oracle) - log(J_ref/J_oracle), J_ref "
    "the k-NN read-out of the true angles",
    filter="kind = ou; all lambdas and seeds; one value per run; runs whose code is identified",
    statistic="TOST across runs with the plan's margin; two-sided one-sample t-test; "
    + "run level (one value per run): t interval; exact permutation interval",
    rule="runs whose code is not identified are not shown, never counted; pass: TOST p < "
    "0.05 on the identified runs (equivalent within the margin); fail: t-test p < 0.05 "
    "(different); otherwise not shown",
    scope="Reacher runs of kind ou",
    premises=(rc.IDENTIFIED,),
    thresholds=rc.THRESHOLDS_V1,
    source="reacher",
    label="reacher",
)
V2 = V1.amend(
    date=rc.V2_DATE,
    reason=rc.V2_REASON,
    filter="kind = ou, runs of one setting (data label and λ; seeds differ); one value per "
    "run; runs whose code is identified",
    statistic="TOST across runs with margin ±log(1.05); two-sided one-sample t-test; run "
    "level: t interval, exact permutation interval",
    premises=(rc.REPLICATES, rc.IDENTIFIED),
    thresholds=rc.THRESHOLDS_V2,
)

for _rule in (V1, V2):
    rc.register_ou_claim(_rule, equivalence_claim, centre=0.5)
