#!/usr/bin/env bash
# Reacher pace on one GPU (sized for one H200 in under 8 minutes):
#   - renders a 10,000-frame eval gallery and 16,384 OU pairs headless with MUJOCO_GL=egl
#     (paper look) plus 4,000 frames in the fast look, on all CPU cores;
#   - trains the cnn encoder 8 epochs on those pairs in three layouts (float32 NCHW,
#     float32 channels-last, bfloat16 autocast + channels-last), reports images/s and
#     whether R^2 stays unchanged (|delta R^2(h->z)| < 0.02 against float32);
#   - extrapolates the paper's full sweep (2 datasets x 4 lambdas x 3 seeds x 100 epochs
#     x 100,000 pairs) and its rendering time. Prints one JSON summary on stdout.
# Needs: the project installed with the [reacher] extra (mujoco==3.17.0,
# dm-control==1.0.50) and an EGL library (NVIDIA's driver ships one; on Debian/Ubuntu
# otherwise: apt-get install -y libegl1 libegl-mesa0 libgl1-mesa-dri libopengl0).
# Usage: benchmarks/gpu_reacher.sh [OUT_DIR] [extra bench_reacher.py flags]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f .venv/bin/activate ]; then . .venv/bin/activate; fi
OUT="${1:-$(mktemp -d /tmp/gpu_reacher.XXXXXX)}"
shift || true
export MUJOCO_GL="${MUJOCO_GL:-egl}"
python - <<'PY'
import torch
assert torch.cuda.is_available(), "gpu_reacher.sh needs a CUDA device"
print("device:", torch.cuda.get_device_name(0), "torch", torch.__version__, flush=True)
PY
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader || true
start=$(date +%s)
# 450 s leaves headroom inside the 8-minute slot for start-up and the copy back.
timeout 450 python benchmarks/bench_reacher.py --out "$OUT" --device cuda "$@"
echo "gpu_reacher.sh: total $(( $(date +%s) - start )) s, scratch in $OUT" >&2
