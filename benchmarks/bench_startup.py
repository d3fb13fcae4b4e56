"""Start-up time of the command line, whole processes, optionally beside another checkout.

    python benchmarks/bench_startup.py                          # this checkout, 5 repeats
    python benchmarks/bench_startup.py --against /work/main/src --repeats 7
    python benchmarks/bench_startup.py --cases version help --out startup.txt

Each case is a fresh process, timed from just before it is started to its exit, and the
median (min, max) of ``--repeats`` runs is printed:

- ``version``: ``lejepa-id --version``; ``help``: ``lejepa-id --help``;
- ``import``: ``python -c "import lejepa_id"``;
- ``first-step``: ``lejepa-id run configs/2d.yaml --run spiral_lejepa --seed 0
  --device cpu`` (the run as configured), from the start of the process to the end of its
  first training step. The process is started as ``python -c`` code that imports the
  command line and ``lejepa_id.training.engine`` (which the run imports anyway), wraps
  ``Engine.step`` so that the first call prints the time once it returns, calls ``main``
  with those arguments, and ends the process there (``os._exit``);
- ``run-1-step``: the same run with ``--set steps=1`` to its exit: the first step plus
  one evaluation and the written record, the shortest run a user can ask for.

Every tree (this checkout's ``src``, and ``--against SRC``, say a checkout before a change)
runs with ``PYTHONPATH=SRC`` and the same interpreter, so the same installed packages;
the runs of the trees alternate, so load that changes during the benchmark shifts both
alike. Python's bytecode and Numba's compiled kernels are cached in a temporary folder
(``PYTHONPYCACHEPREFIX``, ``NUMBA_CACHE_DIR``), not in either tree, and one uncounted
run of each case and tree fills them first: the numbers are those of a second start.
A benchmark, not a test: other load shifts every number (the load average is printed at
the start and the end), so compare the trees' ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "configs" / "2d.yaml"
RUN = ["run", str(CONFIG), "--run", "spiral_lejepa", "--seed", "0", "--device", "cpu"]
MARK = "first step done at "
CASES = ("version", "help", "import", "first-step", "run-1-step")

FIRST_STEP = f"""
import os, sys, time
from lejepa_id.cli.main import main
from lejepa_id.training import engine

def first(step):
    def wrapped(self, *args, **kwargs):
        out = step(self, *args, **kwargs)
        print(f"{MARK}{{time.time():.6f}}", file=sys.stderr, flush=True)
        os._exit(0)
    return wrapped

engine.Engine.step = first(engine.Engine.step)
main(sys.argv[1:])
raise SystemExit("the run ended before its first step")
"""


def command_line() -> list[str]:
    """``lejepa-id``: the console script beside this interpreter, else ``-m lejepa_id``."""
    script = Path(sys.executable).with_name("lejepa-id")
    if script.is_file():
        return [sys.executable, str(script)]
    return [sys.executable, "-m", "lejepa_id"]


def case_argv(case: str, out: Path) -> list[str]:
    where = ["--out", str(out), "--no-progress"]
    if case == "version":
        return [*command_line(), "--version"]
    if case == "help":
        return [*command_line(), "--help"]
    if case == "import":
        return [sys.executable, "-c", "import lejepa_id"]
    if case == "first-step":
        return [sys.executable, "-c", FIRST_STEP, *RUN, *where]
    if case == "run-1-step":
        return [*command_line(), *RUN, *where, "--set", "steps=1"]
    raise ValueError(case)


def child_env(src: Path, cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(
        PYTHONPATH=str(src),
        PYTHONPYCACHEPREFIX=str(cache / "pyc"),
        NUMBA_CACHE_DIR=str(cache / "numba"),
    )
    return env


def time_once(case: str, src: Path, cache: Path) -> float:
    """Seconds from the start of the process to its exit (``first-step``: to its mark)."""
    out = Path(tempfile.mkdtemp(dir=cache, prefix="runs-"))
    argv = case_argv(case, out)
    start = time.time()
    proc = subprocess.run(argv, env=child_env(src, cache), capture_output=True, text=True)
    end = time.time()
    if proc.returncode != 0:
        raise SystemExit(f"{case} with {src} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    if case == "first-step":
        marks = [line for line in proc.stderr.splitlines() if line.startswith(MARK)]
        if not marks:
            raise SystemExit(f"first-step with {src}: no mark printed: {proc.stderr[-2000:]}")
        return float(marks[0].removeprefix(MARK)) - start
    return end - start


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", choices=CASES, default=list(CASES))
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per case and tree")
    parser.add_argument(
        "--against", type=Path, default=None, help="another checkout's src folder (before)"
    )
    parser.add_argument("--out", type=Path, default=None, help="also write the table here")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error(f"--repeats={args.repeats} must be >= 1")
    trees = {"this": ROOT / "src"}
    if args.against is not None:
        if not (args.against / "lejepa_id" / "__init__.py").is_file():
            parser.error(f"--against {args.against}: no lejepa_id package there")
        trees["against"] = args.against.resolve()
    lines: list[str] = []

    def say(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    say(f"bench_startup.py, {time.strftime('%Y-%m-%d %H:%M:%S %Z')}, {os.cpu_count()} cores")
    for name, src in trees.items():
        say(f"  {name}: PYTHONPATH={src}")
    say(f"  interpreter: {sys.executable}")
    say(f"  load average at start (1, 5, 15 min): {load()}")
    times: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        cache = Path(tmp)
        for case in args.cases:  # fill the bytecode and Numba caches: uncounted
            for src in trees.values():
                time_once(case, src, cache)
        for _ in range(args.repeats):
            for case in args.cases:
                for name, src in trees.items():
                    times.setdefault((case, name), []).append(time_once(case, src, cache))
    say(f"  load average at end: {load()}")
    say(f"seconds, median (min - max) of {args.repeats}")
    head = f"{'case':12s}" + "".join(f" {name:>24s}" for name in trees)
    say(head + ("   this/against" if len(trees) > 1 else ""))
    for case in args.cases:
        row = f"{case:12s}"
        for name in trees:
            got = times[(case, name)]
            cell = f"{statistics.median(got):.3f} ({min(got):.3f} - {max(got):.3f})"
            row += f" {cell:>24s}"
        if len(trees) > 1:
            ratio = statistics.median(times[(case, "this")]) / statistics.median(
                times[(case, "against")]
            )
            row += f"   {ratio:.3f}"
        say(row)
    if args.out is not None:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
