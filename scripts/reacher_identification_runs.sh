#!/usr/bin/env bash
# The runs of the Reacher identification study (docs/reacher-identification.md), in the
# registered order, resumable (rerun the same command; finished runs are skipped):
#   bash scripts/reacher_identification_runs.sh [A|B ...]     (default: A B)
# Data go to data/reacher-identification/, runs to results/reacher-identification/<setting>/.
# Then: python scripts/reacher_identification.py results/reacher-identification \
#           --out docs/img/reacher-identification
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${LEJEPA_ID:-.venv/bin/lejepa-id}
data=data/reacher-identification
render=(--size 32 --look fast --target big)
"$cli" reacher render eval --out "$data/eval" --n 2000 --seed 0 "${render[@]}"
for k in 0 1 2; do
  "$cli" reacher render ou --out "$data/ou-s$k" --n 20000 --rho 0.95 --seed "$k" "${render[@]}"
done
settings=("$@")
[[ ${#settings[@]} -gt 0 ]] || settings=(A B)
for setting in "${settings[@]}"; do
  case $setting in
    A) sets=() ;;
    B) sets=(--set epochs=50) ;;
    *) echo "unknown setting $setting (A or B)" >&2; exit 2 ;;
  esac
  for k in 0 1 2; do
    "$cli" sweep configs/reacher_identification.yaml --out "results/reacher-identification/$setting" \
      --set "runs=[ou_s$k]" --set "seeds=[$k]" "${sets[@]}" --jobs 1 --threads 1 --no-progress
  done
done
