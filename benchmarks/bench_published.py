"""Whole-process training time of this code beside the published code, interleaved.

    python benchmarks/bench_published.py --published /path/to/checkout/experiments
    python benchmarks/bench_published.py --published DIR --cases N1024 --steps 200 --repeat 2

``--published`` is the ``experiments/`` folder of a checkout of the published code (the
one holding ``run.py``, ``lejepa_id/`` and ``configs/``); it is run as it is, never
imported. For each round and each case the script runs (a) the published ``run.py`` and
(b) this code's ``lejepa-id run`` with the same number of steps, each as a fresh Python
process, one after the other (A, B, A, B, ... so that drifting background load hits both
alike), and prints each process's wall time (imports, evaluation and writing the results
included) and CPU time (user + system, from the child's resource usage; less moved by
other load than wall time), steps per second of each, the 1-minute load average before
it started, and per round the ratio published / ours (above 1: this code is faster).

Cases (the published configs' own evaluation schedules: every 100 steps up to 1,000,
then every 500): ``2d`` the 2d spiral lejepa run (seed 1337, with its 100,000-point
scatter); ``N256`` and ``N1024`` the scaling run, coupling mixing L = 4, matched encoder,
lejepa lambda = 1e-6, seed 0, one initialisation (both codes use one above N = 32);
``sweep2d`` the eight 2d runs of seed 1337 (four mixings x lejepa and whiten), as the
published code runs a sweep (one ``run.py`` process per run, one after another) against
one ``lejepa-id sweep`` process (its planner stacks the runs and trains groups side by
side); its time is the sum over the eight published processes.
Steps are set for the published code by a temporary copy of its YAML with ``steps`` and
``out`` replaced, for this code by ``--set steps=...``.

Threads: ``--threads 1`` (default) runs both with ``OMP_NUM_THREADS=1`` and
``MKL_NUM_THREADS=1`` (and this code with ``--threads 1``); ``--threads default`` clears
those variables so each code uses its own default (PyTorch's for the published code,
``auto`` for this one). A benchmark, not a test: the machine's other load moves every
number, so compare the rows of one run and use ``--repeat`` to see the spread.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
OURS = "import sys; from lejepa_id.cli.main import main; sys.exit(main())"
THREAD_VARS = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "LEJEPA_ID_THREADS")

# case -> (published config, published args, our config, our args, default steps)
CASES = {
    "2d": (
        "2d.yaml",
        ["--run", "spiral_lejepa", "--seed", "1337"],
        "2d.yaml",
        ["--run", "spiral_lejepa", "--seed", "1337"],
        2000,
    ),
    "sweep2d": ("2d.yaml", ["--seed", "1337"], "2d.yaml", ["--set", "seeds=[1337]"], 1000),
    "N256": (
        "scaling.yaml",
        ["--N", "256", "--seed", "0"],
        "scaling.yaml",
        ["--run", "lejepa", "--seed", "0", "--set", "dims=[256]"],
        2000,
    ),
    "N1024": (
        "scaling.yaml",
        ["--N", "1024", "--seed", "0"],
        "scaling.yaml",
        ["--run", "lejepa", "--seed", "0", "--set", "dims=[1024]"],
        200,
    ),
}


def environment(threads: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARS}
    if threads == "1":
        env.update(OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return env


def published_cmds(published: Path, case: str, steps: int, work: Path) -> list[list[str]]:
    """Write the published YAML with steps and out replaced; return its command lines
    (one per run of the config for the sweep case)."""
    config, args, *_ = CASES[case]
    cfg = yaml.safe_load((published / "configs" / config).read_text())
    cfg.update(steps=steps, out=str(work / "published"))
    path = work / f"{case}-{steps}.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    base = [sys.executable, str(published / "run.py"), "--config", str(path), *args]
    if case == "sweep2d":
        return [[*base, "--run", run] for run in cfg["runs"]]
    return [base]


def ours_cmds(case: str, steps: int, threads: str, work: Path) -> list[list[str]]:
    _, _, config, args, _ = CASES[case]
    extra = ["--threads", "1"] if threads == "1" else []
    verb = "sweep" if case == "sweep2d" else "run"
    return [
        [
            *(sys.executable, "-c", OURS, verb, str(REPO / "configs" / config), *args),
            *("--set", f"steps={steps}", "--out", str(work / "ours"), "--no-progress", *extra),
        ]
    ]


def cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one whole process; exits if it failed."""
    cpu, start = cpu_children(), time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return wall, cpu_children() - cpu


def summarise(rows: list[dict]) -> None:
    """Per case and code: medians over rounds, and each round's ratio published / ours."""
    for key in ("wall_s", "cpu_s"):
        print(f"\n{key:6s}  code       median s  steps/s   ratio published/ours per round")
        for case in dict.fromkeys(r["case"] for r in rows):
            times = {
                code: [r[key] for r in rows if r["case"] == case and r["code"] == code]
                for code in ("published", "ours")
            }
            ratios = [p / o for p, o in zip(times["published"], times["ours"], strict=True)]
            steps = next(r["steps"] for r in rows if r["case"] == case)
            for code, t in times.items():
                med = statistics.median(t)
                extra = " ".join(f"{x:.2f}" for x in ratios) if code == "ours" else ""
                print(f"{case:7s} {code:10s} {med:8.1f}  {steps / med:7.1f}   {extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--published", required=True, type=Path, help="checkout's experiments/")
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    parser.add_argument("--steps", type=int, help="steps for every case (default: per case)")
    parser.add_argument("--threads", choices=["1", "default"], default="1")
    parser.add_argument("--repeat", type=int, default=2, help="rounds of A/B per case")
    args = parser.parse_args()
    published = args.published.resolve()
    if not (published / "run.py").is_file():
        sys.exit(f"--published {args.published}: no run.py there (give the experiments/ folder)")
    env = environment(args.threads)
    print(f"cores={os.cpu_count()} threads={args.threads} python={sys.executable}", flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_published-") as tmp:
        work = Path(tmp)
        for rnd in range(args.repeat):
            for case in args.cases:
                steps = args.steps or CASES[case][4]
                run_dir = work / f"round{rnd}-{case}"  # fresh outputs: nothing to resume
                run_dir.mkdir()
                cmds = {
                    "published": published_cmds(published, case, steps, run_dir),
                    "ours": ours_cmds(case, steps, args.threads, run_dir),
                }
                for code, procs in cmds.items():
                    load = os.getloadavg()[0]
                    times = [timed(cmd, env, run_dir) for cmd in procs]
                    wall, cpu = (sum(t) for t in zip(*times, strict=True))
                    rows.append(
                        dict(round=rnd, case=case, code=code, steps=steps, wall_s=wall, cpu_s=cpu)
                    )
                    print(
                        f"round {rnd} {case:6s} {code:10s} steps {steps:6d}  wall {wall:7.1f} s "
                        f"({steps / wall:6.1f} steps/s)  cpu {cpu:7.1f} s "
                        f"({steps / cpu:6.1f} steps/s)  load before {load:5.2f}",
                        flush=True,
                    )
    summarise(rows)


if __name__ == "__main__":
    main()
