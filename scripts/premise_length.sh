#!/usr/bin/env bash
# How long must the MLP families train before the convergence premise (v3: the mean
# loss of every step over the last quarter within 2% of the quarter before) holds?
# At the paper's 20,000 steps the overnight budget's anisotropic, codedim and action
# settings miss it (plateaus 0.023 to 0.19). This trains one seed of the nearest and of
# the farthest setting of each family, and of the other two anisotropic lejepa cells, at
# longer schedules (the whole schedule, constant then a cosine decay over the second half,
# is stretched), one run at a time on one thread:
#   bash scripts/premise_length.sh [OUT [SWEEP_OPTION ...]]   (default results/premise-length)
# It resumes like any sweep: finished runs are not trained again; options after OUT go to
# every sweep (--dry-run: check OUT against the script without training). Read the statistic in
# OUT/s<steps>/runs.csv (column loss_plateau_mean) after `lejepa-id table OUT/s<steps>`,
# or as docs/overnight.md does.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${LEJEPA_ID:-.venv/bin/lejepa-id}
out=${1:-results/premise-length}
extra=("${@:2}")
sweep() { # STEPS CONFIG RUN [--set ...]
  local steps=$1 config=$2 run=$3
  shift 3
  "$cli" sweep "configs/$config.yaml" --out "$out/s$steps" --set "steps=$steps" \
    --set "runs=[$run]" --set 'seeds=[0]' "$@" --jobs 1 --threads 1 --no-progress "${extra[@]}"
}
nearest='rho_grid={first: [0.9], rest: [0.93]}'
sweep 40000 anisotropic spiral --set "$nearest"
sweep 40000 anisotropic spiral --set 'rho_grid={first: [0.9], rest: [0.96]}'
sweep 40000 anisotropic spiral --set 'rho_grid={first: [0.95], rest: [0.96]}'
sweep 80000 anisotropic spiral --set "$nearest"
sweep 80000 anisotropic spiral --set 'rho_grid={first: [0.9], rest: [0.96]}'
sweep 80000 anisotropic spiral_whiten --set 'rho_grid={first: [0.9], rest: [0.96]}'
sweep 80000 action n2_spiral
sweep 80000 codedim n2_m1_whiten
