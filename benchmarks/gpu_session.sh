#!/usr/bin/env bash
# Every GPU check in one call of about 9 minutes on one H200, in order of importance:
#   1. tests/test_cuda.py (CUDA against CPU values, stacked groups, divergence, sweep
#      groups, the Reacher layouts, the published coupling draw on CUDA);
#   2. the coupling worlds the published draw gives on CUDA (benchmarks/record_cuda_worlds.py);
#   3. the 2d demo with --device cuda;
#   4. benchmarks/gpu_suite.sh with the phase limits below.
# Each step has its own time limit, so a slow step cannot starve the rest. Logs and JSON
# are packed into $OUT/gpu_session.tar.gz after every step (what was done comes back even
# if the call is cut); the recorded worlds land in $OUT beside it.
# The device image has torch, numpy, scipy, pandas, matplotlib, pyyaml, safetensors,
# numba and pytest; wheels for anything else travel in .whl/ (installed to /tmp/site).
# SMOKE=1 runs the same script on a CPU in a few minutes (numbers meaningless).
set -uo pipefail
cd "$(dirname "$0")/.."
DEST=${OUT:-$(mktemp -d)}
mkdir -p "$DEST"
TOP=$(mktemp -d)
LOGS=$TOP/gpu_session
mkdir -p "$LOGS" /tmp/bin
SUMMARY=$LOGS/steps.txt

if compgen -G ".whl/*.whl" > /dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl
fi
export PYTHONPATH=$PWD/src:/tmp/site PYTHONUNBUFFERED=1 PATH=/tmp/bin:$PATH
command -v python > /dev/null || ln -sf "$(command -v python3)" /tmp/bin/python
printf '#!/bin/sh\nexec python3 -c "import sys; from lejepa_id.cli.main import main; sys.exit(main())" "$@"\n' \
  > /tmp/bin/lejepa-id
chmod +x /tmp/bin/lejepa-id

pack() { tar -czf "$DEST/gpu_session.tar.gz" -C "$TOP" gpu_session; }
step() {  # step NAME LIMIT_S CMD...
  local name=$1 limit=$2 t0 rc
  shift 2
  t0=$(date +%s)
  timeout "$limit" "$@" > "$LOGS/$name.log" 2>&1
  rc=$?
  echo "$name: rc=$rc wall=$(( $(date +%s) - t0 )) s (limit $limit s)" | tee -a "$SUMMARY"
  pack
}

{ date -u +%FT%TZ; nvidia-smi 2>&1 | head -15
  python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)"
} > "$LOGS/machine.txt" 2>&1
DEVICE=cuda DEMO_ARGS=()
if [[ "${SMOKE:-0}" == 1 ]]; then DEVICE=cpu DEMO_ARGS=(--steps 30); fi

step tests 90 python3 -m pytest -q -p no:cacheprovider tests/test_cuda.py
# Kernel launches and host syncs per step of the eager step and the CUDA graph.
step launches 40 bash -c "cd benchmarks && python3 bench_launches.py --device $DEVICE \
  --json $DEST/launches.json"
if [[ $DEVICE == cuda ]]; then
  step worlds 30 python3 benchmarks/record_cuda_worlds.py "$DEST"
fi
step demo 30 lejepa-id demo --device "$DEVICE" --no-progress --out "$TOP/demo" \
  "${DEMO_ARGS[@]}"
LIM_N1024=${LIM_N1024:-170} LIM_SCALING=${LIM_SCALING:-90} LIM_2D=${LIM_2D:-20} \
  LIM_GENNORM=${LIM_GENNORM:-25} LIM_GRID=${LIM_GRID:-20} LIM_BENCH=${LIM_BENCH:-25} \
  OUT=$LOGS/suite step suite 420 bash benchmarks/gpu_suite.sh
cp "$LOGS/suite/gpu_suite.json" "$DEST/" 2>/dev/null
pack
cat "$SUMMARY"
