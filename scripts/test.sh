#!/usr/bin/env bash
# The whole test suite from a fresh machine: set up everything, lint, type-check, build the
# docs site, run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --all
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy # the package, as configured in pyproject.toml [tool.mypy]
# The docs site, warnings as errors (broken links, anchors, docstrings), into a temp folder.
site=$(mktemp -d)
trap 'rm -rf "$site"' EXIT
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --site-dir "$site"
# One worker per core (pytest-xdist); whole files stay on one worker, so a module's shared
# fixture (the real Coq compile of tests/test_verify.py) is built once. tests/conftest.py
# schedules `loadfile` its way: the longest files first, and tests/test_verify.py's planted
# cheats as parts of their own beside its real-tree audit. `-n 0` runs serially.
.venv/bin/python -m pytest -q -n auto --dist loadfile "$@"
