"""The times the README, docs/usage.md and the notebook promise, checked against the wall
time that committed pace measurements project (not against the clock of this test run,
which says only how busy the machine is): each documented figure is within FACTOR of the
projection from benchmarks/results/busy-cpu-2026-12-01-spin.json.

Projection of a command of S steps in P processes: P times the measured process overhead
(a row's process_s - train_s: imports, world, evaluation set) plus S steps at the row's
pace (steps_per_s: the 2d spiral lejepa run with its evaluation schedule and scatter).
Rows: the current defaults (runs r1 to r3: the size rule's 2 threads, the short spin),
idle and beside 4 busy processes.

The smoke budget's time (its summary, which `paper --budget smoke` prints) is checked
against a committed run of the whole command instead
(benchmarks/results/smoke-cpu-2026-12-03.json): at 30 steps a run is start-up, world and
evaluation, which no steps/s pace projects."""

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


SMOKE_RUN = ROOT / "benchmarks" / "results" / "smoke-cpu-2026-12-03.json"
SMOKE_PROMISE = re.compile(r"about (?P<n>[\d.]+|a|half a) (?P<u>s|min\w*) on 2 shared cores")


def _smoke_promise(text: str) -> float:
    m = SMOKE_PROMISE.search(text)
    assert m, "the smoke budget's time is not stated in the checked form"
    return _seconds(m["n"], m["u"])


def test_the_smoke_budgets_stated_time_is_within_a_factor_of_its_measured_run() -> None:
    # The summary `paper --budget smoke` prints (and its dry run's first line) against the
    # committed measurement of one whole `paper --budget smoke` run on 2 shared cores.
    from lejepa_id.sweeps.paper import BUDGETS

    run = json.loads(SMOKE_RUN.read_text())
    assert run["returncode"] == 0 and run["cpu_cores"] == 2
    assert run["command"][:4] == ["lejepa-id", "paper", "--budget", "smoke"]
    assert "--beyond" not in run["command"] and "--only" not in run["command"]
    documented = _smoke_promise(BUDGETS["smoke"].summary)
    assert run["wall_s"] / FACTOR <= documented <= run["wall_s"] * FACTOR, run["wall_s"]
    # docs/paper.md quotes the file as it is, and the summary's figure.
    doc = " ".join((ROOT / "docs" / "paper.md").read_text().split())
    assert f"took {run['wall_s']:.0f} s of wall time and {run['user_s']:.0f} s of CPU time" in doc
    before, after = run["load_before"][0], run["load_after"][0]
    assert f"load average {before:.1f} at the start and {after:.1f} at the end" in doc
    assert (
        f"states it as {SMOKE_PROMISE.search(BUDGETS['smoke'].summary)[0].split(' on')[0]}" in doc
    )
    assert sum(run["stages_s"].values()) <= run["wall_s"]


def test_the_smoke_check_reads_known_answers() -> None:
    assert _smoke_promise("tiny sizes (about 4 min on 2 shared cores)") == 240.0
    assert _smoke_promise("(about 90 s on 2 shared cores)") == 90.0
    with pytest.raises(AssertionError):
        _smoke_promise("every code path on tiny sizes (minutes on 2 cores)")
