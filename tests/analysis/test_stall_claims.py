"""The stall claims (sigreg_stall_rate, stall_is_optimization) on fabricated worlds with
known answers."""

from __future__ import annotations

import pandas as pd
import pytest
from scipy.stats import beta

from lejepa_id.analysis.claims import Evidence, current, judge, versions
from lejepa_id.analysis.claims.fabricate import runs
from lejepa_id.analysis.claims.stall_worlds import fabricated_world

IDENTIFIED = ([0.99999, 0.99998, 0.99999], [0.0489, 0.0490, 0.0488])
STALLED = ([0.87, 0.88, 0.86], [0.0858, 0.0861, 0.0870])
MIXED = ([0.99999, 0.87, 0.99998], [0.0489, 0.0859, 0.0490])


def frame(worlds: list[tuple[int, int, tuple[list[float], list[float]]]], **row) -> pd.DataFrame:
    return runs([fabricated_world(dim, seed, r2, loss, **row) for dim, seed, (r2, loss) in worlds])


def rate(f: pd.DataFrame):
    return judge(current("sigreg_stall_rate"), Evidence(frame=f))


def optimization(f: pd.DataFrame):
    return judge(current("stall_is_optimization"), Evidence(frame=f))


def grid(stalled: int, total: int = 80) -> pd.DataFrame:
    worlds = [((4, 8, 16, 32)[i % 4], i // 4, STALLED if i < stalled else IDENTIFIED)
              for i in range(total)]  # fmt: skip
    return frame(worlds)


def test_the_stall_rate_is_judged_by_its_exact_interval() -> None:
    clean = rate(grid(0))
    assert clean.verdict == "pass"
    assert clean.values["ci_high"] == pytest.approx(0.04507, abs=1e-5)  # 1 - 0.025^(1/80)
    three = rate(grid(3))
    assert three.verdict == "not shown"
    # Clopper-Pearson from its beta-quantile form: 3 of 80 stalled.
    low, high = beta.ppf(0.025, 3, 78), beta.ppf(0.975, 4, 77)
    assert (three.values["ci_low"], three.values["ci_high"]) == pytest.approx((low, high))
    assert three.values["per_n"] == {
        4: {"worlds": 20, "stalled": 1},
        8: {"worlds": 20, "stalled": 1},
        16: {"worlds": 20, "stalled": 1},
        32: {"worlds": 20, "stalled": 0},
    }
    assert rate(grid(12)).verdict == "fail"


def test_a_world_counts_once_and_only_the_kept_encoder_decides_the_rate() -> None:
    # A mixed world's kept (lowest-loss) encoder identifies: the world does not stall.
    f = grid(0)
    f.loc[0, [f"init{k}_r2_hz" for k in range(3)]] = [0.99999, 0.5, 0.5]
    assert rate(f).values["stalled"] == 0
    twice = pd.concat([grid(0), grid(0).iloc[:5]], ignore_index=True)
    assert rate(twice).values["worlds"] == 80
    assert rate(twice).counts["judged"] == 80 and rate(twice).counts["outside_scope"] == 5


def test_too_few_worlds_or_short_runs_are_not_shown_and_old_records_not_measured() -> None:
    assert rate(grid(0, total=71)).verdict == "not shown"
    assert rate(grid(0, total=72)).verdict == "pass"
    short = grid(0).assign(steps=5000)
    assert rate(short).verdict == "not shown" and "5000" in rate(short).reason
    old = grid(0).drop(columns=[c for c in grid(0).columns if c.startswith("init")])
    assert rate(old).verdict == "not measured"
    assert rate(grid(0).assign(lam=1e-3)).verdict == "not measured"


def test_stalled_above_identified_on_mixed_worlds_passes_and_below_fails() -> None:
    higher = optimization(frame([(4, s, MIXED) for s in range(7)]))
    assert higher.verdict == "pass"
    assert higher.values["stalled_higher"] == 7
    assert higher.values["p_higher"] == pytest.approx(0.5**7)
    lower = ([0.99999, 0.87, 0.99998], [0.0489, 0.0400, 0.0490])
    assert optimization(frame([(4, s, lower) for s in range(7)])).verdict == "fail"
    # Six worlds cannot reach p < 0.01 even when unanimous: the premise says so.
    six = optimization(frame([(4, s, MIXED) for s in range(6)]))
    assert six.verdict == "not shown" and "6 mixed worlds" in six.reason


def test_the_sign_is_taken_against_the_worst_identified_and_best_stalled_loss() -> None:
    # Stalled 0.0489 sits between the identified 0.0480 and 0.0500: the gap is negative.
    between = ([0.99999, 0.87, 0.99998], [0.0480, 0.0489, 0.0500])
    worlds = [(4, s, MIXED) for s in range(8)] + [(8, s, between) for s in range(8)]
    claim = optimization(frame(worlds))
    assert (claim.values["stalled_higher"], claim.values["stalled_lower"]) == (8, 8)
    assert claim.verdict == "not shown"


def test_worlds_with_every_or_no_initialization_stalled_are_counted_apart() -> None:
    worlds = [(4, s, MIXED) for s in range(7)] + [(8, 0, STALLED), (8, 1, IDENTIFIED)]
    claim = optimization(frame(worlds))
    assert claim.values["mixed_worlds"] == 7
    assert (claim.values["all_stalled_worlds"], claim.values["no_stall_worlds"]) == (1, 1)
    assert claim.verdict == "pass"


def test_a_run_whose_starts_are_other_worlds_is_outside_v2_only() -> None:
    over_worlds = grid(12).assign(inits_over="world")
    assert rate(over_worlds).verdict == "not measured"  # v2, the current rule
    assert judge(versions("sigreg_stall_rate")[0], Evidence(frame=over_worlds)).verdict == "fail"
    mixed = grid(0).assign(inits_over=["world"] * 40 + ["encoder"] * 40)
    assert rate(mixed).values["worlds"] == 40


@pytest.mark.parametrize("claim_id", ["scaling", "scaling_reproduces_table"])
def test_the_scaling_verdicts_cite_the_stall_claims(claim_id: str) -> None:
    """A scaling verdict is read on the worlds a folder holds; it must point the reader at
    the claims that say how often a world of the family stalls, whatever the verdict."""
    judged = 0
    for version in versions(claim_id):
        for fabricate in [version.counterexample, *version.premise_unmet.values()]:
            claim = judge(version, fabricate(version.rule))
            if claim.summary.startswith("no sweep"):
                continue
            judged += 1
            assert any("sigreg_stall_rate" in n and "docs/stall.md" in n for n in claim.notes)
    assert judged >= 2
