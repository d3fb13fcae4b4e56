#!/usr/bin/env bash
# The whole test suite from a fresh machine: set up everything, lint, type-check, build the
# docs site, run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --all
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# mypy and the docs build (warnings as errors: broken links, anchors, docstrings, into a
# temp folder) each use one core for about 20 s. They run beside pytest at the lowest
# priority, so they take the cores only where pytest leaves one idle (its collection, its
# last file) instead of holding the second core idle before it starts; their output is
# printed after pytest's, and either one failing fails the script as it did before.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nice -n 19 .venv/bin/mypy >"$tmp/mypy.log" 2>&1 & # the package, as in pyproject.toml [tool.mypy]
mypy_pid=$!
NO_MKDOCS_2_WARNING=1 nice -n 19 .venv/bin/mkdocs build --strict --site-dir "$tmp/site" \
  >"$tmp/mkdocs.log" 2>&1 &
mkdocs_pid=$!
# One worker per core (pytest-xdist); whole files stay on one worker, so a module's shared
# fixture (the real Coq compile of tests/test_verify.py) is built once. tests/conftest.py
# schedules `loadfile` its way: the longest files first, and tests/test_verify.py's planted
# cheats as parts of their own beside its real-tree audit. `-n 0` runs serially.
status=0
.venv/bin/python -m pytest -q -n auto --dist loadfile "$@" || status=$?
for check in mypy mkdocs; do
  pid_var=${check}_pid
  if wait "${!pid_var}"; then
    echo "== $check: passed"
  else
    echo "== $check: FAILED"
    status=1
  fi
  tail -n 40 "$tmp/$check.log"
done
exit "$status"
