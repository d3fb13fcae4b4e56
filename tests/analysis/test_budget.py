"""The report knows its budget: header table, and a note on claims judged short."""

from __future__ import annotations

import json
from pathlib import Path

from lejepa_id.analysis.budget import annotate, budget_note, header_html, read_budget
from lejepa_id.analysis.claims import Claim
from lejepa_id.sweeps.paper import BUDGETS, budget_record


def _claim(cid: str, source: str = "synthetic") -> Claim:
    return Claim(cid, "t", "m", "f", "s", {}, "pass", source=source)


def test_claims_judged_below_the_paper_say_so() -> None:
    record = budget_record(BUDGETS["smoke"], ["2d", "grid", "reacher"])
    claims = [
        _claim("published_2d"),
        _claim("theorem3_bound"),
        _claim("reacher_ou_plans_like_oracle", "reacher"),
        _claim("gaussian_peak"),  # gennorm was not run: judged on the others' runs
        Claim("scaling", "t", "m", "f", "s", {}, "not measured"),  # not judged at all
    ]
    annotate(claims, record)
    # The smoke budget judges nothing: the rule's pass is kept beside "not judged"
    # (tests/analysis/test_budget_verdicts.py; a cpu budget keeps its verdicts).
    assert [c.verdict for c in claims] == ["not judged"] * 4 + ["not measured"]
    assert [c.rule_verdict for c in claims] == ["pass"] * 4 + [""]
    assert claims[0].budget.startswith("judged at the smoke budget")
    assert "2d: steps 30 of 20,000" in claims[0].budget and "grid" not in claims[0].budget
    assert "2d:" in claims[1].budget and "grid:" in claims[1].budget
    assert "reacher: epochs 2 of 100" in claims[2].budget
    assert "2d:" in claims[3].budget and "reacher" in claims[3].budget
    assert claims[4].budget == ""
    assert "runs " not in claims[1].budget  # seeds and settings say it
    assert json.loads(json.dumps(claims[0].to_json()))["budget"] == claims[0].budget


def test_full_budget_adds_no_note_and_header_names_paper_sizes() -> None:
    record = budget_record(BUDGETS["full"], ["2d", "scaling"])
    assert budget_note(_claim("scaling"), record) == ""
    html = "".join(header_html(record))
    assert "Budget: full" in html and "paper&#x27;s sizes" in html
    smoke = "".join(header_html(budget_record(BUDGETS["smoke"], ["2d"])))
    assert "30 of 20,000" in smoke and "1 of 3" in smoke
    assert header_html(None) == [] and budget_note(_claim("x"), None) == ""


def test_read_budget_tolerates_missing_and_foreign_files(tmp_path: Path) -> None:
    assert read_budget(tmp_path) is None
    (tmp_path / "budget.json").write_text("[1, 2]")
    assert read_budget(tmp_path) is None
    (tmp_path / "budget.json").write_text("{not json")
    assert read_budget(tmp_path) is None


def test_the_overnight_budget_judges_and_the_report_names_it() -> None:
    """budget.json records the overnight budget as judging: its verdicts stand, each
    claim judged below the paper's sizes says so, and the report's header names it."""
    from lejepa_id.analysis.budget import table_note

    record = budget_record(BUDGETS["overnight"], ["2d", "gennorm", "reacher"])
    assert record["budget"] == "overnight" and record["judges"] is True
    claims = [
        _claim("published_2d"),
        _claim("gaussian_peak"),
        _claim("reacher_ou_plans_like_oracle", "reacher"),
    ]
    annotate(claims, record)
    assert [c.verdict for c in claims] == ["pass"] * 3
    # 5 of the paper's 8 settings (the ones published_2d reads) since 2026-12-03
    assert claims[0].budget.endswith("2d: settings 5 of 8")
    assert claims[1].budget.startswith("judged at the overnight budget, below the paper's")
    assert "reacher: epochs 50 of 100" in claims[2].budget
    assert "judged at the overnight budget" in table_note(claims, record)
    html = "".join(header_html(record))
    assert "Budget: overnight" in html and "50 of 100" in html


def test_the_header_shows_projected_against_measured_time_where_recorded() -> None:
    from lejepa_id.analysis.budget import time_cells

    record = budget_record(BUDGETS["overnight"], ["2d", "grid"])
    assert "<th>projected</th>" not in "".join(header_html(record))  # nothing recorded
    record["experiments"]["2d"]["time"] = {
        "projected_s": 2460.0,
        "projected_range_s": [1920.0, 7500.0],
        "measured_s": 2952.0,
    }
    html = "".join(header_html(record))
    assert "<th>projected</th><th>measured</th>" in html
    assert "41 min (32 min to 2 h 05 min)" in html and "49 min (1.20 x projected)" in html
    assert time_cells(None) == ["-", "-"]  # grid: no entry yet
    assert time_cells({"measured_s": 30.0}) == ["-", "30 s"]
