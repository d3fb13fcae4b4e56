"""Claim ``larger_lambda_removes_stall``: a stronger SIGReg weight (λ = 1e-2) identifies the
coupling worlds on which the paper's λ = 1e-6 stalls, without breaking the worlds it
identified.

Registered on 2026-12-05, before the runs of ``configs/stall_lambda.yaml``. On the one
world tried (``configs/stall_escape.yaml``) λ = 1e-2 escaped the stall that every start at
λ = 1e-6 fell into. One world is no rule: this claim pairs every world that has a best-of-K
SIGReg run at both weights (same N, seed and draw, hence the same mixing and seeds) and
asks two things at once, since a cure that breaks other worlds is no cure: most stalled
worlds escape, and few identified worlds are lost (docs/stall.md).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from lejepa_id.analysis.claims.base import Claim, Premise, check
from lejepa_id.analysis.claims.fabricate import evidence
from lejepa_id.analysis.claims.registry import ClaimRule, Evidence, register_claim
from lejepa_id.analysis.claims.stall_worlds import LENGTH, THRESHOLDS, fabricated_world, world_rows

SCOPE = Premise(
    "scope",
    "coupling worlds (L = 4) inverted by the matched encoder, N from 4 to 32, each with a "
    "SIGReg run at λ = 1e-6 and one at λ = 1e-2, both best of K ≥ 3 initializations over "
    "encoders, on the same world (N, seed, draw)",
    None,
)
STALLED = Premise(
    "stalled_worlds",
    "at least 6 worlds that stall at λ = 1e-6: with fewer, even every one escaping cannot "
    "put the exact interval's lower end above 1/2 (0.025^(1/6) = 0.54)",
    6,
)
IDENTIFIED = Premise(
    "identified_worlds",
    "at least 23 worlds identified at λ = 1e-6: with fewer, even none lost cannot put the "
    "exact interval's upper end below 0.15 (1 - 0.025^(1/23) = 0.148)",
    23,
)

V1 = ClaimRule(
    id="larger_lambda_removes_stall",
    version=1,
    date="2026-12-05",
    reason="first registered, before the runs of configs/stall_lambda.yaml",
    text="SIGReg at λ = 1e-2 removes the stall of the paper's λ = 1e-6: most worlds that "
    "stall at 1e-6 (best of 3) are identified at 1e-2, and few worlds identified at 1e-6 "
    "stall at 1e-2",
    metric="r2_hz: R²(h → z) of the kept (lowest-loss) encoder on the evaluation set; a "
    "world stalls when it is ≤ 0.999",
    filter="finished lejepa runs, coupling mixing (L = 4), matched encoder, 4 ≤ N ≤ 32, "
    "inits ≥ 3 over encoders with each recorded, at λ = 1e-6 and at λ = 1e-2; worlds with "
    "a run at both weights (paired on N, seed, draw)",
    statistic="among worlds stalled at 1e-6, the fraction identified at 1e-2 (escaped); "
    "among worlds identified at 1e-6, the fraction stalled at 1e-2 (lost); each with its "
    "exact (Clopper-Pearson) 95% interval",
    rule="pass: escaped's lower end > 0.5 and lost's upper end < 0.15; fail: escaped's "
    "upper end < 0.5 or lost's lower end > 0.15; not shown otherwise, or when a premise "
    "fails",
    scope=SCOPE.statement,
    premises=(SCOPE, LENGTH, STALLED, IDENTIFIED),
    thresholds=THRESHOLDS
    | {
        "lam_high": 1e-2,
        "one_world": True,
        "escape": 0.5,
        "loss_margin": 0.15,
        "level": 0.95,
        "min_stalled": 6,
        "min_identified": 23,
    },
)


def _interval(k: int, n: int, level: float) -> tuple[float, float]:
    from scipy.stats import binomtest

    ci = binomtest(k, n).proportion_ci(confidence_level=level, method="exact")
    return float(ci.low), float(ci.high)


def paired_worlds(frame: pd.DataFrame, t: dict[str, Any]) -> pd.DataFrame:
    """One row per world run at both weights: ``dim``, ``seed``, ``draw``, ``r2_low``
    (λ = 1e-6), ``r2_high`` (λ = 1e-2) and the shorter run's ``steps``."""
    sides = []
    for lam, name in ((t["lam"], "low"), (t["lam_high"], "high")):
        rows = world_rows(frame, t | {"lam": lam})
        draw = rows["coupling_draw"] if "coupling_draw" in rows else pd.Series("?", rows.index)
        sides.append(
            pd.DataFrame(
                {
                    "dim": rows["dim"].astype(int),
                    "seed": rows["seed"].astype(int),
                    "draw": draw.fillna("?"),
                    f"r2_{name}": rows["r2_hz"].astype(float),
                    f"steps_{name}": rows["steps"].astype(int),
                }
            )
        )
    both = sides[0].merge(sides[1], on=["dim", "seed", "draw"], how="inner")
    both["steps"] = both[["steps_low", "steps_high"]].min(axis=1)
    return both.drop(columns=["steps_low", "steps_high"]).sort_values(["dim", "seed"])


def _judge(rule: ClaimRule, ev: Evidence) -> Claim:
    claim = rule.start()
    t = dict(rule.thresholds)
    worlds = paired_worlds(ev.finished(), t)
    if worlds.empty:
        claim.summary = "no coupling world with a SIGReg run at both λ = 1e-6 and λ = 1e-2"
        return claim
    claim.count(judged=2 * len(worlds))
    stalled = worlds[worlds["r2_low"] <= t["floor"]]
    identified = worlds[worlds["r2_low"] > t["floor"]]
    escaped = int((stalled["r2_high"] > t["floor"]).sum())
    lost = int((identified["r2_high"] <= t["floor"]).sum())
    esc = _interval(escaped, len(stalled), t["level"]) if len(stalled) else (0.0, 1.0)
    los = _interval(lost, len(identified), t["level"]) if len(identified) else (0.0, 1.0)
    shortest = int(worlds["steps"].min())
    v: dict[str, Any] = {
        "worlds": int(len(worlds)),
        "stalled_worlds": int(len(stalled)),
        "escaped": escaped,
        "escaped_ci": list(esc),
        "identified_worlds": int(len(identified)),
        "lost": lost,
        "lost_ci": list(los),
        "stalled": [
            {"dim": int(r.dim), "seed": int(r.seed), "r2_low": r.r2_low, "r2_high": r.r2_high}
            for r in stalled.itertuples()
        ],
        # What the stronger weight costs where nothing was wrong: reported, not judged.
        "median_r2_identified_low": float(identified["r2_low"].median())
        if len(identified)
        else None,
        "median_r2_identified_high": float(identified["r2_high"].median())
        if len(identified)
        else None,
        "premises": {
            "scope": check(SCOPE, None, True),
            "length": check(LENGTH, shortest, shortest >= t["steps"]),
            "stalled_worlds": check(STALLED, len(stalled), len(stalled) >= t["min_stalled"]),
            "identified_worlds": check(
                IDENTIFIED, len(identified), len(identified) >= t["min_identified"]
            ),
        },
    }
    claim.values = v
    claim.summary = (
        f"{escaped} of {len(stalled)} worlds stalled at λ = 1e-6 escape at 1e-2 (95% "
        f"interval {esc[0]:.3f} to {esc[1]:.3f}); {lost} of {len(identified)} identified "
        f"worlds are lost ({los[0]:.3f} to {los[1]:.3f})"
    )
    if shortest < t["steps"]:
        claim.premise_unmet(f"the shortest run trained {shortest} steps of {t['steps']}")
    elif len(stalled) < t["min_stalled"]:
        claim.premise_unmet(f"{len(stalled)} stalled worlds, the rule needs {t['min_stalled']}")
    elif len(identified) < t["min_identified"]:
        claim.premise_unmet(
            f"{len(identified)} identified worlds, the rule needs {t['min_identified']}"
        )
    elif esc[0] > t["escape"] and los[1] < t["loss_margin"]:
        claim.verdict = "pass"
    elif esc[1] < t["escape"] or los[0] > t["loss_margin"]:
        claim.verdict = "fail"
    else:
        claim.verdict = "not shown"
    return claim


def _pairs(stalled: int, escaped: int, identified: int, lost: int, **row: Any) -> Evidence:
    """Worlds at N = 4 (seed i), each with a λ = 1e-6 and a λ = 1e-2 run: ``stalled`` of
    them stall at 1e-6 (``escaped`` identified at 1e-2), ``identified`` do not (``lost``
    stall at 1e-2)."""
    good = ([0.99999, 0.9, 0.99999], [0.0489, 0.0859, 0.0490])
    bad = ([0.87, 0.88, 0.86], [0.0858, 0.0861, 0.0870])
    low = [bad] * stalled + [good] * identified
    high = [good] * escaped + [bad] * (stalled - escaped) + [bad] * lost
    high += [good] * (identified - lost)
    rows = []
    for seed, (a, b) in enumerate(zip(low, high)):
        rows.append(fabricated_world(4, seed, *a, run="lejepa", steps=20000) | row)
        rows.append(
            fabricated_world(4, seed, *b, run="lejepa_lam1e-2", lam=1e-2, steps=20000) | row
        )
    return evidence(rows)


register_claim(
    V1,
    counterexample=lambda rule: _pairs(8, 0, 30, 0),
    premise_unmet={
        "scope": lambda rule: _pairs(8, 0, 30, 0, encoder="mlp"),
        "length": lambda rule: _pairs(8, 0, 30, 0, steps=3000),
        "stalled_worlds": lambda rule: _pairs(5, 0, 30, 0),
        "identified_worlds": lambda rule: _pairs(8, 0, 20, 0),
    },
)(_judge)
