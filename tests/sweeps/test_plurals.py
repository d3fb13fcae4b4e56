"""One run is "1 run": the sweep's summary, its dry run and a claim's run counts."""

from __future__ import annotations

from pathlib import Path

from lejepa_id.analysis.claims.base import counts_text
from lejepa_id.sweeps.runner import DryRun, SweepSummary


def test_one_run_is_singular_and_two_are_plural():
    one = SweepSummary("2d", Path("out/2d"), total=1, skipped=0, groups=1)
    assert one.lines()[0].startswith("sweep 2d: 1 run, 0 already done, 0 trained in 1 group ")
    two = SweepSummary("2d", Path("out/2d"), total=2, skipped=0, groups=2)
    assert two.lines()[0].startswith("sweep 2d: 2 runs, 0 already done, 0 trained in 2 groups ")
    dry = DryRun("2d", Path("out/2d"), total=1, done=0, by_run={"a": 1, "b": 2}, settings={})
    lines = dry.lines()
    assert lines[0].startswith("2d: 1 run under out/2d (0 done, 1 to train)")
    assert lines[1:3] == ["  a: 1 run", "  b: 2 runs"]
    assert counts_text({"total": 1, "judged": 1}) == "1 run: 1 judged"
    assert counts_text({"total": 3, "judged": 3}) == "3 runs: 3 judged"
