"""Training speed on an idle and on a busy CPU, per torch thread count.

    python benchmarks/bench_busy.py                       # 2d and N = 256, busy 0 2 4
    python benchmarks/bench_busy.py --cases 2d --busy 0 4 --threads 1 2 auto --steps 500

For each busy level the script starts that many bounded busy-loop processes (each spins
until ``--busy-limit`` seconds have passed or this script has gone, and is killed when
the level is done), then trains every case with every thread setting, each in a fresh
Python process, and prints steps/s of the training loop and the whole process's wall
time (imports included). Cases: ``2d`` is the 2d spiral lejepa run (mlp, full evaluation
schedule); ``N256`` and ``N1024`` the scaling run (coupling L = 4, matched encoder). A
benchmark, not a test: other load on the machine shifts every number, so compare rows of
one run, and rerun with ``--repeat`` to see the spread.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import time

BUSY_LOOP = """
import os, sys, time
deadline, parent = time.monotonic() + float(sys.argv[1]), int(sys.argv[2])
while time.monotonic() < deadline and os.getppid() == parent:
    for _ in range(100_000):
        pass
"""


def case_config(name: str, steps: int):
    from lejepa_id import RunConfig

    if name == "2d":
        return RunConfig(mixing="spiral", encoder="mlp", lam=1e-3, steps=steps, device="cpu")
    dim = int(name.removeprefix("N"))
    return RunConfig(
        dim=dim,
        mixing="coupling",
        encoder="matched",
        layers=4,
        lam=1e-6,
        steps=steps,
        device="cpu",
    )


def child(case: str, steps: int, threads: str) -> None:
    """Train one case in this process and print one JSON line."""
    from lejepa_id import RunConfig, train

    cfg = case_config(case, steps)
    train(RunConfig(**{**cfg.__dict__, "steps": 20}), progress=False, threads=threads)
    start = time.perf_counter()
    res = train(cfg, progress=False, threads=threads)
    wall = time.perf_counter() - start
    print(json.dumps({"threads_used": res.threads, "train_s": wall, "r2_hz": res.metrics["r2_hz"]}))


def measure(case: str, steps: int, threads: str, policy: str) -> dict:
    drop = ("OMP_NUM_THREADS", "LEJEPA_ID_THREADS", "OMP_WAIT_POLICY", "GOMP_SPINCOUNT")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    if policy.startswith("spin"):
        env["GOMP_SPINCOUNT"] = policy.removeprefix("spin")
    elif policy != "default":
        env["OMP_WAIT_POLICY"] = policy.upper()
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, __file__, "--child", case, str(steps), threads],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    process_s = time.perf_counter() - start
    row = json.loads(out.strip().splitlines()[-1])
    return {
        "case": case,
        "threads": threads,
        "wait_policy": policy,
        "threads_used": row["threads_used"],
        "steps": steps,
        "steps_per_s": round(steps / row["train_s"], 1),
        "train_s": round(row["train_s"], 2),
        "process_s": round(process_s, 2),
        "r2_hz": row["r2_hz"],
    }


def wait_policy(value: str) -> str:
    if value in ("default", "active", "passive") or (
        value.startswith("spin") and value.removeprefix("spin").isdigit()
    ):
        return value
    raise argparse.ArgumentTypeError(f"{value!r}: use default, active, passive or spinN")


def start_busy(n: int, limit_s: float) -> list[subprocess.Popen]:
    code = [sys.executable, "-c", BUSY_LOOP, str(limit_s), str(os.getpid())]
    return [subprocess.Popen(code) for _ in range(n)]


def stop_busy(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=["2d", "N256"])
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--threads", nargs="+", default=["1", "2", "auto"])
    parser.add_argument("--busy", nargs="+", type=int, default=[0, 2, 4])
    parser.add_argument(
        "--wait-policy",
        nargs="+",
        default=["default"],
        type=wait_policy,
        help="OMP_WAIT_POLICY of the training process: default (what this code sets), "
        "active, passive, or spinN (GOMP_SPINCOUNT=N beside this code's policy: a waiting "
        "thread spins N rounds, then sleeps)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="rounds over all settings")
    parser.add_argument("--busy-limit", type=float, default=900.0, help="busy loops' lifetime, s")
    parser.add_argument("--json", help="also write the rows to this JSON file")
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"cores={os.cpu_count()} load average before start={load[0]:.2f}", flush=True)
    rows = []
    for busy in args.busy:
        procs = start_busy(busy, args.busy_limit)
        try:
            time.sleep(1.0 if busy else 0.0)
            for rnd in range(args.repeat):
                for case in args.cases:
                    for threads, policy in itertools.product(args.threads, args.wait_policy):
                        row = {
                            "busy": busy,
                            "round": rnd,
                            **measure(case, args.steps, threads, policy),
                        }
                        rows.append(row)
                        print(
                            f"busy={busy} {case:6s} threads={threads:>4s} wait={policy:7s} "
                            f"(used {row['threads_used']}) {row['steps_per_s']:7.1f} steps/s  "
                            f"train {row['train_s']:7.2f} s  process {row['process_s']:7.2f} s",
                            flush=True,
                        )
        finally:
            stop_busy(procs)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cores": os.cpu_count(), "load_before": load[0], "rows": rows}, f, indent=2)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        main()
