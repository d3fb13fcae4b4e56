#!/usr/bin/env bash
# The whole test suite from a fresh machine: set up everything, lint, type-check, build the
# docs site, run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --all
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# mypy (the package, as configured in pyproject.toml [tool.mypy]) and the docs site
# (warnings as errors: broken links, anchors, docstrings, built into a temp folder) are
# one process each: side by side they use both cores, which are otherwise idle until
# pytest starts (beside pytest they only slowed it: docs/speed.md). Each one's output is
# printed whole once both are done.
site=$(mktemp -d)
logs=$(mktemp -d)
trap 'rm -rf "$site" "$logs"' EXIT
.venv/bin/mypy >"$logs/mypy" 2>&1 &
mypy_pid=$!
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --site-dir "$site" >"$logs/docs" 2>&1 &
docs_pid=$!
status=0
wait "$mypy_pid" || status=1
cat "$logs/mypy"
wait "$docs_pid" || status=1
cat "$logs/docs"
((status == 0)) || { echo "mypy or the docs build failed (above)" >&2; exit 1; }
# One worker per core (pytest-xdist); whole files stay on one worker, so a module's shared
# fixture (the real Coq compile of tests/test_verify.py) is built once. tests/conftest.py
# schedules `loadfile` its way: the longest files first, and tests/test_verify.py's planted
# cheats as parts of their own beside its real-tree audit. `-n 0` runs serially.
.venv/bin/python -m pytest -q -n auto --dist loadfile "$@"
