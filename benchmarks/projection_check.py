"""Projected against measured wall time per experiment of a finished paper budget, and the
same projection made again from the paces of each experiment's own runs.

    python benchmarks/projection_check.py results/paper-overnight --budget overnight \
        --json benchmarks/results/projection-check-overnight.json

The dry run projects each experiment from the paces committed runs recorded
(``benchmarks/results/paces-cpu-2core.json``); ``budget.json`` keeps that projection and
the measured wall time. Where the two disagree, either the paces are the cause (rows
measured under another load, at another run length) or the model that turns paces into a
wall time (members x steps x the median pace, groups longest first on 2 workers, stacking's
gain not counted). Projecting again with the same model from the rows of the experiment's
own runs separates the two: where the re-projection lands near the measured time, the
model holds and the paces made the difference. Reads committed files only and trains
nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from lejepa_id.errors import UsageError
from lejepa_id.sweeps.committed import Table, collect, load_table, project_budget
from lejepa_id.sweeps.paper import BUDGET_FILE, format_duration, get_budget

ROOT = Path(__file__).resolve().parents[1]


def _times(folder: Path) -> dict[str, dict[str, Any]]:
    path = folder / BUDGET_FILE
    if not path.exists():
        return {}
    experiments = json.loads(path.read_text()).get("experiments", {})
    return {name: entry.get("time", {}) for name, entry in experiments.items()}


def _own_table(out: Path, name: str) -> Table:
    """The pace rows of experiment ``name``'s own runs (the beyond families one level
    down). Reacher's rendering pace stays the committed table's: the rendered datasets
    (and the records of their rendering) are not committed, so a fresh clone has none."""
    runs = out / name if (out / name).exists() else out / "beyond" / name
    rows = collect(ROOT, bases=[str(runs.relative_to(ROOT))], bench=False)["rows"]
    if name == "reacher":
        rows += [r for r in load_table().rows if r["kind"] == "render"]
    return Table(tuple(rows), name)


def check(out: Path, budget_name: str = "overnight") -> list[dict[str, Any]]:
    """One row per experiment with a recorded time under ``out`` (inside the source tree):
    the projection ``budget.json`` recorded, the re-projection from the experiment's own
    runs' paces, and the measured seconds (completed invocations only)."""
    out = out.resolve()
    times = _times(out) | _times(out / "beyond")
    budget = get_budget(budget_name)
    rows = []
    for name, time in times.items():
        if name not in budget.parts:
            continue
        # The experiment's own runs only: another experiment's runs of the same class ran
        # under another load, which is the very difference this check separates out.
        again = project_budget(budget, [name], _own_table(out, name), jobs=2, out=out)[name].mid
        rows.append(
            {
                "experiment": name,
                "projected_s": time.get("projected_s"),
                "own_paces_s": None if again is None else round(again, 1),
                "measured_s": time.get("measured_s"),
            }
        )
    return rows


def _ratio(a: float | None, b: float | None) -> str:
    return "—" if a is None or not b else f"{a / b:.2f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path, help="the budget's folder (holds budget.json)")
    p.add_argument("--budget", default="overnight", help="the budget it ran (default overnight)")
    p.add_argument("--json", type=Path, help="also write the rows to this JSON file")
    args = p.parse_args(argv)
    if not args.out.resolve().is_relative_to(ROOT):
        print(f"{args.out}: the budget's folder must lie inside {ROOT}", file=sys.stderr)
        return 2
    try:
        rows = check(args.out, args.budget)
    except UsageError as err:
        print(f"projection_check: {err}", file=sys.stderr)
        return 2
    if not rows:
        print(f"no {BUDGET_FILE} with times under {args.out}", file=sys.stderr)
        return 2
    head = ("projected", "own paces", "measured")
    print(f"{'experiment':<16}" + "".join(f"{h:>13}" for h in head) + f"{'m/p':>7}{'m/own':>7}")
    for r in rows:
        proj, own, meas = r["projected_s"], r["own_paces_s"], r["measured_s"]
        cells = [format_duration(v) if v is not None else "—" for v in (proj, own, meas)]
        print(
            f"{r['experiment']:<16}{cells[0]:>13}{cells[1]:>13}{cells[2]:>13}"
            f"{_ratio(meas, proj):>7}{_ratio(meas, own):>7}"
        )
    print(
        "projected: budget.json's projection from the committed pace table (the dry run's); "
        "own paces: the same model fed only the experiment's own runs; measured: budget.json "
        "(the invocations that completed)"
    )
    if args.json:
        data = {"folder": str(args.out), "budget": args.budget, "rows": rows}
        args.json.write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
