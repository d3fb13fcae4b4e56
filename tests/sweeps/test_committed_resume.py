"""The folders run in pieces across sessions resume on a fresh clone: every committed run
of results/paper-overnight, results/scaling-large, results/scaling-gaps and
results/gennorm-wide passes the check a resumed sweep asks of a finished run (its recorded
files present with their sha256), so a later piece, or the final ``paper`` that reports on
every run, trains none of them again. Weights left out of git made a fresh clone's dry run
plan all 48 runs then committed anew (docs/overnight.md, "Progress")."""

from __future__ import annotations

from pathlib import Path

import pytest

from lejepa_id.sweeps.state import check_result

RESULTS = Path(__file__).resolve().parents[2] / "results"
RESUMED = ("paper-overnight", "scaling-large", "scaling-gaps", "gennorm-wide")


@pytest.mark.parametrize("folder", RESUMED)
def test_every_committed_run_counts_as_done_on_a_fresh_clone(folder):
    records = sorted((RESULTS / folder).rglob("result.json"))
    assert records, f"results/{folder} holds no run"
    problems = [f"{p.relative_to(RESULTS)}: {check_result(p)[1]}" for p in records]
    assert [p for p in problems if not p.endswith(": None")] == []


def test_the_check_fails_when_a_recorded_file_is_gone(tmp_path):
    """The test above can fail: the same check on a copy of a committed run without its
    weights names the missing file."""
    run = next(p.parent for p in sorted((RESULTS / "scaling-large").rglob("result.json")))
    copy = tmp_path / run.name
    copy.mkdir()
    for f in run.iterdir():
        if f.is_file() and f.name != "weights.safetensors":
            (copy / f.name).write_bytes(f.read_bytes())
    data, why = check_result(copy / "result.json")
    assert data is None and why == "weights.safetensors is missing"
