#!/usr/bin/env bash
# CPU-sized runs of the beyond-the-paper worlds into results/beyond, then the table,
# figures, claims and report. Resumable: killing it and starting it again keeps every
# finished run. The full-scale configs (20,000 steps, 3 seeds, every mixing) are
# `lejepa-id sweep configs/<name>.yaml` without the --set overrides below.
set -euo pipefail
cd "$(dirname "$0")/.."
L=.venv/bin/lejepa-id
S=(--set steps=2000 --set eval_size=4000 --set 'seeds=[0,1]')
$L sweep configs/codedim.yaml --out results/beyond "${S[@]}"
$L sweep configs/anisotropic.yaml --out results/beyond "${S[@]}" \
  --set 'rho_grid={first: [0.5, 0.9, 0.99], rest: [0.5, 0.9, 0.99]}'
$L sweep configs/action.yaml --out results/beyond --set steps=1500 --set 'seeds=[0,1]'
$L aggregate results/beyond
$L report results/beyond --out results/beyond/report.html
