#!/usr/bin/env bash
# GPU sweep benchmark: fits in about 8 minutes on one H200.
#
# Measures, with the real sweep command (batched groups, 4 groups sharing the GPU):
#   1. the whole N = 1024 SIGReg group (5 seeds, all 20,000 steps), timed;
#   2. the whole scaling sweep (300 encoders) at 1/10 of the steps -> x10 for the full sweep;
#   3. the 2d, gennorm and grid sweeps at 1/20 of the steps -> x20 for the full sweeps;
#   4. the batched speed-up over one-by-one for N = 2 and N = 1024 groups.
# Extrapolating by the step ratio over-counts fixed costs (process start, CUDA init,
# evaluation-set draws), so the projected totals are upper bounds.
# Prints a summary and, when $OUT is set, writes gpu_suite.json and the logs there.
#
# Usage (from the repository root, venv active):  bash benchmarks/gpu_suite.sh
# LIM_N1024, LIM_SCALING, LIM_2D, LIM_GENNORM, LIM_GRID and LIM_BENCH override each phase's
# time limit in seconds (a phase cut short projects from the runs it finished).
# SMOKE=1 runs the same script on a CPU in about a minute with tiny sweeps (its numbers
# mean nothing; it checks the script itself).
# Targets: scaling sweep <= 30 min, all four synthetic sweeps <= 60 min on one H200.
set -uo pipefail

RES=${OUT:-$(mktemp -d)}
mkdir -p "$RES"
WORK=$(mktemp -d)
JOBS=${JOBS:-4}
LOG="$RES/gpu_suite.log"
: > "$LOG"
say() { echo "$*" | tee -a "$LOG"; }

say "# gpu_suite $(date -u +%FT%TZ) jobs=$JOBS"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 | tee -a "$LOG"
python -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, torch.cuda.is_available())" | tee -a "$LOG"

# phase NAME LIMIT_S SCALE CMD...: run a sweep with a time limit, record wall seconds.
declare -A WALL SCALE_OF STATUS
phase() {
  local name=$1 limit=$2 scale=$3; shift 3
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout "$limit" "$@" > "$RES/$name.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  WALL[$name]=$(python -c "print(round($t1 - $t0, 1))")
  SCALE_OF[$name]=$scale
  STATUS[$name]=$rc
  say "$name: rc=$rc wall=${WALL[$name]} s (x$scale for full steps) | $(grep -E '^sweep ' "$RES/$name.log" | tail -1)"
}

DEVICE=cuda
SMOKE_SETS=()
SMOKE_ON=
BSTEPS=300
if [[ "${SMOKE:-0}" == 1 ]]; then
  DEVICE=cpu JOBS=1 SMOKE_ON=1 BSTEPS=10
  SMOKE_SETS=(--set 'seeds=[0]' --set eval_size=300 --set hidden=16 --set num_directions=16
              --set scatter=0 --set 'dims=[2]' --set 'alphas=[2]' --set 'lambs=[0.001]'
              --set 'rhos=[0.9]' --set 'runs=[spiral_lejepa]' --set steps=10)
  SMOKE_SCALING=(--set 'seeds=[0]' --set eval_size=4096 --set 'dims=[2,1024]' --set steps=5
                 --set inits=1 --set 'runs=[lejepa]')
fi
SW="lejepa-id sweep --no-progress --device $DEVICE --jobs $JOBS"

# 1. Whole N = 1024 SIGReg group, full length (one group of 5 stacked encoders).
phase n1024_lejepa_full "${LIM_N1024:-170}" 1 $SW configs/scaling.yaml --out "$WORK/p1" \
  --set 'dims=[1024]' --set 'runs=[lejepa]' ${SMOKE_ON:+"${SMOKE_SCALING[@]}"}
# 2. The whole scaling sweep at 1/10 of the steps (same evaluation count per step range).
phase scaling_tenth "${LIM_SCALING:-200}" 10 $SW configs/scaling.yaml --out "$WORK/p2" --set steps=2000 \
  ${SMOKE_ON:+"${SMOKE_SCALING[@]}"}
# 3. The other synthetic sweeps at 1/20 of the steps.
phase twod_twentieth "${LIM_2D:-40}" 20 $SW configs/2d.yaml --out "$WORK/p3" --set steps=1000 \
  ${SMOKE_ON:+"${SMOKE_SETS[@]}"}
phase gennorm_twentieth "${LIM_GENNORM:-60}" 20 $SW configs/gennorm.yaml --out "$WORK/p3" --set steps=1000 \
  ${SMOKE_ON:+"${SMOKE_SETS[@]}"}
phase grid_twentieth "${LIM_GRID:-40}" 20 $SW configs/grid.yaml --out "$WORK/p3" --set steps=1000 \
  ${SMOKE_ON:+"${SMOKE_SETS[@]}"}
# 4. Batched vs one-by-one (stacked groups of seeds), short.
timeout "${LIM_BENCH:-60}" python benchmarks/bench_sweeps.py --config configs/scaling.yaml --run lejepa \
  --set dim=2 --set inits=1 --steps $BSTEPS --sizes 1 16 --repeat 2 --device $DEVICE \
  --json "$RES/bench_n2.json" >> "$LOG" 2>&1
timeout "${LIM_BENCH:-60}" python benchmarks/bench_sweeps.py --config configs/scaling.yaml --run lejepa \
  --set dim=1024 --steps $BSTEPS --sizes 1 5 --repeat 1 --device $DEVICE \
  --json "$RES/bench_n1024.json" >> "$LOG" 2>&1

# Per-encoder time and projections.
python - "$RES" "$WORK" <<'PY' | tee -a "$LOG"
import glob, json, sys
res, work = sys.argv[1], sys.argv[2]
phases = {}
for line in open(f"{res}/gpu_suite.log"):
    if line.split(":")[0] in ("n1024_lejepa_full", "scaling_tenth", "twod_twentieth",
                               "gennorm_twentieth", "grid_twentieth") and "wall=" in line:
        name = line.split(":")[0]
        wall = float(line.split("wall=")[1].split()[0])
        scale = float(line.split("(x")[1].split()[0])
        rc = int(line.split("rc=")[1].split()[0])
        phases[name] = {"wall_s": wall, "scale": scale, "rc": rc,
                        "projected_full_s": wall * scale, "completed": rc == 0}

def encoders(root):
    n = 0
    for p in glob.glob(f"{root}/*/*/result.json"):
        c = json.load(open(p))["config"]
        n += c["inits"] if c["dim"] <= c["inits_max_dim"] else 1
    return n

def runs(root):
    out = {}
    for p in sorted(glob.glob(f"{root}/*/*/result.json")):
        r = json.load(open(p))
        out[p.split("/")[-2]] = {"status": r["status"], "r2_hz": r["metrics"].get("r2_hz"),
                                 "wall_time_s": r.get("wall_time_s")}
    return out

summary = {"phases": phases, "n1024_full_runs": runs(f"{work}/p1"),
           "scaling_tenth_runs": runs(f"{work}/p2")}
if "scaling_tenth" in phases:
    enc = encoders(f"{work}/p2")
    ph = phases["scaling_tenth"]
    summary["scaling_encoders_done"] = enc
    if enc:
        summary["scaling_s_per_encoder_full_steps"] = ph["projected_full_s"] / enc
        summary["scaling_projected_full_sweep_min"] = ph["projected_full_s"] / 60 * 300 / enc
full = sum(p["projected_full_s"] for k, p in phases.items() if k != "n1024_lejepa_full")
summary["all_four_projected_min"] = full / 60
summary["targets"] = {"scaling_min": 30, "all_four_min": 60}
for name in ("bench_n2", "bench_n1024"):
    try:
        summary[name] = json.load(open(f"{res}/{name}.json"))
    except OSError:
        pass
json.dump(summary, open(f"{res}/gpu_suite.json", "w"), indent=2)
print(json.dumps(summary, indent=2))
PY
say "results in $RES"
rm -rf "$WORK"
