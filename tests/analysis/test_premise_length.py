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
import sys
from pathlib import Path

from lejepa_id.analysis.convergence import mean_loss_plateau

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


def test_the_script_would_train_nothing_more_into_the_committed_folder() -> None:
    # Its sweeps, dry: every run the script names is committed with the config it gives
    # (a changed default or setting would make a run "to train"), and nothing else is.
    env = dict(os.environ, LEJEPA_ID=str(Path(sys.executable).parent / "lejepa-id"))
    proc = subprocess.run(
        ["bash", str(ROOT / "scripts" / "premise_length.sh"), str(LONGER), "--dry-run"],
        capture_output=True, text=True, env=env, check=False, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    planned = [line for line in proc.stdout.splitlines() if " run under " in line]
    assert planned and all("(1 done, 0 to train)" in line for line in planned), proc.stdout
    assert len(planned) == len(list(LONGER.glob("s*/*/*/result.json")))
