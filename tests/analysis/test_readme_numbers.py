"""The README's generated verdict table: measured claims only, unmet premises named."""

from __future__ import annotations

from lejepa_id.analysis.claims import Claim
from lejepa_id.analysis.readme_numbers import verdict_table


def _claim(cid: str, verdict: str, summary: str) -> Claim:
    return Claim(
        id=cid, text=f"{cid} holds", metric="", filter="", statistic="", rule="", values={},
        verdict=verdict, summary=summary,
    )  # fmt: skip


def test_the_verdict_table_lists_measured_claims_with_failed_premises() -> None:
    unmet = _claim("scaling", "not measured", "min over N of mean R²: SIGReg 0.93")
    unmet.premise_unmet("one initialization per run")
    claims = [
        _claim("gap", "pass", "median 0.01 over 30 runs; per experiment: 2d 0.01"),
        _claim("lqr", "not measured", "no action-world runs"),
        unmet,
    ]
    claims[0].counts = {"judged": 30, "collapsed": 2, "outside_scope": 0, "total": 32}
    claims[0].parts = {"2d": "pass (median 0.01)", "grid λ=0.1": "fail (median 0.9)"}
    claims[0].other_versions = [
        {"version": 1, "date": "2026-11-30", "reason": "first registered", "verdict": "fail"}
    ]
    claims[0].version = 2
    table = verdict_table([c.to_json() for c in claims]).splitlines()
    assert table[0] == "| claim | states | verdict | runs |"
    assert table[2] == (
        "| `gap` | gap holds | pass: 2d pass (median 0.01); grid λ=0.1 fail (median 0.9). "
        "Earlier rule: fail under v1 (2026-11-30, first registered) | "
        "32 runs: 30 judged, 2 collapsed |"
    )
    assert (
        table[3]
        == "| `scaling` | scaling holds | not shown (premise: one initialization per run) |  |"
    )
    assert len(table) == 4  # the unmeasured claim is left out
