#!/usr/bin/env bash
# A budget of `lejepa-id paper` run one experiment at a time, in the order given, so that
# each piece records its own measured wall time in budget.json (an interrupted piece
# records none) and finished runs can be committed between pieces:
#   bash scripts/paper_pieces.sh BUDGET OUT EXPERIMENT [EXPERIMENT ...]
#   bash scripts/paper_pieces.sh overnight results/paper-overnight 2d grid anisotropic
# Before each piece it waits while the file named by LEJEPA_ID_HOLD exists (default
# OUT/.hold): create it to stop after the running piece, or to keep the machine idle for a
# measurement, and remove it to go on. Beyond-the-paper experiments (anisotropic,
# codedim, action, and their runs twice as long: anisotropic_x2, codedim_x2, action_x2)
# are run with --beyond. Stops at the first piece that fails.
set -euo pipefail
[[ $# -ge 3 ]] || { echo "usage: $0 BUDGET OUT EXPERIMENT [EXPERIMENT ...]" >&2; exit 2; }
cd "$(dirname "$0")/.."
cli=${LEJEPA_ID:-.venv/bin/lejepa-id}
budget=$1 out=$2
shift 2
hold=${LEJEPA_ID_HOLD:-$out/.hold}
for exp in "$@"; do
  while [[ -e $hold ]]; do sleep 5; done
  echo "== piece $exp: start $(date -u +%FT%TZ)"
  "$cli" paper --budget "$budget" --beyond --out "$out" --only "$exp" --no-progress
  echo "== piece $exp: end $(date -u +%FT%TZ)"
done
