"""Rewrite the Reacher claims.json beside an existing plan.json, without planning again.

    python -m lejepa_id.reacher.claims PLAN.json [DATASETS_DIR]

The rules and the functions that judge them live with the other claims
(:mod:`lejepa_id.analysis.claims.reacher_rules`); they are re-exported here for the
Reacher commands.
"""

from __future__ import annotations

from pathlib import Path

from lejepa_id.analysis.claims.reacher_rules import (
    plan_lines,
    reacher_claims,
    read_datasets,
    tab_reacher,
    write_claims,
    write_table,
)

__all__ = [
    "main",
    "plan_lines",
    "reacher_claims",
    "read_datasets",
    "tab_reacher",
    "write_claims",
    "write_table",
]


def main(argv: list[str] | None = None) -> int:
    """Rewrite claims.json beside an existing plan.json, without planning again.

    python -m lejepa_id.reacher.claims PLAN.json [DATASETS_DIR]
    """
    import json
    import sys

    args = sys.argv[1:] if argv is None else argv
    if not args or len(args) > 2:
        print("usage: python -m lejepa_id.reacher.claims PLAN.json [DATASETS_DIR]", file=sys.stderr)
        return 2
    plan_path = Path(args[0])
    try:
        plan = json.loads(plan_path.read_text())
    except (OSError, ValueError) as err:
        print(f"PLAN {str(plan_path)!r}: not a readable plan.json ({err})", file=sys.stderr)
        return 2
    if len(args) == 2 and not Path(args[1]).is_dir():
        print(f"DATASETS_DIR {args[1]!r} is not a directory", file=sys.stderr)
        return 2
    datasets = read_datasets(Path(args[1])) if len(args) == 2 else {}
    write_claims(plan, plan_path.parent / "claims.json", datasets)
    for line in plan_lines(plan):
        print(line)
    print(f"wrote {plan_path.parent / 'claims.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
