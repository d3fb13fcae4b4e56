"""The stall control: the published code on the scaling family's worlds, beside this code.

    python benchmarks/published_stall.py --published DIR --dims 4 --seeds 1 \\
        --modes lejepa whiten --out benchmarks/results/published-stall-cpu.json

``--published`` is the ``experiments/`` folder of a checkout of the published code. For
every (N, seed, objective) it runs the published ``run.py --config configs/scaling.yaml``
as it is (its best of K = 3 trains start k as the whole run at seed + 1000 k: its own
coupling world, encoder and evaluation set) and, side by side on the other core, this
code's ``lejepa-id run scaling`` at the same seed with ``inits_over: world``, the same
starts. Every start's end point is recorded for both codes: R^2(h -> z), the
orthogonality error and the final loss (the published code's last-step loss, this code's
mean over the last 100 steps).

What it decides (docs/stall.md): if the published code also ends a start of a world
below R^2 0.999 where this code does, the stall is a property of the objective on that
world, not of this implementation.

The published run.py keeps only its best start; a wrapper records every start's result
(``run_single``'s return value) without changing what the run computes. A benchmark, not
a test: it reads the published code from a path the user gives. Finished (N, seed,
objective) triples are kept in ``--out`` and not rerun.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]

# run.py as it is, with run_single wrapped to append each start's result to a JSON-lines
# file: its return value is passed through untouched.
PUBLISHED_EVERY_START = """
import json, sys
sys.path.insert(0, sys.argv[1])
import run
single, starts = run.run_single, sys.argv[2]
def recorded(spec, device):
    result, arrays = single(spec, device)
    keep = {k: float(result[k]) for k in ("r2_hz", "r2_zh", "orth_err", "final_loss")}
    with open(starts, "a") as f:
        f.write(json.dumps({"seed": int(spec["seed"]), **keep}) + "\\n")
    return result, arrays
run.run_single = recorded
sys.argv = [sys.argv[1] + "/run.py", *sys.argv[3:]]
run.main()
"""
OURS = "import sys; from lejepa_id.cli.main import main; sys.exit(main())"
THRESHOLD = 0.999  # the stall claims' identification threshold


def one_thread() -> dict[str, str]:
    return {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "PYTHONPATH": str(REPO / "src")}  # fmt: skip


def start_published(experiments: Path, dim: int, seed: int, mode: str, work: Path, steps: int):
    cfg = yaml.safe_load((experiments / "configs" / "scaling.yaml").read_text())
    cfg.update(out=str(work / "published"), steps=steps)
    path = work / "scaling.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    starts = work / "published-starts.jsonl"
    cmd = [sys.executable, "-c", PUBLISHED_EVERY_START, str(experiments), str(starts)]
    cmd += ["--config", str(path), "--N", str(dim), "--seed", str(seed), "--mode", mode]
    log = (work / "published.log").open("w")
    proc = subprocess.Popen(cmd, cwd=work, env=one_thread(), stdout=log, stderr=subprocess.STDOUT)
    return proc, starts


def start_ours(dim: int, seed: int, mode: str, work: Path, steps: int):
    cmd = [sys.executable, "-c", OURS, "run", "scaling", "--run", mode, "--seed", str(seed)]
    cmd += ["--set", f"dims=[{dim}]", "--set", "inits_over=world", "--set", f"steps={steps}"]
    cmd += ["--out", str(work / "ours"), "--no-progress", "--threads", "1"]
    log = (work / "ours.log").open("w")
    proc = subprocess.Popen(cmd, env=one_thread(), stdout=log, stderr=subprocess.STDOUT)
    return proc, work / "ours"


def wait(proc: subprocess.Popen, what: str, work: Path) -> None:
    if proc.wait() != 0:
        log = work / ("ours.log" if what == "ours" else "published.log")
        tail = log.read_text().strip().splitlines()[-1:] or ["(no output)"]
        sys.exit(f"{what} failed with exit status {proc.returncode}: {tail[0]}")


def our_starts(folder: Path) -> list[dict[str, Any]]:
    (result,) = folder.glob("scaling/*/result.json")
    record = json.loads(result.read_text())
    return [
        {
            "seed": int(m["seed"]),
            "r2_hz": m["r2_hz"],
            "r2_zh": m["r2_zh"],
            "orth_err": m["orth_err"],
            "final_loss": m["loss_last100"],
        }
        for m in record["init_final_metrics"]
    ]


def write(out: Path, rows: list[dict[str, Any]]) -> None:
    doc = {
        "device": f"cpu ({os.cpu_count()} cores, {platform.processor() or platform.machine()})",
        "threshold": THRESHOLD,
        "rows": rows,
    }
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n")
    tmp.replace(out)


def summarise(rows: list[dict[str, Any]]) -> None:
    print(f"\n{'N':>4s} {'seed':>4s} {'objective':9s} {'start':>6s} "
          f"{'published R^2':>14s} {'loss':>9s} {'ours R^2':>10s} {'loss':>9s}")  # fmt: skip
    for row in rows:
        for p, o in zip(row["published"], row["ours"]):
            flag = " both below" if max(p["r2_hz"], o["r2_hz"]) < THRESHOLD else ""
            print(
                f"{row['dim']:4d} {row['seed']:4d} {row['mode']:9s} {p['seed']:6d} "
                f"{p['r2_hz']:14.5f} {p['final_loss']:9.5f} {o['r2_hz']:10.5f} "
                f"{o['final_loss']:9.5f}{flag}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--published", required=True, type=Path, help="checkout's experiments/")
    parser.add_argument("--dims", type=int, nargs="+", default=[4])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--modes", nargs="+", default=["lejepa"],
                        choices=["lejepa", "whiten", "infonce"])  # fmt: skip
    parser.add_argument("--steps", type=int, default=20000, help="the paper's 20,000")
    parser.add_argument("--out", type=Path, required=True, help="JSON (resumed if it exists)")
    args = parser.parse_args()
    experiments = args.published.resolve()
    if not (experiments / "run.py").is_file():
        sys.exit(f"--published {args.published}: no run.py there (give the experiments/ folder)")
    rows = json.loads(args.out.read_text())["rows"] if args.out.exists() else []
    done = {(r["dim"], r["seed"], r["mode"], r["steps"]) for r in rows}
    for dim in args.dims:
        for seed in args.seeds:
            for mode in args.modes:
                if (dim, seed, mode, args.steps) in done:
                    continue
                with tempfile.TemporaryDirectory(prefix="published_stall-") as tmp:
                    work = Path(tmp)
                    t0 = time.perf_counter()
                    proc_p, starts = start_published(experiments, dim, seed, mode, work, args.steps)
                    proc_o, ours = start_ours(dim, seed, mode, work, args.steps)
                    wait(proc_o, "ours", work)
                    wait(proc_p, "published run.py", work)
                    published = [json.loads(line) for line in starts.read_text().splitlines()]
                    row = {
                        "dim": dim, "seed": seed, "mode": mode, "steps": args.steps,
                        "published": published, "ours": our_starts(ours),
                        "wall_s": time.perf_counter() - t0,
                    }  # fmt: skip
                rows.append(row)
                write(args.out, rows)
                summarise([row])
    summarise(rows)


if __name__ == "__main__":
    main()
