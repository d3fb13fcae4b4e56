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


def lam_pairs(stalled: int, escaped: int, identified: int, lost: int, **row) -> pd.DataFrame:
    """Worlds at N = 4 with a λ = 1e-6 and a λ = 1e-2 run each (seed = world)."""
    low = [STALLED] * stalled + [IDENTIFIED] * identified
    high = [IDENTIFIED] * escaped + [STALLED] * (stalled - escaped) + [STALLED] * lost
    high += [IDENTIFIED] * (identified - lost)
    rows = []
    for seed, (a, b) in enumerate(zip(low, high)):
        rows.append(fabricated_world(4, seed, *a, steps=20000) | row)
        rows.append(fabricated_world(4, seed, *b, run="lam", lam=1e-2, steps=20000) | row)
    return runs(rows)


def larger_lambda(f: pd.DataFrame):
    return judge(current("larger_lambda_removes_stall"), Evidence(frame=f))


def test_larger_lambda_is_judged_on_both_exact_intervals() -> None:
    # 10 of 10 stalled escape (lower end 0.025^(1/10) = 0.69 > 0.5), 0 of 30 lost (upper end
    # 1 - 0.025^(1/30) = 0.116 < 0.15): pass.
    cured = larger_lambda(lam_pairs(10, 10, 30, 0))
    assert cured.verdict == "pass"
    assert cured.values["escaped_ci"][0] == pytest.approx(0.025 ** (1 / 10))
    assert cured.values["lost_ci"][1] == pytest.approx(1 - 0.025 ** (1 / 30))
    # None of 8 escapes (upper end 1 - 0.025^(1/8) = 0.37 < 0.5): fail.
    assert larger_lambda(lam_pairs(8, 0, 30, 0)).verdict == "fail"
    # Every stalled world escapes but 12 of 30 identified ones are lost (lower end > 0.15):
    # a cure that breaks other worlds fails.
    assert larger_lambda(lam_pairs(10, 10, 30, 12)).verdict == "fail"
    # 4 of 7 escape, 5 of 33 lost (the committed sweep's counts): neither side decided.
    middle = larger_lambda(lam_pairs(7, 4, 33, 5))
    assert middle.verdict == "not shown"
    assert (middle.values["escaped"], middle.values["lost"]) == (4, 5)


def test_larger_lambda_pairs_worlds_and_needs_its_premises() -> None:
    f = lam_pairs(10, 10, 30, 0)
    # A λ = 1e-2 run of another world (a seed with no λ = 1e-6 run) pairs with nothing.
    stray = runs([fabricated_world(4, 99, *IDENTIFIED, run="lam", lam=1e-2, steps=20000)])
    assert larger_lambda(pd.concat([f, stray], ignore_index=True)).values["worlds"] == 40
    # The same world drawn by another generator is another world.
    other = lam_pairs(10, 10, 30, 0)
    other.loc[other["lam"] == 1e-2, "coupling_draw"] = "published_cuda"
    assert larger_lambda(other).verdict == "not measured"
    too_few = larger_lambda(lam_pairs(5, 5, 30, 0))
    assert too_few.verdict == "not shown"
    assert too_few.values["premises"]["stalled_worlds"]["held"] is False
    short = larger_lambda(lam_pairs(10, 10, 30, 0, steps=3000))
    assert short.verdict == "not shown"
    assert short.values["premises"]["length"]["held"] is False
