"""Copy generated tables and the results' verdicts and numbers into README.md and the
docs pages (docs/*.md) between their markers (``<!-- NAME:start -->`` ... ``<!-- NAME:end -->``).

python scripts/sync_readme.py          # rewrite the files whose blocks are out of date
python scripts/sync_readme.py --check  # exit 1 if any is out of date, naming the blocks

Blocks: ``verification-table`` (formal/VERIFICATION.md; in docs/proofs.md),
``bad-input-count`` (the cases of tests/test_bad_input.py; docs/usage.md), and every block
of ``lejepa_id.analysis.readme_numbers`` (verdicts and numbers from results/*/claims.json,
plan.json and the runs tables; docs/results.md, docs/speed.md). A block may live in any of
those files, but every block must appear in at least one: a block whose markers were lost
fails the check.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))  # this checkout's package, not another install

from lejepa_id.analysis import readme_numbers  # noqa: E402

SOURCES = {"verification-table": ROOT / "formal" / "VERIFICATION.md"}


def _file_block(name: str) -> str:
    text = SOURCES[name].read_text().strip().splitlines()
    body = text[1:] if text and text[0].startswith("# ") else text
    return "\n".join(body).strip()


def _bad_input_count() -> str:
    """How many malformed command lines the test drives (it requires each to end cleanly)."""
    path = ROOT / "tests" / "test_bad_input.py"
    spec = importlib.util.spec_from_file_location("_bad_input_cases", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    hand, generated = len(module.hand_written_cases()), len(module.generated_cases())
    return (
        f"{hand + generated} malformed command lines through `lejepa-id` ({hand} hand-written "
        f"cases, and {generated} more: every run setting with values of the wrong type or not "
        "finite)"
    )


def blocks() -> dict[str, Callable[[], str]]:
    out: dict[str, Callable[[], str]] = {n: (lambda n=n: _file_block(n)) for n in SOURCES}
    out["bad-input-count"] = _bad_input_count
    for name in readme_numbers.BLOCKS:
        out[name] = lambda name=name: readme_numbers.block(name, ROOT / "results")
    return out


def files() -> list[Path]:
    """The files whose blocks this script keeps: the README and every docs page."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def synced(text: str) -> tuple[str, list[str]]:
    """The text with every block it holds regenerated, and the names of blocks that changed."""
    changed = []
    for name, make in blocks().items():
        start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
        if start not in text and end not in text:
            continue  # kept in another file
        if start not in text or end not in text:
            changed.append(f"{name} (a marker missing)")
            continue
        head, _, rest = text.partition(start)
        old, _, tail = rest.partition(end)
        new = f"\n{make()}\n"
        if old != new:
            changed.append(name)
        text = f"{head}{start}{new}{end}{tail}"
    return text, changed


def main() -> int:
    check = "--check" in sys.argv
    found: set[str] = set()
    stale: list[str] = []
    for path in files():
        current = path.read_text()
        found |= {name for name in blocks() if f"<!-- {name}:start -->" in current}
        new, changed = synced(current)
        if not changed and new == current:
            continue
        rel = path.relative_to(ROOT)
        if check:
            stale.append(f"{rel}: " + ", ".join(changed))
            continue
        tmp = path.with_suffix(".md.tmp")
        tmp.write_text(new)
        tmp.replace(path)  # atomic: a reader never sees half a page
    missing = sorted(set(blocks()) - found)
    if missing:
        stale.append("markers missing in README.md and docs/*.md: " + ", ".join(missing))
    if stale:
        print("out of date: " + "; ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
