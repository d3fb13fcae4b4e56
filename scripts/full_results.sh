#!/usr/bin/env bash
# Regenerate results/: the paper's 2d experiment and the spiral lejepa gennorm sweep at
# full length (20,000 steps) on this CPU, then the tables, figures, claims and report.
#   bash scripts/full_results.sh                 all seeds of both configs (hours on 2 cores)
#   bash scripts/full_results.sh --seeds 1337    one seed (the published comparison)
# Resumable: killing it and starting it again keeps every finished run.
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=()
[[ "${1:-}" == "--seeds" ]] && SEEDS=(--set "seeds=[${2:?--seeds needs a list like 1337,1338}]")
L=.venv/bin/lejepa-id
$L sweep configs/2d.yaml --out results/runs "${SEEDS[@]}"
$L sweep configs/gennorm.yaml --out results/runs --set 'runs=[spiral_lejepa]' "${SEEDS[@]}"
$L aggregate results/runs
$L report results/runs --out results/report.html
