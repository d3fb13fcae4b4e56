"""The table of docs/overnight.md that says how the convergence premise (v3) moves with
the schedule's length is the committed runs' own numbers: every cell is recomputed from
a ``result.json`` (20,000 steps: the overnight budget's run; longer: the run that
``scripts/premise_length.sh`` trained into ``results/premise-length``), and every run of
that folder is in the table."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
from pathlib import Path

import pytest

from lejepa_id.analysis.convergence import mean_loss_plateau
from lejepa_id.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "overnight.md"
LONGER = ROOT / "results" / "premise-length"
BUDGET = ROOT / "results" / "paper-overnight" / "beyond"
STEPS = (20000, 40000, 80000)
ROW = re.compile(r"^\| `(?P<run>[a-z]+/[^`]+)` \|(?P<cells>.*)\|$")


def _result(run: str, steps: int) -> dict:
    base = BUDGET if steps == 20000 else LONGER / f"s{steps}"
    return json.loads((base / run / "result.json").read_text())


def _rows() -> dict[str, list[str]]:
    rows = {}
    for line in DOC.read_text().splitlines():
        m = ROW.match(line)
        if m:
            rows[m["run"]] = [c.strip() for c in m["cells"].split("|")]
    return rows


def _matches(shown: str, value: float) -> bool:
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    return math.isclose(float(shown), round(value, decimals), abs_tol=10**-decimals / 2)


def test_every_plateau_and_final_loss_in_the_table_is_recomputed_from_its_run() -> None:
    rows = _rows()
    assert len(rows) >= 4, "the premise-length table is missing from docs/overnight.md"
    for run, cells in rows.items():
        plateaus, final = cells[: len(STEPS)], cells[len(STEPS)]
        measured = [s for s, shown in zip(STEPS, plateaus, strict=True) if shown != "—"]
        assert measured[0] == 20000 and len(measured) >= 2, run
        for steps, shown in zip(STEPS, plateaus, strict=True):
            if shown == "—":
                assert not (LONGER / f"s{steps}" / run).exists(), (run, steps)
                continue
            result = _result(run, steps)
            assert result["config"]["steps"] == steps and result["status"] == "finished"
            assert _matches(shown, mean_loss_plateau(result["curves"])), (run, steps, shown)
        first, last = (s.strip() for s in final.split("→"))
        ends = [_result(run, s)["curves"]["loss_mean"][-1] for s in (measured[0], measured[-1])]
        assert _matches(first, ends[0]) and _matches(last, ends[1]), (run, final)


def test_every_longer_run_committed_is_in_the_table() -> None:
    rows = _rows()
    for path in sorted(LONGER.glob("s*/*/*/result.json")):
        steps = int(path.parts[-4][1:])
        run = f"{path.parts[-3]}/{path.parts[-2]}"
        assert run in rows, run
        assert rows[run][STEPS.index(steps)] != "—", (run, steps)


def test_the_script_would_train_nothing_more_into_the_committed_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The script's sweeps, dry: every run it names is committed with the config it gives
    # (a changed default or setting would make a run "to train"), and nothing else is. A
    # stand-in for the command line records each call (arguments one per line after
    # their count), which then runs in this process.
    log, shim = tmp_path / "calls", tmp_path / "lejepa-id"
    shim.write_text(f'#!/usr/bin/env bash\nprintf "%s\\n" "$#" "$@" >> "{log}"\n')
    shim.chmod(0o755)
    script = ROOT / "scripts" / "premise_length.sh"
    env = dict(os.environ, LEJEPA_ID=str(shim))
    proc = subprocess.run(
        ["bash", str(script), str(LONGER), "--dry-run"], env=env, check=False, timeout=60
    )
    assert proc.returncode == 0
    lines, calls = log.read_text().splitlines(), []
    while lines:
        n = int(lines[0])
        calls.append(lines[1 : n + 1])
        lines = lines[n + 1 :]
    assert calls and all(call[0] == "sweep" and call[-1] == "--dry-run" for call in calls)
    planned = []
    for call in calls:
        assert main(call) == 0
        planned += [ln for ln in capsys.readouterr().out.splitlines() if " run under " in ln]
    assert len(planned) == len(calls)
    assert all("(1 done, 0 to train)" in line for line in planned), planned
    assert len(planned) == len(list(LONGER.glob("s*/*/*/result.json")))
