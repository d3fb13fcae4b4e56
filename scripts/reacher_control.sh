#!/usr/bin/env bash
# The Reacher coverage control (docs/reacher.md, "The coverage control"): render the eval
# gallery and the ou, traj and trajmatch pair sets (32 x 32, fast look), train one encoder
# per dataset and seed (lambda 0.01, 10 epochs, CPU), plan, draw, and copy the small
# outputs (no weights, no frames) to results/reacher_control/.
#   bash scripts/reacher_control.sh            seeds 0 1 (about 1 h on 2 idle cores)
#   bash scripts/reacher_control.sh 0 1 2      more seeds
# Resumable: finished datasets and runs are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -gt 0 ]]; then SEEDS=("$@"); else SEEDS=(0 1); fi
L=.venv/bin/lejepa-id
W=${CTL_DIR:-ctl}
OUT=results/reacher_control
for kind in eval ou traj trajmatch; do
  n=20000; [[ $kind == eval ]] && n=10000
  $L reacher render "$kind" --out "$W/$kind" --n "$n" --size 32 --look fast --workers 2
done
$L reacher train --data "$W/ou" "$W/traj" "$W/trajmatch" --eval "$W/eval" --out "$W/runs" \
  --lams 0.01 --seeds "${SEEDS[@]}" --epochs 10 --device cpu --threads 1
$L reacher plan --runs "$W/runs" --eval "$W/eval"
$L reacher figures --runs "$W/runs" --eval "$W/eval" --formats png
mkdir -p "$OUT/datasets" "$OUT/figures"
cp "$W/runs/plan.json" "$W/runs/claims.json" "$OUT/"
for kind in eval ou traj trajmatch; do cp "$W/$kind/dataset.json" "$OUT/datasets/$kind.json"; done
(cd "$W/runs" && find . -name result.json -o -name baseline.json) | while read -r f; do
  mkdir -p "$OUT/runs/$(dirname "$f")"; cp "$W/runs/$f" "$OUT/runs/$f"
done
cp "$W"/runs/figures/*.png "$W/runs/figures/tab_reacher.tex" "$OUT/figures/"
