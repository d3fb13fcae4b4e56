"""Copy generated tables and the results' verdicts and numbers into README.md between
their markers (``<!-- NAME:start -->`` ... ``<!-- NAME:end -->``).

python scripts/sync_readme.py          # rewrite README.md
python scripts/sync_readme.py --check  # exit 1 if README.md is out of date, naming the blocks

Blocks: ``verification-table`` (formal/VERIFICATION.md), ``bad-input-count`` (the cases
of tests/test_bad_input.py), and every block of ``lejepa_id.analysis.readme_numbers``
(verdicts and numbers from results/*/claims.json, plan.json and the runs tables).
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


def synced(readme: str) -> tuple[str, list[str]]:
    """The README with every block regenerated, and the names of blocks that changed."""
    changed = []
    for name, make in blocks().items():
        start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
        if start not in readme or end not in readme:
            changed.append(f"{name} (markers missing)")
            continue
        head, _, rest = readme.partition(start)
        old, _, tail = rest.partition(end)
        new = f"\n{make()}\n"
        if old != new:
            changed.append(name)
        readme = f"{head}{start}{new}{end}{tail}"
    return readme, changed


def main() -> int:
    path = ROOT / "README.md"
    current = path.read_text()
    new, changed = synced(current)
    if "--check" in sys.argv:
        if new != current or changed:
            print("README.md out of date: " + ", ".join(changed), file=sys.stderr)
            return 1
        return 0
    tmp = path.with_suffix(".md.tmp")
    tmp.write_text(new)
    tmp.replace(path)  # atomic: a reader never sees half a README
    return 0


if __name__ == "__main__":
    sys.exit(main())
