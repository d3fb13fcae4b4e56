"""MkDocs hooks (mkdocs.yml ``hooks:``): links from the docs to repository files outside docs/.

A page in docs/ links repository files by their relative path (``../formal/README.md``,
``../results/figures/bound.png``) so that the links also work when the Markdown is read in
a checkout or on a forge. MkDocs only knows the files under docs/, so on the site those
links would be broken. These hooks copy each linked repository file into the site under
``repo/`` (a Markdown file becomes a page there, not in the nav, and its own links are
followed the same way) and rewrite the link to point at the copy. A link to a file that
does not exist is left as it is, so ``mkdocs build --strict`` still fails on it.

The site's home page is the README itself (one text for both), its links rewritten the
same way. Docstrings written for Sphinx keep their roles (:class:`World`); the roles are
dropped from the rendered API pages, leaving the code span.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

# Markdown links and images: ](target) or ](target#anchor); targets with a scheme, absolute
# paths and pure anchors are not repository files and are skipped below.
LINK = re.compile(r"\]\(([^)\s#]+)(#[^)\s]*)?\)")
PREFIX = "repo"

# page src_uri -> {link as written -> the site URI it must point at}
_rewrites: dict[str, dict[str, str]] = {}


def _root(config: Any) -> Path:
    return Path(config.config_file_path).resolve().parent


def _site_uri(target: Path, docs: Path, root: Path) -> str | None:
    """Where a repository file lives on the site, or None when it is not one."""
    if target.is_relative_to(docs):
        return target.relative_to(docs).as_posix()
    if target.is_relative_to(root) and target.is_file():
        return f"{PREFIX}/{target.relative_to(root).as_posix()}"
    return None


def on_files(files: Files, config: Any) -> Files:
    root, docs = _root(config), Path(config.docs_dir).resolve()
    _rewrites.clear()
    known = {f.src_uri for f in files}
    if "index.md" not in known:
        files.append(File.generated(config, "index.md", abs_src_path=str(root / "README.md")))
        known.add("index.md")
    queue = list(files.documentation_pages())
    while queue:
        page = queue.pop()
        source = Path(page.abs_src_path).resolve()
        rewrites: dict[str, str] = {}
        for match in LINK.finditer(source.read_text(encoding="utf-8")):
            link = match.group(1)
            if "://" in link or link.startswith(("/", "mailto:")):
                continue
            target = (source.parent / link).resolve()
            uri = _site_uri(target, docs, root)
            if uri is None:
                continue  # missing: MkDocs reports it, and --strict fails
            if not target.is_relative_to(docs) and uri not in known:
                copy = File.generated(config, uri, abs_src_path=str(target))
                files.append(copy)
                known.add(uri)
                if copy.is_documentation_page():
                    queue.append(copy)
            if uri != posixpath.normpath(posixpath.join(posixpath.dirname(page.src_uri), link)):
                rewrites[link] = posixpath.relpath(uri, posixpath.dirname(page.src_uri) or ".")
        if rewrites:
            _rewrites[page.src_uri] = rewrites
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    rewrites = _rewrites.get(page.file.src_uri)
    if not rewrites:
        return markdown

    def swap(match: re.Match[str]) -> str:
        link = rewrites.get(match.group(1), match.group(1))
        return f"]({link}{match.group(2) or ''})"

    return LINK.sub(swap, markdown)


ROLE = re.compile(r":(?:py:)?(?:class|func|meth|data|attr|mod|exc|obj|const):(?=<code>)")


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    return ROLE.sub("", html)
