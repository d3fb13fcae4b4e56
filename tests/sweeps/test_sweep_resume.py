"""Killing a sweep at any moment and starting it again finishes the same set of results."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from lejepa_id.config.experiments import load_experiment

CONFIG = """
name: resume
defaults: {dim: 2, mixing: spiral, encoder: mlp, mode: lejepa, lam: 1.0e-3, hidden: 32,
           num_directions: 16, steps: 300, eval_size: 200, eval_every: 100,
           eval_every_early: 10, early_until: 10, device: cpu}
runs:
  a: {}
  b: {lam: 0.01}
seeds: [1, 2, 3, 4, 5, 6]
"""


def _sweep(cfg: Path, out: Path) -> subprocess.Popen:
    # --max-group 1: one run per group, so results appear one at a time; 300 steps a run
    # so a poller starved by a loaded machine still finds the sweep part-way.
    cmd = [
        sys.executable,
        "-m",
        "lejepa_id.cli.main",
        "sweep",
        str(cfg),
        "--out",
        str(out),
        "--jobs",
        "1",
        "--max-group",
        "1",
        "--no-progress",
    ]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_kill_then_resume_finishes_every_run_once(tmp_path: Path) -> None:
    cfg = tmp_path / "resume.yaml"
    cfg.write_text(CONFIG)
    out = tmp_path / "out"
    root = out / "resume"
    expected = {s.run_id for s in load_experiment(cfg).expand()}

    proc = _sweep(cfg, out)
    deadline = time.monotonic() + 240
    while len(list(root.glob("*/result.json"))) < 2 and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    first = {p.parent.name: p.stat().st_mtime_ns for p in root.glob("*/result.json")}
    assert 2 <= len(first) < len(expected)

    proc = _sweep(cfg, out)
    stdout, stderr = proc.communicate(timeout=600)
    assert proc.returncode == 0, stderr
    assert f"{len(first)} already done" in stdout

    done = {p.parent.name: p for p in root.glob("*/result.json")}
    assert set(done) == expected
    for run_id, path in done.items():
        data = json.loads(path.read_text())  # every file parses: none corrupt
        assert data["status"] == "finished" and data["name"] == run_id
    for run_id, mtime in first.items():  # finished runs are not trained again
        assert done[run_id].stat().st_mtime_ns == mtime
    assert not list(root.glob("*/.*.tmp")) and not list(root.glob("*/error.json"))
    manifest = json.loads((root / "sweep.json").read_text())
    assert set(manifest["run_ids"]) == expected
