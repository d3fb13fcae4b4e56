"""A judged claim and its premises: the result of applying one registered rule to data.

Verdicts: ``pass`` (the statistic meets the stated rule), ``fail`` (the data contradict
the claim under that rule), ``not shown`` (data present but too weak either way:
failing to reject a difference is not agreement), ``not measured`` (no data), ``not
judged`` (data of a budget too small for any verdict, the smoke budget's: the rule's
reading is kept in :attr:`Claim.rule_verdict`; see :mod:`lejepa_id.analysis.budget`).

Premises: a claim declares the conditions under which its rule applies (:class:`Premise`:
the theorem's scope, convergence of training, an identified code). A refutation needs
the premise met and the rule broken, so a setting whose premise fails is never counted
against the claim: it is reported as ``not shown (premise: ...)`` with the measured value
beside the threshold, and a claim none of whose settings meets its premises is
``not shown`` with ``reason`` saying which premise failed.

Every run a claim looked at is counted in :attr:`Claim.counts` under one of
:data:`COUNT_KEYS`, so a summary never hides the runs it left out.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

VERDICTS = ("pass", "fail", "not shown", "not measured", "not judged")
REQUIRED = ("id", "text", "metric", "filter", "statistic", "values", "verdict")
# Where every run of a claim's input went. "judged": counted by the statistic;
# "premise_unmet": of the claim's kind but its premise failed (reported, not counted);
# "vacuous": a bound no better than trivial; "undefined": the judged quantity is not
# finite; "collapsed": a code collapsed to a point (its ratios are 0/0); "diverged" and
# "failed": training did not finish; "outside_scope": everything else.
COUNT_KEYS = (
    "judged",
    "premise_unmet",
    "vacuous",
    "undefined",
    "collapsed",
    "diverged",
    "failed",
    "outside_scope",
)


def counts_text(counts: dict[str, int]) -> str:
    """``44 runs: 28 judged, 2 collapsed, 14 outside scope`` (zero counts left out)."""
    if not counts:
        return ""
    parts = [f"{n} {k.replace('_', ' ')}" for k, n in counts.items() if k != "total" and n]
    total = counts.get("total", 0)
    return f"{total} run{'s' * (total != 1)}: {', '.join(parts) or 'none'}"


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
    # The rule's verdict when a budget that judges nothing (smoke) withheld it: the
    # verdict is then "not judged" (analysis.budget.annotate); "" otherwise.
    rule_verdict: str = ""
    # The conditions of the rule (Premise.to_json) and, when the verdict is "not shown"
    # for want of them, which premise failed: "premise: ..." (empty otherwise).
    premises: list[dict[str, Any]] = field(default_factory=list)
    reason: str = ""
    # The registered rule that judged it (analysis.claims.registry): its version and the
    # hash of its definition; the verdicts under earlier versions where they differ; the
    # changelog of the rule (version, date, reason).
    version: int = 0
    fingerprint: str = ""
    other_versions: list[dict[str, Any]] = field(default_factory=list)
    changelog: list[dict[str, Any]] = field(default_factory=list)
    # Every run of the input, by where it went (COUNT_KEYS), and "total".
    counts: dict[str, int] = field(default_factory=dict)
    # Verdicts of the parts of a claim judged apart (e.g. per λ): label -> verdict text.
    parts: dict[str, str] = field(default_factory=dict)

    def declare(self, *premises: Premise) -> None:
        self.premises = [p.to_json() for p in premises]

    def count(self, **counts: int) -> None:
        """Add runs to the claim's counts (keys from COUNT_KEYS)."""
        for key, n in counts.items():
            if key not in COUNT_KEYS:
                raise ValueError(f"unknown run count {key!r}; known: {', '.join(COUNT_KEYS)}")
            self.counts[key] = self.counts.get(key, 0) + int(n)

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
