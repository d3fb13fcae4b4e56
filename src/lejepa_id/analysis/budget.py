"""What a results folder was run at, against the paper's sizes, for the report.

``lejepa-id paper`` writes ``DIR/budget.json`` (:func:`lejepa_id.sweeps.paper.budget_record`):
per experiment, the steps (or epochs), seeds, settings and runs of the budget and of
the paper, and the shortfalls. The report shows it as a header table, and
:func:`annotate` marks every claim judged on runs shorter or fewer than the paper's
next to its verdict. This module only adds that annotation: it never changes a verdict.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lejepa_id.analysis.claims.base import Claim
from lejepa_id.records.io import read_json
from lejepa_id.sweeps.paper import BUDGET_FILE

SYNTHETIC = ("2d", "gennorm", "scaling", "grid")
# The experiments whose runs each claim is judged on (by claim id, or id prefix).
CLAIM_EXPERIMENTS: dict[str, tuple[str, ...]] = {
    "alignment_gap": SYNTHETIC,
    "theorem3_bound": SYNTHETIC,
    "gaussian_peak": ("gennorm",),
    "scaling": ("scaling",),
    "published_2d": ("2d",),
    "anisotropic": ("anisotropic",),
    "code_size": ("codedim",),
    "action": ("action",),
    "reacher": ("reacher",),
}


def read_budget(directory: str | Path) -> dict[str, Any] | None:
    """``DIR/budget.json`` as a dict, or None when absent or not a budget record."""
    try:
        data = read_json(Path(directory) / BUDGET_FILE)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("experiments"), dict):
        return None
    return data


def claim_experiments(claim: Claim, record: dict[str, Any]) -> list[str]:
    """The recorded experiments a claim draws on: those of :data:`CLAIM_EXPERIMENTS`
    that were recorded, else (an unknown claim, or one judged on other experiments'
    runs, e.g. the alignment gap in a folder of beyond-the-paper families) every one."""
    recorded = list(record["experiments"])
    for key, names in CLAIM_EXPERIMENTS.items():
        if claim.id == key or claim.id.startswith(key + "_") or claim.source == key:
            return [n for n in names if n in recorded] or recorded
    return recorded


def budget_note(claim: Claim, record: dict[str, Any] | None) -> str:
    """``judged at the cpu budget, below the paper's sizes: ...`` or "" (the paper's)."""
    if record is None or claim.verdict == "not measured":
        return ""  # a claim with no data was not judged on any run
    parts = []
    for name in claim_experiments(claim, record):
        # Runs = seeds x settings: both are named already.
        shortfalls = [
            s for s in record["experiments"][name].get("shortfalls") or [] if s[:5] != "runs "
        ]
        if shortfalls:
            parts.append(f"{name}: {', '.join(shortfalls)}")
    if not parts:
        return ""
    return f"judged at the {record.get('budget', '?')} budget, below the paper's sizes: " + (
        "; ".join(parts)
    )


def annotate(claims: Sequence[Claim], record: dict[str, Any] | None) -> None:
    """Set each claim's ``budget`` note (verdicts untouched)."""
    for claim in claims:
        claim.budget = budget_note(claim, record)


def _pair(entry: dict[str, Any], key: str) -> str:
    mine, paper = entry["budget"].get(key), entry["paper"].get(key)
    if mine is None:
        return ""
    fmt = (lambda v: f"{v:,}") if isinstance(mine, int) else str
    return fmt(mine) if mine == paper else f"{fmt(mine)} of {fmt(paper)}"


def header_html(record: dict[str, Any] | None) -> list[str]:
    """The report's budget section: per experiment, what ran against the paper's."""
    if record is None:
        return []
    h = html.escape
    rows = []
    for name, e in record["experiments"].items():
        length = _pair(e, "steps") or (_pair(e, "epochs") + " epochs")
        rows.append(
            "<tr>"
            + "".join(
                f"<td>{h(str(v))}</td>"
                for v in (
                    name,
                    length,
                    _pair(e, "seeds"),
                    _pair(e, "settings"),
                    _pair(e, "runs"),
                    "paper's sizes" if not e.get("shortfalls") else "; ".join(e["shortfalls"]),
                    e.get("why", ""),
                )
            )
            + "</tr>"
        )
    return [
        f"<h2>Budget: {h(str(record.get('budget')))}</h2>",
        f"<p>{h(str(record.get('summary', '')))}. Each cell: this folder's value "
        "\u201cof\u201d the paper's where they differ.</p>",
        "<table><thead><tr><th>experiment</th><th>steps</th><th>seeds</th><th>settings</th>"
        "<th>runs</th><th>below the paper</th><th>why</th></tr></thead><tbody>",
        *rows,
        "</tbody></table>",
    ]
