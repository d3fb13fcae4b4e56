"""The docs read as prose: links name their page, not its file, and no docstring on the API
pages (mkdocstrings renders them as Markdown) carries an RST literal-block ``::``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A link whose text is a file name: [typing.md](typing.md), [docs/site.md](docs/site.md).
FILE_NAMED = re.compile(r"\[([^\]`]*\.md)\]\(")


def test_links_read_as_titles_not_file_names() -> None:
    found = [
        f"{page.relative_to(ROOT)}: [{m.group(1)}]"
        for page in PAGES
        for m in FILE_NAMED.finditer(page.read_text())
    ]
    assert found == []


def test_the_check_sees_a_file_named_link() -> None:
    assert FILE_NAMED.search("see [typing.md](typing.md) and") is not None
    assert FILE_NAMED.search("see [Type checking](typing.md)") is None


def _docstrings(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            text = ast.get_docstring(node, clean=True)
            if text:
                yield getattr(node, "name", path.stem), text


def test_no_docstring_ends_a_line_with_an_rst_literal_marker() -> None:
    # "Three lines in a notebook::" printed as it is on the API page: a code block is a
    # Markdown fence there.
    found = [
        f"{path.relative_to(ROOT)} ({name}): {line.strip()}"
        for path in sorted((ROOT / "src" / "lejepa_id").rglob("*.py"))
        for name, text in _docstrings(path)
        for line in text.splitlines()
        if line.rstrip().endswith("::") and not line.strip().startswith(":::")
    ]
    assert found == []
