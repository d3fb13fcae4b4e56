"""Claim ``stall_is_optimization``: where one initialization of SIGReg stalls and another
identifies the same world, the stalled one ends at the higher training loss.

Registered on 2026-12-02, before the frequency runs of ``configs/stall.yaml``. A stall at a
*higher* loss than an identified code is a failure of optimization (a poorer local
optimum that more starts or longer training can escape); a stall at a *lower* loss would
mean the objective's own optimum does not identify on that world, a finding about SIGReg
at a finite λ (docs/stall.md). Worlds where every initialization stalls have no
identified code of the same objective to compare with; they are counted apart, and the
diagnosis (``scripts/stall_diagnosis.py``) compares them with the whitening code.
"""

from __future__ import annotations

from typing import Any

from lejepa_id.analysis.claims.base import Claim, Premise, check
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim
from lejepa_id.analysis.claims.stall_worlds import (
    LENGTH,
    SCOPE,
    THRESHOLDS,
    V2_REASON,
    fabricated,
    init_values,
    shared_premises,
    world_rows,
)

MIXED = Premise(
    "mixed_worlds",
    "at least 7 worlds with both a stalled and an identified initialization: with fewer, "
    "even a unanimous sign cannot reach p < 0.01",
    7,
)

V1 = ClaimRule(
    id="stall_is_optimization",
    version=1,
    date="2026-12-02",
    reason="first registered, before the frequency runs (configs/stall.yaml)",
    text="Where one SIGReg initialization stalls and another identifies the same world, "
    "the stalled one ends at the higher training loss: the stall is an optimization "
    "failure, not an optimum of the objective that fails to identify",
    metric="each initialization's training loss averaged over its last 100 steps, and its "
    "R²(h → z) (stalled: ≤ 0.999; identified: > 0.999)",
    filter="as sigreg_stall_rate; worlds with at least one stalled and one identified "
    "initialization (mixed worlds)",
    statistic="per mixed world the sign of (lowest stalled loss − highest identified loss); "
    "exact one-sided sign test over worlds",
    rule="pass: more worlds positive than negative with sign-test p < 0.01; fail: more "
    "negative than positive with p < 0.01; not shown otherwise (a tie counts for neither)",
    scope=SCOPE.statement,
    premises=(SCOPE, LENGTH, MIXED),
    thresholds=THRESHOLDS | {"alpha": 0.01, "min_mixed": 7},
)


V2 = V1.amend(
    date="2026-12-02",
    reason=V2_REASON,
    filter=V1.filter + "; starts over encoders only (inits_over encoder)",
    thresholds={"one_world": True},
)


def _sign_p(wins: int, losses: int) -> float:
    """One-sided exact sign test: P(at least ``wins`` of ``wins + losses`` fair coins)."""
    from scipy.stats import binomtest

    return float(binomtest(wins, wins + losses, alternative="greater").pvalue)


def _judge(rule: ClaimRule, ev: Evidence) -> Claim:
    claim = rule.start()
    t = dict(rule.thresholds)
    rows = world_rows(ev.finished(), t)
    if rows.empty:
        claim.summary = "no SIGReg run on a coupling world with its initializations recorded"
        return claim
    claim.count(judged=len(rows))
    gaps: list[float] = []
    all_stalled = none_stalled = 0
    for _, row in rows.iterrows():
        pairs = list(zip(init_values(row, "r2_hz"), init_values(row, "loss_last100")))
        stalled = [loss for r2, loss in pairs if r2 <= t["floor"]]
        identified = [loss for r2, loss in pairs if r2 > t["floor"]]
        if stalled and identified:
            gaps.append(min(stalled) - max(identified))
        elif stalled:
            all_stalled += 1
        else:
            none_stalled += 1
    up, down = sum(g > 0 for g in gaps), sum(g < 0 for g in gaps)
    premises, too_short = shared_premises(rows, t)
    v: dict[str, Any] = {
        "mixed_worlds": len(gaps),
        "stalled_higher": up,
        "stalled_lower": down,
        "p_higher": _sign_p(up, down) if up + down else 1.0,
        "p_lower": _sign_p(down, up) if up + down else 1.0,
        "all_stalled_worlds": all_stalled,
        "no_stall_worlds": none_stalled,
        "median_gap": float(sorted(gaps)[len(gaps) // 2]) if gaps else None,
        "premises": premises
        | {"mixed_worlds": check(MIXED, len(gaps), len(gaps) >= t["min_mixed"])},
    }
    claim.values = v
    claim.summary = (
        f"{len(gaps)} mixed worlds: the stalled initialization's loss is higher on {up}, "
        f"lower on {down} (p {v['p_higher']:.2g} / {v['p_lower']:.2g}); {all_stalled} worlds "
        f"with every initialization stalled, {none_stalled} with none"
    )
    if too_short is not None:
        claim.premise_unmet(too_short)
    elif len(gaps) < t["min_mixed"]:
        claim.premise_unmet(f"{len(gaps)} mixed worlds, the rule needs {t['min_mixed']}")
    elif up > down and v["p_higher"] < t["alpha"]:
        claim.verdict = "pass"
    elif down > up and v["p_lower"] < t["alpha"]:
        claim.verdict = "fail"
    else:
        claim.verdict = "not shown"
    return claim


def _mixed(count: int, stalled_lower: bool, **row: Any) -> Evidence:
    # An identified and a stalled initialization per world; the stall's loss is below the
    # identified one's when the claim is false.
    stall_loss = 0.040 if stalled_lower else 0.086
    world = ([0.99999, 0.87, 0.99998], [0.0489, stall_loss, 0.0490])
    return fabricated([world] * count, **row)


register_claim(
    V1,
    counterexample=lambda rule: _mixed(12, stalled_lower=True),
    premise_unmet={
        "scope": lambda rule: _mixed(12, True, lam=1e-3),
        "length": lambda rule: _mixed(12, True, steps=3000),
        "mixed_worlds": lambda rule: _mixed(5, True),
    },
)(_judge)
register_claim(
    V2,
    counterexample=lambda rule: _mixed(12, stalled_lower=True),
    premise_unmet={
        "scope": lambda rule: _mixed(12, True, inits_over="world"),
        "length": lambda rule: _mixed(12, True, steps=3000),
        "mixed_worlds": lambda rule: _mixed(5, True),
    },
)(_judge)
