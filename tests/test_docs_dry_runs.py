"""The dry runs pasted in docs/paper.md are what `lejepa-id paper --dry-run` prints now.

A probed projection cannot be reproduced (its paces are the moment's), so each pasted
CPU dry run is checked against the command run again here on planted paces, on the
pasted machine's core count: the summary, device and column lines exactly, every
experiment's runs, stacks and steps, the closing line with the pasted store and probe
seconds put back, and the Reacher rows' rates against the committed Reacher pace file
(those dry runs' probes). The `--pace-from h200` paste probes nothing, so it is compared
whole."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import pytest

from lejepa_id.cli.paper import dry_run
from lejepa_id.sweeps.paper import BUDGETS, EXPERIMENTS

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "paper.md"
REACHER_PACES = ROOT / "benchmarks" / "results" / "reacher-pace-cpu-2026-12-03.json"
BLOCK = re.compile(r"```text\n(lejepa-id paper --budget (\w+) --dry-run: .*?)\n```", re.S)


def pasted() -> list[tuple[str, list[str]]]:
    """(budget, lines) of every pasted paper dry run."""
    return [(m[2], m[1].splitlines()) for m in BLOCK.finditer(DOC.read_text())]


def _args(**kw) -> argparse.Namespace:
    return argparse.Namespace(**({"pace_from": None, "device": "cpu", "jobs": None} | kw))


def _planted(monkeypatch, cores: int) -> None:
    """Paces without a probe, and the pasted machine's core count."""
    from lejepa_id.reacher import pace as reacher_pace
    from lejepa_id.sweeps import pace

    def probe_group(specs, what):
        return pace.Pace(what, pace.group_work(specs), 0.01, 1.0, 0.1, 0.5, load=1.0)

    def probe_reacher(size, look, target, batch, device, render=True):
        return reacher_pace.ReacherPace(500.0, 0.1, 0.001, 1.0, f"cnn {size}x{size}", load=1.0)

    monkeypatch.setattr(pace, "probe_group", probe_group)
    monkeypatch.setattr(reacher_pace, "probe_reacher", probe_reacher)
    monkeypatch.setattr("os.cpu_count", lambda: cores)


def test_the_doc_pastes_the_smoke_cpu_full_and_h200_dry_runs() -> None:
    budgets = [b for b, _ in pasted()]
    assert budgets.count("smoke") == 1 and budgets.count("cpu") == 1
    assert budgets.count("full") == 2  # on this CPU, and on an H200 from stated paces
    assert any("(paces from table 'h200')" in lines[1] for _, lines in pasted())


@pytest.mark.parametrize("budget", ["smoke", "cpu", "full"])
def test_a_pasted_cpu_dry_run_is_what_the_command_prints_now(
    budget: str, tmp_path: Path, monkeypatch
) -> None:
    (lines,) = [lines for b, lines in pasted() if b == budget and "measured here" in lines[2]]
    device = re.fullmatch(r"device cpu \((\d+) CPU cores\), (\d+) concurrent groups?, .*", lines[1])
    assert device, lines[1]
    _planted(monkeypatch, int(device[1]))
    names = list(EXPERIMENTS)
    args = _args(jobs=BUDGETS[budget].jobs)  # as the command sets it
    now = list(dry_run(BUDGETS[budget], names, args, tmp_path / "fresh"))
    assert lines[:3] == now[:3]
    assert len(lines) == len(now) == 3 + len(names) + 2
    for old, new, exp in zip(lines[3:-2], now[3:-2], names, strict=True):
        assert old.split()[:4] == new.split()[:4], exp  # experiment, runs, stacks, steps
    assert lines[-2].split()[0] == "total"
    closing = re.fullmatch(
        r".*stored in (\S+) from an earlier dry run.*?, (\d+) s of probes.*", lines[-1]
    )
    assert closing, lines[-1]
    here = re.sub(r"stored in \S+ from", f"stored in {closing[1]} from", now[-1])
    assert re.sub(r", \d+ s of probes", f", {closing[2]} s of probes", here) == lines[-1]


@pytest.mark.parametrize("budget", ["smoke", "cpu"])
def test_the_pasted_reacher_rates_are_the_committed_reacher_paces(budget: str) -> None:
    from lejepa_id.sweeps.paper import reacher_sizes
    from lejepa_id.sweeps.stated import load_stated

    (lines,) = [lines for b, lines in pasted() if b == budget and "measured here" in lines[2]]
    (row,) = [x for x in lines if x.startswith("reacher ")]
    sizes = reacher_sizes(BUDGETS[budget].parts["reacher"])
    stated = load_stated(str(REACHER_PACES)).reacher_row(sizes.size, sizes.look, sizes.batch)
    assert stated is not None, budget
    assert f"{stated.images_per_s:,.0f} images/s trained" in row
    assert f"{stated.frames_per_s:,.0f} frames/s rendered" in row
    load = next(r["load"] for r in json.loads(REACHER_PACES.read_text())["rows"]
                if r["batch"] == sizes.batch)  # fmt: skip
    assert f"measured at load {load:.1f}" in row


def test_the_pasted_h200_projection_is_the_commands_output_now(tmp_path: Path) -> None:
    (lines,) = [lines for _, lines in pasted() if "(paces from table 'h200')" in lines[1]]
    assert lines[0].startswith("lejepa-id paper --budget full --dry-run: ")
    now = list(dry_run(BUDGETS["full"], list(EXPERIMENTS), _args(pace_from="h200"), tmp_path))
    assert now == lines


def test_the_check_sees_a_stale_paste(tmp_path: Path, monkeypatch) -> None:
    # A paste from before the range column (1 December) has a header the command no
    # longer prints: the comparison above fails on it.
    old = "experiment     runs  stacks     steps    projected  pace (measured here)"
    _planted(monkeypatch, 2)
    now = list(dry_run(BUDGETS["smoke"], ["grid"], _args(jobs=1), tmp_path / "fresh"))
    assert now[2] != old
