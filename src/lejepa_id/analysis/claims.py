"""Claims: the paper's predictions, each judged on a named metric, filter and statistic.

A claim provider is a function ``frame -> Claim`` over the finished runs;
``synthetic_claims.PROVIDERS`` lists the synthetic ones. Other pipelines add claims as
JSON files of the same schema (:data:`EXTERNAL_FILES`, e.g. ``DIR/reacher/claims.json``, written by
the Reacher commands), read by :func:`read_claims_file`. :func:`collect_claims` joins
both and :func:`write_claims` writes ``claims.json``. The schema is documented in
docs/sweeps.md ("claims.json").

Verdicts: ``pass`` (the statistic meets the stated rule), ``fail`` (the data contradict
the claim under that rule), ``not shown`` (data present but too weak either way:
failing to reject a difference is not agreement), ``not measured`` (no data).

Premises: a claim declares the conditions under which its rule applies (:class:`Premise`:
the theorem's scope, convergence of training to the optimum the prediction is about, an
identified code). A refutation needs the premise met and the rule broken, so a setting
whose premise fails is never counted against the claim: it is reported as
``not shown (premise: ...)`` with the measured value beside the threshold, and a claim
none of whose settings meets its premises is ``not shown`` with ``reason`` saying which
premise failed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from lejepa_id.records.io import atomic_write_json

VERDICTS = ("pass", "fail", "not shown", "not measured")
REQUIRED = ("id", "text", "metric", "filter", "statistic", "values", "verdict")
SCHEMA_VERSION = 1
# Claims files other pipelines write, relative to the results directory.
EXTERNAL_FILES = ("reacher/claims.json",)


@dataclass(frozen=True)
class Premise:
    """One condition of a claim's rule: a name, what it states, its threshold if any."""

    name: str
    statement: str
    threshold: float | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def check(premise: Premise, value: float | None, held: bool) -> dict[str, Any]:
    """One premise as measured on one setting: its value and whether it held."""
    number = None if value is None or value != value else float(value)  # NaN -> None
    return {"value": number, "threshold": premise.threshold, "held": bool(held)}


def failed_premises(checks: dict[str, dict[str, Any]]) -> list[str]:
    """The names of the premises that did not hold, in declaration order."""
    return [name for name, c in checks.items() if not c["held"]]


def premise_status(checks: dict[str, dict[str, Any]]) -> str | None:
    """``not shown (premise: ...)`` naming every failed premise and its value, else None."""
    parts = []
    for name in failed_premises(checks):
        c = checks[name]
        value = "unmeasured" if c["value"] is None else f"{c['value']:.3g}"
        bound = "" if c["threshold"] is None else f" vs {c['threshold']:g}"
        parts.append(f"{name} {value}{bound}")
    return f"not shown (premise: {'; '.join(parts)})" if parts else None


@dataclass
class Claim:
    """One claim as judged: what, on which metric and runs, by which statistic, verdict."""

    id: str
    text: str
    metric: str
    filter: str
    statistic: str
    values: dict[str, Any]
    verdict: str
    summary: str = ""  # the measured values in one line, for people
    rule: str = ""  # when the verdict is pass, fail or not shown
    source: str = "synthetic"
    notes: list[str] = field(default_factory=list)
    budget: str = ""  # set by analysis.budget.annotate: runs shorter or fewer than the paper's
    # The conditions of the rule (Premise.to_json) and, when the verdict is "not shown"
    # for want of them, which premise failed: "premise: ..." (empty otherwise).
    premises: list[dict[str, Any]] = field(default_factory=list)
    reason: str = ""

    def declare(self, *premises: Premise) -> None:
        self.premises = [p.to_json() for p in premises]

    def premise_unmet(self, reason: str) -> None:
        """Verdict ``not shown`` because the premise failed: never ``fail``."""
        self.verdict = "not shown"
        self.reason = f"premise: {reason}"
        self.summary = f"not shown (premise: {reason})" + (
            f"; {self.summary}" if self.summary else ""
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any, source: str) -> Claim:
        """A claim from a JSON object; ValueError naming the first bad key."""
        if not isinstance(data, dict):
            raise ValueError("a claim must be a JSON object")
        for key in REQUIRED:
            if key not in data:
                raise ValueError(f"claim lacks required key {key!r}")
        if data["verdict"] not in VERDICTS:
            raise ValueError(
                f"claim {data['id']!r} has verdict {data['verdict']!r}; allowed: "
                + ", ".join(VERDICTS)
            )
        if not isinstance(data["values"], dict):
            raise ValueError(f"claim {data['id']!r}: 'values' must be an object")
        known = {f: data[f] for f in cls.__dataclass_fields__ if f in data}
        known.setdefault("source", source)
        return cls(**known)


ClaimProvider = Callable[[pd.DataFrame], Claim]


def read_claims_file(path: Path) -> tuple[list[Claim], list[str]]:
    """Claims from a ``{"claims": [...]}`` file; bad entries are skipped with a note."""
    if not path.is_file():
        return [], []
    source = path.parent.name or "external"
    try:
        data = json.loads(path.read_text())
        entries = data["claims"]
        if not isinstance(entries, list):
            raise ValueError("'claims' must be a list")
    except (OSError, ValueError, KeyError, TypeError) as err:
        return [], [f"{path}: not a claims file ({err}); its claims are not shown"]
    claims, notes = [], []
    for i, entry in enumerate(entries):
        try:
            claims.append(Claim.from_json(entry, source))
        except (ValueError, TypeError) as err:
            notes.append(f"{path}: claim {i} skipped: {err}")
    return claims, notes


def collect_claims(
    directory: Path, frame: pd.DataFrame, providers: Sequence[ClaimProvider]
) -> tuple[list[Claim], list[str]]:
    """The providers' claims on ``frame`` (finished runs), then the external files'."""
    claims = [provider(frame) for provider in providers]
    notes: list[str] = []
    for rel in EXTERNAL_FILES:
        more, why = read_claims_file(directory / rel)
        claims += more
        notes += why
    return claims, notes


def write_claims(path: Path, claims: Sequence[Claim]) -> None:
    atomic_write_json(
        path, {"schema": SCHEMA_VERSION, "claims": [claim.to_json() for claim in claims]}
    )
