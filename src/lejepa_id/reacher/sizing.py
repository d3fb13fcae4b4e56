"""How many Reacher runs a side the planning claims need: a rule fixed before the runs.

Registered on 2026-12-06, before any Reacher run of the ``overnight`` budget
(docs/overnight.md, "The runs a side"). The claims judge one value per run, the mean over
the planning pairs of log(J / J_oracle) (``log_ratio_mean`` in plan.json), so their power
depends on the run-to-run standard deviation of that value, which no committed run measures
for an identified encoder. The rule is therefore a two-stage design:

1. Stage 1 is the budget's own runs: 3 seeds a kind, each on datasets rendered with its
   seed.
2. From them, the run SD behind each claim: the identified OU runs' for
   ``reacher_ou_plans_like_oracle`` (all OU runs when fewer than 2 are identified), the
   two kinds' pooled SD for each comparison; each raised to its one-sided 80% upper
   confidence bound, since an SD from 3 runs sizes a study too small about half the time.
3. Runs for 80% power at alpha 0.05: the one-sample TOST within the claims' margin
   (log 1.05) at a true mean of 0 for the oracle claim, divided by the share of OU runs
   the identification study identified (2 of 3), since only identified runs count; a
   two-sided Welch test that detects a difference of one margin for
   ``reacher_traj_plans_worse`` and ``reacher_gap_not_coverage``.
4. A kind's total is the largest need among the claims that read it, at least the runs it
   has and at most :data:`RULE` ``cap`` (a 50-epoch run takes about 44 minutes on this
   machine kind: 10 runs of three kinds are about 11 hours on 2 workers). A claim whose
   need is above the cap is reported so, and stays underpowered at the cap.
5. Stage 2 trains the added seeds (each on its own rendered datasets); every claim is then
   judged on all runs, stage 1 included, by its registered rule, which this leaves as it
   is. Re-estimating only the variance from an internal pilot moves the type-I error very
   little, and the final tests are the claims' own.

``python -m lejepa_id.reacher.sizing PLAN.json`` prints the sizes and writes them beside
the plan (``sizing.json``).
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lejepa_id.analysis import plan_statistics as st

KINDS = ("ou", "traj", "trajmatch")


@dataclass(frozen=True)
class SizingRule:
    """The registered stage-two rule (module docstring); fixed before the runs."""

    version: int = 1
    date: str = "2026-12-06"
    power: float = 0.8
    alpha: float = 0.05
    margin_log: float = math.log1p(0.05)
    """The claims' margin on the log cost ratio (log 1.05)."""
    sd_level: float = 0.8
    """One-sided confidence level of the SD's upper bound."""
    identified_share: float = 2 / 3
    """Share of OU runs identified at this setting in the identification study."""
    r2_min: float = 0.95
    orth_max: float = 0.2
    cap: int = 10
    """Most runs a kind."""


RULE = SizingRule()


def _identified(run: dict[str, Any], rule: SizingRule) -> bool:
    r2, orth = run.get("r2_hz"), run.get("orth_err_whitened")
    return (
        r2 is not None
        and orth is not None
        and math.isfinite(r2)
        and math.isfinite(orth)
        and r2 >= rule.r2_min
        and orth <= rule.orth_max
    )


def _values(plan: dict[str, Any], kind: str) -> list[float]:
    return [
        float(r["log_ratio_mean"])
        for r in plan["runs"]
        if r["kind"] == kind and math.isfinite(r.get("log_ratio_mean", math.nan))
    ]


def _sd(values: list[float]) -> float | None:
    return float(np.std(values, ddof=1)) if len(values) > 1 else None


def stage_two(plan: dict[str, Any], rule: SizingRule = RULE) -> dict[str, Any]:
    """Runs a kind the claims need under ``rule``, from a stage-one plan.json."""
    have = {k: sum(r["kind"] == k for r in plan["runs"]) for k in KINDS}
    claims: dict[str, dict[str, Any]] = {}

    ou_runs = [r for r in plan["runs"] if r["kind"] == "ou"]
    identified = [r for r in ou_runs if _identified(r, rule)]
    basis = identified if len(identified) > 1 else ou_runs
    values = [float(r["log_ratio_mean"]) for r in basis]
    sd = _sd(values)
    entry: dict[str, Any] = {
        "kinds": ["ou"],
        "sd_from": "identified OU runs" if basis is identified else "all OU runs",
        "runs": len(values),
        "identified": f"{len(identified)} of {len(ou_runs)}",
        "sd": sd,
    }
    if sd is not None:
        upper = st.sd_upper(sd, len(values), rule.sd_level)
        need = st.runs_for_tost(upper, rule.margin_log, rule.power)
        entry |= {"sd_upper": upper, "identified_runs_needed": need}
        entry["runs_needed"] = None if need is None else math.ceil(need / rule.identified_share)
    claims["reacher_ou_plans_like_oracle"] = entry

    for name, other in (
        ("reacher_traj_plans_worse", "traj"),
        ("reacher_gap_not_coverage", "trajmatch"),
    ):
        a, b = _values(plan, "ou"), _values(plan, other)
        entry = {"kinds": ["ou", other], "runs": [len(a), len(b)]}
        if len(a) > 1 and len(b) > 1:
            pooled = math.sqrt((np.var(a, ddof=1) + np.var(b, ddof=1)) / 2)
            upper = st.sd_upper(pooled, len(a) + len(b) - 1, rule.sd_level)
            entry |= {
                "sd": pooled,
                "sd_upper": upper,
                "runs_needed": st.runs_for_power(upper, rule.margin_log, rule.power),
            }
        claims[name] = entry

    kinds: dict[str, dict[str, Any]] = {}
    for kind in KINDS:
        needs = [c.get("runs_needed") for c in claims.values() if kind in c["kinds"]]
        known = [n for n in needs if n is not None]
        unsized = len(known) < len(needs)
        want = max([have[kind], *known]) if known else have[kind]
        kinds[kind] = {
            "have": have[kind],
            "need": min(want, rule.cap),
            "above_cap": want > rule.cap,
            "unsized": unsized,
            "add_seeds": list(range(have[kind], min(want, rule.cap))),
        }
    for entry in claims.values():
        n = entry.get("runs_needed")
        entry["above_cap"] = n is not None and n > rule.cap
    return {"rule": asdict(rule), "claims": claims, "kinds": kinds}


def size_stage_one(plan: dict[str, Any], seeds: tuple[int, ...]) -> dict[str, Any] | None:
    """:func:`stage_two` of the stage-one runs (the budget's ``seeds`` of every kind) of a
    plan that may hold later runs too; None until every kind has all of them planned."""
    first = [r for r in plan["runs"] if int(r["seed"]) in seeds]
    for kind in KINDS:
        if sorted(int(r["seed"]) for r in first if r["kind"] == kind) != sorted(seeds):
            return None
    return stage_two({**plan, "runs": first}) | {"stage_one_seeds": list(seeds)}


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3g}"


def lines(sizing: dict[str, Any]) -> list[str]:
    """The sizes as text: per claim its SD, bound and runs needed; per kind the seeds to add."""
    rule = sizing["rule"]
    out = [
        f"runs a side, rule v{rule['version']} ({rule['date']}): power {rule['power']}, "
        f"alpha {rule['alpha']}, margin log 1.05, SD at its {rule['sd_level']:.0%} upper "
        f"bound, cap {rule['cap']} a kind"
    ]
    for name, c in sizing["claims"].items():
        need = c.get("runs_needed")
        text = (
            "not sizable (fewer than 2 runs)"
            if "sd_upper" not in c
            else (
                f"needs {need if need is not None else 'more than 10,000'} runs"
                + (" (above the cap)" if c["above_cap"] else "")
            )
        )
        extra = f", identified {c['identified']}, SD from {c['sd_from']}" if "sd_from" in c else ""
        out.append(
            f"  {name}: run SD {_fmt(c.get('sd'))} (bound {_fmt(c.get('sd_upper'))}){extra}: {text}"
        )
    for kind, k in sizing["kinds"].items():
        add = ", ".join(map(str, k["add_seeds"])) or "none"
        note = " (capped)" if k["above_cap"] else ""
        note += " (a claim could not be sized)" if k["unsized"] else ""
        out.append(f"  {kind}: {k['have']} runs, {k['need']} needed{note}; seeds to add: {add}")
    return out


def main(argv: list[str] | None = None) -> int:
    from lejepa_id.records.io import atomic_write_json, read_json

    parser = argparse.ArgumentParser(
        prog="python -m lejepa_id.reacher.sizing",
        description="Runs a side the Reacher planning claims need, by the rule registered "
        "before the overnight budget's runs; writes sizing.json beside PLAN.json.",
    )
    parser.add_argument("plan", help="a stage-one plan.json (lejepa-id reacher plan)")
    args = parser.parse_args(argv)
    path = Path(args.plan)
    if (path.parent / "sizing.json").exists():
        # Stage two's sizes are fixed once, from stage one: sizing again after more runs
        # would let those runs move them.
        print(
            f"lejepa-id: {path.parent / 'sizing.json'} exists: the runs a side are sized once; "
            "remove it to size again",
            file=sys.stderr,
        )
        return 2
    try:
        plan = read_json(path)
        sizing = stage_two(plan)
    except (OSError, ValueError, KeyError, TypeError) as err:
        print(f"lejepa-id: {path}: not a readable plan.json ({err})", file=sys.stderr)
        return 2
    atomic_write_json(path.parent / "sizing.json", sizing)
    print("\n".join(lines(sizing)))
    print(f"wrote {path.parent / 'sizing.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
