#!/usr/bin/env bash
# The beyond-the-paper families at full length (issue 22), into results/beyond_full: the
# paper's schedule (20,000 steps), 3 seeds, `whiten` beside `lejepa`, and anisotropic cells
# close to the boundary min rho > max rho^2 on both sides (configs/anisotropic.yaml). Then
# the table, figures, claims and report. Resumable. Not run yet: 414 runs (54 + 360; check
# with --dry-run); far beyond this project's 2-core CPU, a GPU job.
set -euo pipefail
cd "$(dirname "$0")/.."
L=.venv/bin/lejepa-id
OUT=${1:-results/beyond_full}
$L sweep configs/codedim.yaml --out "$OUT"
$L sweep configs/anisotropic.yaml --out "$OUT"
$L aggregate "$OUT"
$L report "$OUT" --out "$OUT/report.html"
