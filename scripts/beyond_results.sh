#!/usr/bin/env bash
# CPU-sized runs of the beyond-the-paper worlds into results/beyond, then the table,
# figures, claims and report. Resumable: killing it and starting it again keeps every
# finished run. These are lejepa only, on a 3 x 3 grid; the full-length families (20,000
# steps, 3 seeds, whiten beside lejepa, boundary cells) are scripts/beyond_full.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
L=.venv/bin/lejepa-id
S=(--set steps=2000 --set eval_size=4000 --set 'seeds=[0,1]')
$L sweep configs/codedim.yaml --out results/beyond "${S[@]}" \
  --set 'runs=[n2_m1,n2_m3,n2_m4,n2_m6,n8_m4,n8_m12,n8_m16,n8_m8,n2_m2]'
$L sweep configs/anisotropic.yaml --out results/beyond "${S[@]}" \
  --set 'runs=[spiral,banana,sinusoid,coupling8]' \
  --set 'rho_grid={first: [0.5, 0.9, 0.99], rest: [0.5, 0.9, 0.99]}'
$L sweep configs/action.yaml --out results/beyond --set steps=1500 --set 'seeds=[0,1]'
$L aggregate results/beyond
$L report results/beyond --out results/beyond/report.html
