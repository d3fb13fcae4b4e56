"""Copy generated tables into README.md between their markers.

python scripts/sync_readme.py          # rewrite README.md
python scripts/sync_readme.py --check  # exit 1 if README.md is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {"verification-table": ROOT / "formal" / "VERIFICATION.md"}


def block(name: str) -> str:
    text = SOURCES[name].read_text().strip().splitlines()
    body = text[1:] if text and text[0].startswith("# ") else text
    return "\n".join(body).strip()


def synced(readme: str) -> str:
    for name in SOURCES:
        start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
        head, _, rest = readme.partition(start)
        _, _, tail = rest.partition(end)
        readme = f"{head}{start}\n{block(name)}\n{end}{tail}"
    return readme


def main() -> int:
    path = ROOT / "README.md"
    current = path.read_text()
    new = synced(current)
    if "--check" in sys.argv:
        return 0 if new == current else 1
    path.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
