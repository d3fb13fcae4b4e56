#!/usr/bin/env bash
# The whole test suite from a fresh machine: set up everything, lint, type-check, run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --all
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy # the package, as configured in pyproject.toml [tool.mypy]
.venv/bin/python -m pytest -q "$@"
