"""The worlds the stall claims read: one best-of-K SIGReg run per coupling world, with each
initialization's end point (``init<k>_*`` columns of the runs table).

A *world* is one coupling mixing (its dimension, seed and how its weights were drawn);
its run trained ``inits`` encoders from different starts and kept the one with the lowest
final training loss. An initialization *stalls* when its own R²(h → z) is at or below the
floor; a world stalls when the kept encoder does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from lejepa_id.analysis.claims.base import Premise, check
from lejepa_id.analysis.claims.fabricate import evidence
from lejepa_id.analysis.claims.registry import Evidence

CITATION = (
    "how often a coupling world stalls for SIGReg is the sigreg_stall_rate claim, and "
    "whether a stall is a failure of optimization the stall_is_optimization claim "
    "(docs/stall.md)"
)
"""The note the scaling claims carry: their verdict is read on the worlds run, and the
stall claims say how far those worlds speak for the family."""

SCOPE = Premise(
    "scope",
    "coupling worlds (L = 4) inverted by the matched encoder, N from 4 to 32, SIGReg at "
    "the paper's λ = 1e-6 with best of K ≥ 3 initializations and each initialization's "
    "end point recorded",
    None,
)
LENGTH = Premise(
    "length",
    "every run trained for the paper's 20,000 steps (a shorter run can be caught before "
    "it would have escaped)",
    20000,
)
THRESHOLDS: dict[str, Any] = {
    "floor": 0.999,
    "lam": 1e-6,
    "layers": 4,
    "min_dim": 4,
    "max_dim": 32,
    "min_inits": 3,
    "steps": 20000,
}


V2_REASON = (
    "a run with inits_over='world' (a key added the same day, before any stall run) holds "
    "K worlds, not one; such runs are left out"
)


def world_rows(frame: pd.DataFrame, t: dict[str, Any]) -> pd.DataFrame:
    """SIGReg runs in the claims' scope, one row per world (first run of a repeated one);
    from v2 (``one_world`` threshold) only runs whose starts share one world."""
    if frame.empty or "inits_trained" not in frame.columns:
        return frame.iloc[0:0]
    if t.get("one_world") and "inits_over" in frame.columns:
        frame = frame[frame["inits_over"].fillna("encoder") == "encoder"]
    rows = frame[
        (frame["mode"] == "lejepa")
        & (frame["mixing"] == "coupling")
        & (frame["encoder"] == "matched")
        & (pd.to_numeric(frame["layers"], errors="coerce") == t["layers"])
        & np.isclose(pd.to_numeric(frame["lam"], errors="coerce"), t["lam"], rtol=1e-9)
        & frame["dim"].between(t["min_dim"], t["max_dim"])
        & (pd.to_numeric(frame["inits_trained"], errors="coerce") >= t["min_inits"])
    ]
    draw = rows["coupling_draw"] if "coupling_draw" in rows else pd.Series("?", rows.index)
    keys = pd.DataFrame({"dim": rows["dim"], "seed": rows["seed"], "draw": draw.fillna("?")})
    return rows[~keys.duplicated()]


def shared_premises(rows: pd.DataFrame, t: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The scope and length premises as measured on ``rows`` (in scope by construction),
    and why the length premise fails (None when it holds)."""
    shortest = int(rows["steps"].min())
    checks = {
        "scope": check(SCOPE, None, True),
        "length": check(LENGTH, shortest, shortest >= t["steps"]),
    }
    short = f"the shortest run trained {shortest} steps of {t['steps']}"
    return checks, None if shortest >= t["steps"] else short


def init_values(row: pd.Series, key: str) -> list[float]:
    """One world's per-initialization values of ``key`` (``init<k>_<key>``), in init order."""
    k, out = 0, []
    while f"init{k}_{key}" in row.index and k < int(row["inits_trained"]):
        out.append(float(row[f"init{k}_{key}"]))
        k += 1
    return out


def fabricated_world(
    dim: int, seed: int, r2: list[float], loss: list[float], **row: Any
) -> dict[str, Any]:
    """A runs-table row of one world whose initializations end at ``r2`` and ``loss``;
    the kept encoder is the lowest loss's (best of K)."""
    best = int(np.argmin(loss))
    out: dict[str, Any] = {
        "experiment": "stall",
        "run": "lejepa",
        "mode": "lejepa",
        "mixing": "coupling",
        "encoder": "matched",
        "layers": 4,
        "coupling_draw": "published",
        "lam": 1e-6,
        "dim": dim,
        "seed": seed,
        "inits": len(r2),
        "inits_trained": len(r2),
        "selected_init": best,
        "r2_hz": r2[best],
    }
    for k, (r, l) in enumerate(zip(r2, loss)):
        out |= {f"init{k}_r2_hz": r, f"init{k}_loss_last100": l, f"init{k}_orth_err": 1 - r}
    return out | row


def fabricated(worlds: list[tuple[list[float], list[float]]], **row: Any) -> Evidence:
    """Evidence of one world per (r2 list, loss list), N = 4, 8, 16, 32 in turn."""
    dims = (4, 8, 16, 32)
    return evidence(
        [
            fabricated_world(dims[i % 4], i // 4, r2, loss, **row)
            for i, (r2, loss) in enumerate(worlds)
        ]
    )
