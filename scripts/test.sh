#!/usr/bin/env bash
# The whole test suite from a fresh machine: set up everything, lint, run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --all
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/python -m pytest -q "$@"
