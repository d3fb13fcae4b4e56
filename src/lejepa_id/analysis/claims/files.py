"""claims.json: writing the judged claims, reading the ones other pipelines wrote.

Other pipelines add claims as JSON files of the same schema (:data:`EXTERNAL_FILES`, e.g.
``DIR/reacher/claims.json``, written by the Reacher commands with the same registered
rules), read by :func:`read_claims_file`. :func:`collect_claims` joins both. The schema
is documented in docs/sweeps.md ("claims.json").
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from lejepa_id.analysis.claims.base import Claim
from lejepa_id.analysis.claims.registry import Evidence, judge_all
from lejepa_id.records.io import atomic_write_json

SCHEMA_VERSION = 2  # 2: each claim records its rule's version, fingerprint and counts
# Claims files other pipelines write, relative to the results directory.
EXTERNAL_FILES = ("reacher/claims.json",)


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


def collect_claims(directory: Path, frame: pd.DataFrame) -> tuple[list[Claim], list[str]]:
    """Every registered claim on the runs of ``frame`` (all statuses), then the external
    files' claims."""
    claims = judge_all(Evidence(frame=frame))
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
