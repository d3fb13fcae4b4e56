"""What the stalled worlds and codes have in common: one row per diagnosed world.

    python scripts/stall_properties.py results/stall/diagnosis [--out docs/img/stall-properties]

Reads every ``diagnosis.json`` that ``scripts/stall_diagnosis.py`` wrote under the folder
and puts the world's properties (R²(x -> z) of the mixing alone, the condition number of
its Jacobian) beside what its starts reached: how many stalled, the lowest stalled and the
lowest identified training objective, the barrier on the straight line between them (the
highest objective on the slice above the stalled end), and the codes' shape (largest over
smallest eigenvalue of the code's covariance, largest |excess kurtosis| of a coordinate).
Writes ``OUT.json`` (every row) and ``OUT.txt`` (a markdown table). It judges nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from lejepa_id.records.io import atomic_write_bytes, atomic_write_json, read_json


def _spread(eigenvalues: list[float]) -> float:
    return max(eigenvalues) / min(eigenvalues)


def _lowest(inits: list[dict[str, Any]], key: str) -> float | None:
    values = [s[key] for s in inits]
    return min(values) if values else None


def world_row(doc: dict[str, Any]) -> dict[str, Any]:
    """One diagnosed world: its properties and what its stalled and identified starts reached."""
    stalled = [s for s in doc["inits"] if s["stalled"]]
    identified = [s for s in doc["inits"] if not s["stalled"]]
    row: dict[str, Any] = {
        "objective": doc["objective"],
        "dim": doc["world"]["dim"],
        "seed": doc["world"]["seed"],
        "starts": len(doc["inits"]),
        "stalled_starts": len(stalled),
        "r2_xz": doc["world"]["r2_xz"],
        "log10_cond_median": doc["world"]["log10_cond_median"],
        "log10_cond_max": doc["world"]["log10_cond_max"],
        "stalled_loss": _lowest(stalled, "loss"),
        "identified_loss": _lowest(identified, "loss"),
        "stalled_cov_spread": max(
            (_spread(s["code_cov_eigenvalues"]) for s in stalled), default=None
        ),
        "identified_cov_spread": max(
            (_spread(s["code_cov_eigenvalues"]) for s in identified), default=None
        ),
        "stalled_kurtosis": max((s["max_abs_excess_kurtosis"] for s in stalled), default=None),
        "identified_kurtosis": max(
            (s["max_abs_excess_kurtosis"] for s in identified), default=None
        ),
        "barrier": None,
    }
    if "slice" in doc:
        start = doc["inits"][doc["slice"]["from_init"]]["loss"]
        inside = [p["loss"] for p in doc["slice"]["points"] if 0.0 <= p["t"] <= 1.0]
        row["barrier"] = max(inside) - start
    return row


def collect_rows(folder: Path) -> list[dict[str, Any]]:
    rows = [world_row(read_json(p)) for p in sorted(folder.rglob("diagnosis.json"))]
    return sorted(rows, key=lambda r: (r["objective"], r["dim"], r["seed"]))


def _cell(value: Any, digits: int) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def markdown(rows: list[dict[str, Any]]) -> str:
    head = (
        "| objective | N | world | stalled starts | R²(x → z) | log10 cond (median, max) "
        "| objective: stalled, identified | barrier | cov spread: stalled, identified "
        "| max abs excess kurtosis: stalled, identified |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n"
    )
    body = "".join(
        f"| {r['objective']} | {r['dim']} | {r['seed']} | {r['stalled_starts']} of {r['starts']} "
        f"| {r['r2_xz']:.3f} | {r['log10_cond_median']:.2f}, {r['log10_cond_max']:.2f} "
        f"| {_cell(r['stalled_loss'], 5)}, {_cell(r['identified_loss'], 5)} "
        f"| {_cell(r['barrier'], 5)} "
        f"| {_cell(r['stalled_cov_spread'], 2)}, {_cell(r['identified_cov_spread'], 2)} "
        f"| {_cell(r['stalled_kurtosis'], 2)}, {_cell(r['identified_kurtosis'], 2)} |\n"
        for r in rows
    )
    return head + body


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folder", type=Path, help="a folder of stall_diagnosis.py outputs")
    p.add_argument("--out", type=Path, default=Path("docs/img/stall-properties"))
    args = p.parse_args(argv)
    rows = collect_rows(args.folder) if args.folder.is_dir() else []
    if not rows:
        print(f"{args.folder}: no diagnosis.json under it (run scripts/stall_diagnosis.py)",
              file=sys.stderr)  # fmt: skip
        sys.exit(2)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(args.out.with_suffix(".json"), {"worlds": rows})
    atomic_write_bytes(args.out.with_suffix(".txt"), markdown(rows).encode())
    print(markdown(rows), end="")


if __name__ == "__main__":
    main()
