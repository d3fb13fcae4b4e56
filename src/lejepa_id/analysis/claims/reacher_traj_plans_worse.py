"""Claim ``reacher_traj_plans_worse``: the trajectory encoder plans clearly worse than
the OU encoder. Versions: see :mod:`.reacher_common`."""

from __future__ import annotations

from lejepa_id.analysis.claims import reacher_common as rc
from lejepa_id.analysis.claims.base import Claim
from lejepa_id.analysis.claims.reacher_rules import comparison_differences, worse_claim
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim


def statement(cid: str, text: str, worse: str) -> ClaimRule:
    """v1 of an "OU plans better than ``worse``" claim."""
    return ClaimRule(
        id=cid,
        version=1,
        date="2026-11-30",
        reason="first registered",
        text=text,
        metric="per-run mean over the K pairs of log(J/J_oracle)",
        filter=f"kinds ou and {worse}; all lambdas and seeds; one value per run",
        statistic="Welch t-test (two-sided) and exact Mann-Whitney across runs, with "
        "direction; two-sample TOST with the plan's margin; run-level intervals; power of "
        "the Welch test",
        rule=f"pass: Welch p < 0.05 with ou costing less than {worse}; fail: TOST p < 0.05 "
        "(equivalent) or Welch p < 0.05 the other way; otherwise not shown (non-rejection "
        "is never agreement)",
        scope=f"Reacher runs of kinds ou and {worse}",
        premises=(),
        thresholds=rc.THRESHOLDS_V1,
        source="reacher",
        label="reacher",
    )


def amended(v1: ClaimRule, worse: str) -> ClaimRule:
    return v1.amend(
        date=rc.V2_DATE,
        reason=rc.V2_REASON,
        filter=f"kinds ou and {worse}, each kind's runs of one setting (data label and λ; "
        "seeds differ); one value per run",
        statistic="Welch t-test (two-sided) and exact Mann-Whitney across runs, with "
        "direction; two-sample TOST with margin ±log(1.05); run-level intervals; power of "
        "the Welch test with the degrees of freedom of the run SD behind it",
        premises=(rc.REPLICATES,),
        thresholds=rc.THRESHOLDS_V2,
    )


def register(v1: ClaimRule, v2: ClaimRule, worse: str) -> None:
    def judge(rule: ClaimRule, ev: Evidence) -> Claim:
        if not ev.plan:
            return rule.start()
        return worse_claim(rule, ev.plan, worse, comparison_differences(ev.datasets, worse))

    # The claim is false when ou costs more than the other kind.
    def false(rule: ClaimRule) -> Evidence:
        return rc.evidence(rc.ou(0.5) + rc.other(worse, 0.0))

    register_claim(v1, counterexample=false)(judge)
    register_claim(
        v2,
        counterexample=false,
        premise_unmet={
            "replicates": lambda rule: rc.evidence(
                rc.ou(0.0) + rc.other(worse, 0.5, labels=(f"{worse}_a", f"{worse}_b", worse))
            )
        },
    )(judge)


V1 = statement(
    "reacher_traj_plans_worse",
    "The trajectory encoder plans clearly worse than the OU encoder",
    "traj",
)
V2 = amended(V1, "traj")
register(V1, V2, "traj")
