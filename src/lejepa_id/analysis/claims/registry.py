"""The registry of claims: each rule registered, versioned and shown falsifiable before
it judges any data.

A claim's rule (:class:`ClaimRule`) is data: its text, metric, filter, statistic, scope,
premises and thresholds, with a version, the date it was registered and why. Its
``fingerprint`` is a hash of that definition, recorded in ``claims.json`` beside the
verdict, so a reader can tell which rule judged it. Changing a rule (a threshold, the
filter, a premise) is a new version, :meth:`ClaimRule.amend`, with a dated reason; every
version stays registered, and :func:`judge_all` judges the data under each, reporting
the verdicts that differ from the current one ("pass under v2; fail under v1").

Registration (:func:`register_claim`) refuses a rule that could not fail: it takes a
fabricator of runs where every premise holds and the claim is false, and one per premise
of runs where that premise fails, and judges them on the spot: the first must be
``fail``, the others ``not shown`` (or ``not measured`` for the premise ``scope``: runs
outside a claim's scope are no data for it). A plugin registers claims the same way
(``lejepa-id report DIR --plugin my_claims.py``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from lejepa_id.analysis.claims.base import COUNT_KEYS, Claim, Premise
from lejepa_id.errors import UsageError

SOURCES = ("runs", "reacher")
SCOPE_PREMISE = "scope"  # what a rule reads: the runs table, or a Reacher plan.json


@dataclass(frozen=True)
class Evidence:
    """What claims are judged on: the runs table (every status; judges see the finished
    runs) and, for the Reacher claims, plan.json and the datasets' render metadata."""

    frame: pd.DataFrame = field(default_factory=pd.DataFrame)
    plan: dict[str, Any] | None = None
    datasets: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Reference data a rule compares with, by name (e.g. the published code's values on
    # a device); None where a rule should read the committed file it names.
    references: dict[str, Any] | None = None

    def reference(self, name: str, default: Callable[[], Any]) -> Any:
        """The reference ``name``: given here, else ``default()`` (the committed file)."""
        if self.references is not None and name in self.references:
            return self.references[name]
        return default()

    def finished(self) -> pd.DataFrame:
        if self.frame.empty or "status" not in self.frame.columns:
            return self.frame
        return self.frame[self.frame["status"] == "finished"]


@dataclass(frozen=True)
class ClaimRule:
    """One version of a claim's rule, as data. ``thresholds`` are the numbers the judge
    reads (never module constants), so a changed threshold is a changed fingerprint."""

    id: str
    version: int
    date: str  # ISO date the version was registered
    reason: str  # why this version exists ("first registered", or what changed and why)
    text: str
    metric: str
    filter: str
    statistic: str
    rule: str
    scope: str
    premises: tuple[Premise, ...] = ()
    thresholds: Mapping[str, Any] = field(default_factory=dict)
    source: str = "runs"
    label: str = "synthetic"  # the claim's source as the report shows it

    def definition(self) -> dict[str, Any]:
        """Everything that decides a verdict, as JSON data (the fingerprint's input)."""
        return {
            "id": self.id,
            "version": self.version,
            "text": self.text,
            "metric": self.metric,
            "filter": self.filter,
            "statistic": self.statistic,
            "rule": self.rule,
            "scope": self.scope,
            "premises": [p.to_json() for p in self.premises],
            "thresholds": dict(self.thresholds),
            "source": self.source,
        }

    @property
    def fingerprint(self) -> str:
        text = json.dumps(self.definition(), sort_keys=True, ensure_ascii=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def t(self, name: str) -> Any:
        """A threshold of this version; a KeyError names it when it is not declared."""
        try:
            return self.thresholds[name]
        except KeyError:
            raise KeyError(
                f"claim {self.id!r} v{self.version} declares no threshold {name!r}"
            ) from None

    def amend(self, date: str, reason: str, **changes: Any) -> ClaimRule:
        """The next version: ``changes`` replace fields (``thresholds`` merges)."""
        if "thresholds" in changes:
            changes["thresholds"] = {**self.thresholds, **changes["thresholds"]}
        return replace(self, version=self.version + 1, date=date, reason=reason, **changes)

    def start(self) -> Claim:
        """A claim judged by this rule, before any data: verdict ``not measured``."""
        claim = Claim(
            id=self.id,
            text=self.text,
            metric=self.metric,
            filter=self.filter,
            statistic=self.statistic,
            values={},
            verdict="not measured",
            rule=self.rule,
            source=self.label,
            version=self.version,
            fingerprint=self.fingerprint,
        )
        claim.declare(*self.premises)
        return claim

    def changelog_entry(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "date": self.date,
            "reason": self.reason,
            "fingerprint": self.fingerprint,
        }


Judge = Callable[[ClaimRule, Evidence], Claim]
Fabricator = Callable[[ClaimRule], Evidence]


@dataclass(frozen=True)
class Registered:
    """A rule with its judge and the fabricated runs that show it can fail."""

    rule: ClaimRule
    judge: Judge
    counterexample: Fabricator
    premise_unmet: Mapping[str, Fabricator]


class ClaimRefusedError(UsageError):
    """A claim the registry will not hold: it cannot fail, or its versions are out of order."""


_REGISTRY: dict[str, list[Registered]] = {}


def register_claim(
    rule: ClaimRule,
    *,
    counterexample: Fabricator,
    premise_unmet: Mapping[str, Fabricator] | None = None,
) -> Callable[[Judge], Judge]:
    """Decorator: register ``judge(rule, evidence) -> Claim`` as ``rule``'s judge.

    ``counterexample(rule)`` fabricates evidence where every premise holds and the claim
    is false (it must be judged ``fail``); ``premise_unmet[name](rule)`` evidence where
    premise ``name`` fails (judged ``not shown``), one for every declared premise.
    ClaimRefusedError when either check fails or the version does not follow the last one.
    """

    def add(judge: Judge) -> Judge:
        entry = Registered(rule, judge, counterexample, dict(premise_unmet or {}))
        _validate(entry)
        _REGISTRY.setdefault(rule.id, []).append(entry)
        return judge

    return add


def _validate(entry: Registered) -> None:
    rule = entry.rule
    where = f"claim {rule.id!r} v{rule.version}"
    if rule.source not in SOURCES:
        raise ClaimRefusedError(f"{where}: source {rule.source!r}; allowed: {', '.join(SOURCES)}")
    versions = _REGISTRY.get(rule.id, [])
    expected = versions[-1].rule.version + 1 if versions else 1
    if rule.version != expected:
        raise ClaimRefusedError(f"{where}: version must be {expected} (versions go 1, 2, ...)")
    if not rule.date or not rule.reason:
        raise ClaimRefusedError(f"{where}: a version needs its date and its reason")
    verdict = judge(entry, entry.counterexample(rule)).verdict
    if verdict != "fail":
        raise ClaimRefusedError(
            f"{where}: its counterexample (every premise held, the claim false) is judged "
            f"{verdict!r}, not 'fail': a claim that cannot fail is not registered"
        )
    declared = {p.name for p in rule.premises}
    missing = sorted(declared - set(entry.premise_unmet))
    if missing:
        raise ClaimRefusedError(f"{where}: no fabricated runs where premise {missing[0]!r} fails")
    for name, fabricate in entry.premise_unmet.items():
        if name not in declared:
            raise ClaimRefusedError(f"{where}: premise_unmet names undeclared premise {name!r}")
        verdict = judge(entry, fabricate(rule)).verdict
        # Runs outside a claim's scope are no data for it: "not measured" is as honest
        # there as "not shown"; any other premise that fails must leave it not shown.
        allowed = ("not shown", "not measured") if name == SCOPE_PREMISE else ("not shown",)
        if verdict not in allowed:
            raise ClaimRefusedError(
                f"{where}: runs where premise {name!r} fails are judged {verdict!r}, "
                "not 'not shown'"
            )


def judge(entry: Registered, evidence: Evidence) -> Claim:
    """One rule on the evidence, with every run of its input counted."""
    claim = entry.judge(entry.rule, evidence)
    _account(claim, entry.rule, evidence)
    return claim


def _account(claim: Claim, rule: ClaimRule, evidence: Evidence) -> None:
    """Fill the counts: what the judge did not place is outside the scope."""
    counts = {key: int(claim.counts.get(key, 0)) for key in COUNT_KEYS}
    if rule.source == "runs":
        frame = evidence.frame
        total = len(frame)
        status = frame["status"] if "status" in frame.columns else pd.Series(dtype=object)
        counts["diverged"] = int((status == "diverged").sum())
        counts["failed"] = int((~status.isin(["finished", "diverged"])).sum()) if total else 0
    else:
        total = len((evidence.plan or {}).get("runs", []))
    placed = sum(v for k, v in counts.items() if k != "outside_scope")
    if placed > total:
        raise RuntimeError(
            f"claim {rule.id!r} counted {placed} runs of {total}: a run counted twice"
        )
    counts["outside_scope"] = total - placed
    claim.counts = counts | {"total": total}


def claim_ids() -> list[str]:
    """Every registered claim: the built-in ones in their order, then the others (a
    plugin's) in the order they were registered."""
    load_builtin()
    from lejepa_id.analysis.claims.builtin import IDS

    rank = {cid: i for i, cid in enumerate(IDS)}
    return sorted(_REGISTRY, key=lambda cid: rank.get(cid, len(rank)))


def versions(claim_id: str) -> list[Registered]:
    """Every registered version of a claim, oldest first."""
    load_builtin()
    if claim_id not in _REGISTRY:
        raise KeyError(f"no claim {claim_id!r} is registered")
    return list(_REGISTRY[claim_id])


def current(claim_id: str) -> Registered:
    return versions(claim_id)[-1]


def remove_claim(claim_id: str) -> None:
    """Forget a claim (a test's or a plugin's being reloaded)."""
    _REGISTRY.pop(claim_id, None)


def judge_all(evidence: Evidence, source: str = "runs") -> list[Claim]:
    """Every registered claim of ``source`` judged under its current version, with the
    verdicts of its earlier versions where they differ and its changelog."""
    out = []
    for claim_id in claim_ids():
        entries = _REGISTRY[claim_id]
        if entries[-1].rule.source != source:
            continue
        claim = judge(entries[-1], evidence)
        claim.changelog = [e.rule.changelog_entry() for e in entries]
        for old in reversed(entries[:-1]):
            try:
                earlier = judge(old, evidence)
            except (KeyError, ValueError, TypeError) as err:  # a column the old rule needed
                claim.other_versions.append(
                    old.rule.changelog_entry() | {"verdict": "not judged", "summary": str(err)}
                )
                continue
            if earlier.verdict != claim.verdict:
                claim.other_versions.append(
                    old.rule.changelog_entry()
                    | {"verdict": earlier.verdict, "summary": earlier.summary}
                )
        out.append(claim)
    return out


def version_line(claim: Claim) -> str:
    """``pass under v2; fail under v1 (2026-11-30, first registered)``, or '' when every
    version agrees."""
    if not claim.other_versions:
        return ""
    parts = [f"{claim.verdict} under v{claim.version}"]
    for old in claim.other_versions:
        parts.append(f"{old['verdict']} under v{old['version']} ({old['date']}, {old['reason']})")
    return "; ".join(parts)


_LOADED = False


def load_builtin() -> None:
    """Import the built-in claim modules once (they register themselves)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from lejepa_id.analysis.claims import builtin  # noqa: F401
