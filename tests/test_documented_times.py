"""The times the README, docs/usage.md and the notebook promise, checked against the wall
time that committed pace measurements project (not against the clock of this test run,
which says only how busy the machine is): each documented figure is within FACTOR of the
projection from benchmarks/results/busy-cpu-2026-12-01-spin.json.

Projection of a command of S steps in P processes: P times the measured process overhead
(a row's process_s - train_s: imports, world, evaluation set) plus S steps at the row's
pace (steps_per_s: the 2d spiral lejepa run with its evaluation schedule and scatter).
Rows: the current defaults (runs r1 to r3: the size rule's 2 threads, the short spin),
idle and beside 4 busy processes."""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import pytest

from lejepa_id.cli.demo import DEMO_STEPS

ROOT = Path(__file__).resolve().parents[1]
MEASURED = ROOT / "benchmarks" / "results" / "busy-cpu-2026-12-01-spin.json"
FACTOR = 2.0
NOTEBOOK_STEPS = DEMO_STEPS + 2 * 1000  # the demo's run, then a 2-run sweep of 1,000 steps


def _rows(busy: int) -> list[dict]:
    runs = json.loads(MEASURED.read_text())["runs"]
    rows = [
        row
        for name in ("r1", "r2", "r3")
        for row in runs[name]["rows"]
        if row["case"] == "2d" and row["threads"] == "2" and row["busy"] == busy
    ]
    assert rows, busy
    return rows


def projected(steps: int, processes: int, busy: int) -> float:
    """Seconds, the mean over the measured rows of the setting."""
    return statistics.mean(
        processes * (r["process_s"] - r["train_s"]) + steps / r["steps_per_s"] for r in _rows(busy)
    )


def _seconds(amount: str, unit: str) -> float:
    words = {"a": 1.0, "half a": 0.5}
    value = words[amount] if amount in words else float(amount)
    return value * (60.0 if unit.startswith("min") else 1.0)


PROMISE = re.compile(
    r"about (?P<idle>[\d.]+|a|half a) (?P<iu>s|min\w*) on 2 idle (?:CPU )?cores, "
    r"about (?P<busy>[\d.]+|a|half a) (?P<bu>s|min\w*) beside 4 busy processes"
)


def _promise(text: str) -> tuple[float, float]:
    m = PROMISE.search(text)
    assert m, "the documented time is not stated in the checked form"
    return _seconds(m["idle"], m["iu"]), _seconds(m["busy"], m["bu"])


def _notebook_intro() -> str:
    cells = json.loads((ROOT / "notebooks" / "quickstart.ipynb").read_text())["cells"]
    return "".join(cells[0]["source"])


@pytest.mark.parametrize(
    ("where", "text", "steps", "processes"),
    [
        ("README.md", lambda: (ROOT / "README.md").read_text(), DEMO_STEPS, 1),
        ("docs/usage.md", lambda: (ROOT / "docs" / "usage.md").read_text(), DEMO_STEPS, 1),
        ("notebooks/quickstart.ipynb", _notebook_intro, NOTEBOOK_STEPS, 2),
    ],
)
def test_a_documented_time_is_within_a_factor_of_the_measured_projection(
    where, text, steps, processes
) -> None:
    idle, busy = _promise(text())
    for documented, load in ((idle, 0), (busy, 4)):
        expected = projected(steps, processes, load)
        assert expected / FACTOR <= documented <= expected * FACTOR, (where, load, expected)


def test_the_projection_reads_known_answers_from_the_rows() -> None:
    # r1's two idle 2-thread rows: 105.5 and 120.0 steps/s, overheads 4.56 and 4.11 s.
    want = statistics.mean([4.56 + 500 / 105.5, 4.11 + 500 / 120.0])
    assert projected(500, 1, 0) == pytest.approx(want)
    assert _promise("about 30 s on 2 idle cores, about 2 min beside 4 busy processes") == (
        30.0,
        120.0,
    )
