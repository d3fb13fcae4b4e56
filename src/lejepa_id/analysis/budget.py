"""What a results folder was run at, against the paper's sizes, for the report.

``lejepa-id paper`` writes ``DIR/budget.json`` (:func:`lejepa_id.sweeps.paper.budget_record`):
per experiment, the steps (or epochs), seeds, settings and runs of the budget and of
the paper, the shortfalls, and whether the budget's runs can judge a claim at all
(``judges``: false for the smoke budget, whose 30-step runs test code paths only). The
report shows it as a header table; :func:`annotate` notes on every claim judged on runs
shorter or fewer than the paper's which experiments fell short, and under a budget that
does not judge it withholds the verdict: ``not judged`` (the rule's reading kept in
``rule_verdict``), never a ``fail`` or ``pass`` that no number of the folder supports.
:func:`table_note` says the budget once per claims table, so no verdict cell repeats it.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lejepa_id.analysis.claims.base import Claim
from lejepa_id.records.io import read_json
from lejepa_id.sweeps.paper import BUDGET_FILE, format_duration

SYNTHETIC = ("2d", "gennorm", "scaling", "grid")
# The experiments whose runs each claim is judged on (by claim id, or id prefix).
CLAIM_EXPERIMENTS: dict[str, tuple[str, ...]] = {
    "alignment_gap": SYNTHETIC,
    "theorem3_bound": SYNTHETIC,
    "gaussian_peak": ("gennorm",),
    "scaling": ("scaling",),
    "published_2d": ("2d",),
    "anisotropic": ("anisotropic", "anisotropic_x2"),
    "code_size": ("codedim", "codedim_x2"),
    "action": ("action", "action_x2"),
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


def judges(record: dict[str, Any] | None) -> bool:
    """Whether the budget's runs can judge a claim: no budget.json (a sweep's own sizes)
    or a budget that says so; a budget.json written before the ``judges`` key was
    recorded judges unless it is the smoke budget's."""
    if record is None:
        return True
    flag = record.get("judges")
    return flag if isinstance(flag, bool) else record.get("budget") != "smoke"


def short_experiments(claim: Claim, record: dict[str, Any] | None) -> dict[str, list[str]]:
    """Per experiment the claim draws on, its shortfalls against the paper (the run
    count left out: seeds and settings say it); only experiments that fell short."""
    if record is None or claim.verdict == "not measured":
        return {}  # a claim with no data was not judged on any run
    out = {}
    for name in claim_experiments(claim, record):
        shortfalls = [
            s for s in record["experiments"][name].get("shortfalls") or [] if s[:5] != "runs "
        ]
        if shortfalls:
            out[name] = shortfalls
    return out


def budget_note(claim: Claim, record: dict[str, Any] | None) -> str:
    """``judged at the cpu budget, below the paper's sizes: ...`` or "" (the paper's)."""
    parts = [f"{name}: {', '.join(s)}" for name, s in short_experiments(claim, record).items()]
    if not parts:
        return ""
    name = (record or {}).get("budget", "?")
    return f"judged at the {name} budget, below the paper's sizes: " + ("; ".join(parts))


NOT_JUDGED = "not judged"


def annotate(claims: Sequence[Claim], record: dict[str, Any] | None) -> None:
    """Set each claim's ``budget`` note; under a budget that does not judge
    (:func:`judges`) every verdict but ``not measured`` becomes ``not judged``, with
    the rule's own verdict kept in ``rule_verdict`` and ``reason`` naming the budget."""
    for claim in claims:
        claim.budget = budget_note(claim, record)
        if not judges(record) and claim.verdict not in ("not measured", NOT_JUDGED):
            claim.rule_verdict = claim.verdict
            claim.verdict = NOT_JUDGED
            name = (record or {}).get("budget", "?")
            claim.reason = f"budget: the {name} budget tests code paths only"


def table_note(claims: Sequence[Claim], record: dict[str, Any] | None) -> str:
    """What the budget means for a table of claims, said once: the verdicts withheld (a
    budget that does not judge), and each experiment's shortfalls against the paper
    for the claims marked with a dagger (:func:`cell_mark`); "" at the paper's sizes."""
    if record is None:
        return ""
    short: dict[str, list[str]] = {}
    for claim in claims:
        short |= short_experiments(claim, record)
    name = record.get("budget", "?")
    parts = []
    if not judges(record):
        parts.append(
            f"Not judged (budget): the {name} budget runs every code path on tiny sizes, "
            "so no verdict here is a finding; each cell shows, in grey, what the rule "
            "would read"
        )
    if short:
        listed = "; ".join(f"{e}: {', '.join(s)}" for e, s in short.items())
        parts.append(f"† judged at the {name} budget, below the paper's sizes: {listed}")
    return ". ".join(parts) + ("." if parts else "")


def cell_mark(claim: Claim, record: dict[str, Any] | None) -> str:
    """``† 2d, grid``: the experiments below the paper's sizes that this claim was
    judged on (the table's note says by how much), or ""."""
    names = list(short_experiments(claim, record))
    return f"† {', '.join(names)}" if names else ""


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
    timed = any(isinstance(e.get("time"), dict) for e in record["experiments"].values())
    rows = []
    for name, e in record["experiments"].items():
        length = _pair(e, "steps") or (_pair(e, "epochs") + " epochs")
        cells = [
            name,
            length,
            _pair(e, "seeds"),
            _pair(e, "settings"),
            _pair(e, "runs"),
            "paper's sizes" if not e.get("shortfalls") else "; ".join(e["shortfalls"]),
            e.get("why", ""),
        ]
        if timed:
            cells += time_cells(e.get("time"))
        rows.append("<tr>" + "".join(f"<td>{h(str(v))}</td>" for v in cells) + "</tr>")
    extra = "<th>projected</th><th>measured</th>" if timed else ""
    return [
        f"<h2>Budget: {h(str(record.get('budget')))}</h2>",
        f"<p>{h(str(record.get('summary', '')))}. Each cell: this folder's value "
        "\u201cof\u201d the paper's where they differ."
        + (
            " Projected: from the paces committed runs recorded on the machine kind the "
            "budget was sized for (docs/overnight.md); measured: the wall time of the "
            "invocations that ran the experiment, summed."
            if timed
            else ""
        )
        + "</p>",
        # Seven columns or nine: on a narrow screen the table scrolls inside its box.
        "<div class='wide'><table><thead><tr><th>experiment</th><th>steps</th><th>seeds</th>"
        "<th>settings</th><th>runs</th><th>below the paper</th><th>why</th>"
        + extra
        + "</tr></thead><tbody>",
        *rows,
        "</tbody></table></div>",
    ]


def time_cells(entry: Any) -> list[str]:
    """(projected, measured) of an experiment's ``time`` entry: ``1 h 51 min (68 min to
    2 h 24 min)`` and ``2 h 03 min (1.11 x projected)``, or "-" where absent."""
    entry = entry if isinstance(entry, dict) else {}
    mid, span, got = (
        entry.get("projected_s"),
        entry.get("projected_range_s"),
        entry.get("measured_s"),
    )
    projected = "-"
    if isinstance(mid, int | float):
        projected = format_duration(mid)
        if isinstance(span, list) and len(span) == 2:
            projected += f" ({format_duration(span[0])} to {format_duration(span[1])})"
    measured = "-"
    if isinstance(got, int | float):
        measured = format_duration(got)
        if isinstance(mid, int | float) and mid > 0:
            measured += f" ({got / mid:.2f} x projected)"
    return [projected, measured]
