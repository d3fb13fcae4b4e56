"""Wall and CPU time of one command, with the machine's load around it, as JSON.

    python benchmarks/time_command.py --out benchmarks/results/NAME.json -- \
        lejepa-id paper --budget smoke --out /tmp/paper-smoke

Runs the command once (no repeats: it is for commands of minutes), and writes what it
took: wall seconds, the user and system CPU seconds of the command and its children, the
1/5/15-minute load averages before and after, the core count, the date and the commit.
A measurement of one moment on one machine: the load it ran beside is part of the
number, so the file says it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="JSON file to write")
    p.add_argument("--note", default="", help="free text stored with the measurement")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command")
    args = p.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        p.error("no command after --")
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    load_before = os.getloadavg()
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    t0 = time.perf_counter()
    rc = subprocess.run(command, check=False).returncode
    wall = time.perf_counter() - t0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    record = {
        "command": command,
        "returncode": rc,
        "started": started,
        "wall_s": round(wall, 2),
        "user_s": round(usage.ru_utime, 2),
        "sys_s": round(usage.ru_stime, 2),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "cpu_cores": os.cpu_count(),
        "machine": platform.machine(),
        "commit": commit,
        "python": sys.version.split()[0],
        "note": args.note,
    }
    with open(args.out, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    print(json.dumps(record, indent=1))
    return rc


if __name__ == "__main__":
    raise SystemExit(main())
