"""The committed verdicts are what the code judges today: each results folder's claims.json
is judged again from the same runs and must agree claim by claim, so that a rule, a
reference file or a run that changed without the report being regenerated is caught
(the published_2d reference once grew two seeds while results/claims.json kept the old
one-seed verdict). Regenerate with the commands in scripts/full_results.sh,
scripts/beyond_results.sh and docs/stall.md (results/stall-lambda with ``--with
results/stall``), results/paper-overnight with ``--with results/scaling-gaps --with
results/scaling-large`` (docs/overnight.md); the Reacher ones with
``python -m lejepa_id.reacher.claims PLAN.json [DATASETS_DIR]``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lejepa_id.analysis.claims import write_claims
from lejepa_id.analysis.claims.reacher_rules import read_datasets
from lejepa_id.analysis.claims.reacher_rules import write_claims as write_reacher_claims
from lejepa_id.analysis.report import judge_folder, table_frame, with_runs
from lejepa_id.analysis.table import collect

RESULTS = Path(__file__).resolve().parents[2] / "results"

# (runs folder, its committed claims.json, judged from the committed table instead of the
# result files: the folder keeps no weights, the folders judged beside it: `report --with`)
FOLDERS = [
    ("runs", RESULTS / "claims.json", False, ()),
    ("paper-cpu", RESULTS / "paper-cpu" / "claims.json", True, ()),
    # The overnight folders keep their runs' files (docs/overnight.md): judged from them.
    # Its scaling claims read the runs trained apart at N = 32, 128, 512 and 1024, its
    # gennorm claim lejepa at α 0.5 and 8 (gennorm-wide's α 1, 2, 4 repeat its own runs).
    (
        "paper-overnight",
        RESULTS / "paper-overnight" / "claims.json",
        False,
        ("scaling-gaps", "scaling-large", "gennorm-wide"),
    ),
    (
        "paper-overnight/beyond",
        RESULTS / "paper-overnight" / "beyond" / "claims.json",
        False,
        (),
    ),
    ("beyond", RESULTS / "beyond" / "claims.json", False, ()),
    ("stall", RESULTS / "stall" / "claims.json", False, ()),
    ("stall-cuda", RESULTS / "stall-cuda" / "claims.json", False, ()),
    ("stall-lambda", RESULTS / "stall-lambda" / "claims.json", False, ("stall",)),
    ("scaling-large", RESULTS / "scaling-large" / "claims.json", False, ()),
    ("scaling-gaps", RESULTS / "scaling-gaps" / "claims.json", False, ()),
    ("gennorm-wide", RESULTS / "gennorm-wide" / "claims.json", False, ()),
]


def _rejudged(folder: str, from_table: bool, with_dirs: tuple[str, ...], tmp: Path) -> dict:
    directory = RESULTS / folder
    frame = table_frame(directory) if from_table else collect(directory).frame
    frame, _ = with_runs(frame, [RESULTS / other for other in with_dirs])
    claims, _, _ = judge_folder(directory, frame)
    # Written and read back as the report writes them (NaN as null, tuples as lists).
    write_claims(tmp / "claims.json", claims)
    return {c["id"]: c for c in json.loads((tmp / "claims.json").read_text())["claims"]}


@pytest.mark.parametrize(
    ("folder", "committed", "from_table", "with_dirs"), FOLDERS, ids=[f[0] for f in FOLDERS]
)
def test_committed_claims_are_current(
    folder: str, committed: Path, from_table: bool, with_dirs: tuple[str, ...], tmp_path: Path
) -> None:
    stored = {c["id"]: c for c in json.loads(committed.read_text())["claims"]}
    fresh = _rejudged(folder, from_table, with_dirs, tmp_path)
    assert sorted(fresh) == sorted(stored), f"claims differ in {committed}: regenerate the report"
    stale = [cid for cid in fresh if fresh[cid] != stored[cid]]
    assert not stale, f"{committed}: stale verdicts for {stale}; regenerate the report"


# Reacher claims are judged from plan.json (and the rendered datasets' records, where the
# folder keeps them).
PLANS = [
    RESULTS / "paper-cpu" / "reacher" / "plan.json",
    RESULTS / "paper-cpu" / "reacher" / "sweep" / "plan.json",
    RESULTS / "reacher_control" / "plan.json",
    RESULTS / "paper-overnight" / "reacher" / "plan.json",
]


@pytest.mark.parametrize("plan", PLANS, ids=[str(p.parent.relative_to(RESULTS)) for p in PLANS])
def test_committed_reacher_claims_are_current(plan: Path, tmp_path: Path) -> None:
    datasets = plan.parent / "datasets"
    fresh = tmp_path / "claims.json"
    write_reacher_claims(
        json.loads(plan.read_text()), fresh, read_datasets(datasets) if datasets.is_dir() else {}
    )
    stored = json.loads((plan.parent / "claims.json").read_text())["claims"]
    assert json.loads(fresh.read_text())["claims"] == stored, f"{plan.parent}/claims.json is stale"
