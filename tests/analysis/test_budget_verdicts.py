"""Verdicts under a budget that judges nothing (smoke) read "not judged (budget)", grey,
never a red "fail"; the budget's note is said once per claims table, not in every cell;
and the report reads at 390 px (a phone) without a column a few letters wide."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from analysis_fakes import metrics, write_run
from headless import chromium, page_at_width

from lejepa_id.analysis.budget import annotate, judges, table_note
from lejepa_id.analysis.claims import Claim
from lejepa_id.analysis.report import _claims_html, write_report
from lejepa_id.config.run import RunConfig
from lejepa_id.records.io import atomic_write_json
from lejepa_id.sweeps.paper import BUDGETS, budget_record


def _claim(cid: str, verdict: str) -> Claim:
    return Claim(cid, "a statement", "m", "f", "s", {}, verdict, summary=f"{cid} measured")


def _claims() -> list[Claim]:
    return [
        _claim("theorem3_bound", "fail"),
        _claim("published_2d", "pass"),
        _claim("alignment_gap", "not shown"),
        _claim("scaling", "not measured"),
    ]


def test_smoke_withholds_every_verdict_and_keeps_the_rules_reading() -> None:
    record = budget_record(BUDGETS["smoke"], ["2d", "grid"])
    assert record["judges"] is False and judges(record) is False
    claims = _claims()
    annotate(claims, record)
    assert [c.verdict for c in claims] == ["not judged"] * 3 + ["not measured"]
    assert [c.rule_verdict for c in claims] == ["fail", "pass", "not shown", ""]
    assert claims[0].reason.startswith("budget: the smoke budget")
    # claims.json round trip: "not judged" is a verdict a reader accepts.
    again = Claim.from_json(json.loads(json.dumps(claims[0].to_json())), "synthetic")
    assert again.verdict == "not judged" and again.rule_verdict == "fail"


@pytest.mark.parametrize("name", ["cpu", "overnight", "full"])
def test_a_budget_that_judges_keeps_its_verdicts(name: str) -> None:
    record = budget_record(BUDGETS[name], ["2d", "grid"])
    assert judges(record) is True
    claims = _claims()
    annotate(claims, record)
    assert [c.verdict for c in claims] == ["fail", "pass", "not shown", "not measured"]
    assert all(c.rule_verdict == "" for c in claims)


def test_a_smoke_budget_file_written_before_the_flag_judges_nothing() -> None:
    record = budget_record(BUDGETS["smoke"], ["2d"])
    del record["judges"]
    assert judges(record) is False
    assert judges({**record, "budget": "cpu"}) is True and judges(None) is True


def _section(claims: list[Claim], record: dict) -> str:
    annotate(claims, record)
    return "".join(_claims_html(claims, [], record))


def test_smoke_claims_table_is_grey_and_says_the_budget_once() -> None:
    record = budget_record(BUDGETS["smoke"], ["2d", "grid"])
    page = _section(_claims(), record)
    assert 'class="fail"' not in page and 'class="pass"' not in page
    assert page.count('<td class="not-judged">not judged (budget)') == 3
    assert "the rule reads fail" in page
    # The shortfalls (2d's 30 of 20,000 steps) appear once, above the table, not per cell.
    assert page.count("2d: steps 30 of 20,000") == 1
    assert page.count("grid: steps 30 of 20,000") == 1
    assert page.index("2d: steps 30 of 20,000") < page.index("<table")
    assert page.count("Not judged (budget)") == 1
    # Each judged-below cell carries only a short mark naming its experiments.
    assert re.search(r"<small class='note'>\u2020 2d, grid</small>", page)
    # The grey: the stylesheet gives the class no red.
    css = Path(write_report.__code__.co_filename).read_text()
    rule = re.search(r"\.not-judged \{([^}]*)\}", css)
    assert rule is not None and "#777" in rule.group(1)


def test_cpu_claims_table_keeps_verdicts_with_one_note() -> None:
    record = budget_record(BUDGETS["cpu"], ["2d", "grid"])
    page = _section(_claims(), record)
    assert '<td class="fail">fail' in page and "not judged" not in page.lower()
    assert page.count("2d: seeds 1 of 3") == 1  # in the one note, no cell
    assert page.count("judged at the cpu budget") == 1
    assert table_note([], None) == ""


@pytest.fixture(scope="module")
def smoke_folder(tmp_path_factory) -> Path:
    """A 2d folder as the smoke budget leaves it: 30-step runs and its budget.json."""
    root = tmp_path_factory.mktemp("smoke")
    for seed in (0, 1):
        for run, mode in (("spiral_lejepa", "lejepa"), ("spiral_whiten", "whiten")):
            cfg = RunConfig(mode=mode, seed=seed, steps=30)
            write_run(root, "2d", run, f"{run}-seed{seed}", cfg, metrics(0.3 + 0.01 * seed))
    atomic_write_json(root / "budget.json", budget_record(BUDGETS["smoke"], ["2d"]))
    return root


def test_smoke_report_has_no_fail_verdict(smoke_folder: Path) -> None:
    report = write_report(smoke_folder)
    verdicts = {c.verdict for c in report.claims}
    assert verdicts <= {"not judged", "not measured"} and "not judged" in verdicts
    page = report.path.read_text()
    assert 'class="fail"' not in page and 'class="pass"' not in page
    saved = json.loads(report.claims_path.read_text())["claims"]
    assert {c["verdict"] for c in saved} == verdicts


def test_report_reads_at_390_px_in_chromium(smoke_folder: Path, tmp_path: Path) -> None:
    binary = chromium()
    report = write_report(smoke_folder)
    page = report.path.read_text()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    marks = page_at_width(binary, tmp_path / "p", report.path, 390)
    assert marks["window-width"] == 390
    assert marks["scroll-width"] <= 390  # no sideways scroll
    # Every claims cell on screen spans most of the phone's width (a stacked block), not
    # a column of a few letters (51 px with the desktop layout squeezed).
    assert marks["claims-min-cell"] >= 0.7 * 390
