"""scripts/paper_pieces.sh: one `paper --only` call per experiment, in order, each after the
hold file is gone, and a failed piece stops the rest."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "scripts" / "paper_pieces.sh"


def _fake_cli(tmp_path: Path, fail_on: str = "") -> tuple[Path, Path]:
    """A stand-in for lejepa-id that logs its arguments (and fails for ``fail_on``)."""
    log = tmp_path / "calls.txt"
    cli = tmp_path / "fake-lejepa-id"
    cli.write_text(
        "#!/usr/bin/env bash\n"
        f'echo "$*" >> {log}\n'
        f'[[ -n "{fail_on}" && "$*" == *"--only {fail_on} "* ]] && exit 1\n'
        "exit 0\n"
    )
    cli.chmod(0o755)
    return cli, log


def _run(cli: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "LEJEPA_ID": str(cli), **(env or {})}
    return subprocess.run(["bash", str(SCRIPT), *args], env=env, capture_output=True,
                          text=True, timeout=60)  # fmt: skip


def test_each_experiment_is_one_paper_call_in_order(tmp_path: Path) -> None:
    cli, log = _fake_cli(tmp_path)
    out = tmp_path / "out"
    proc = _run(cli, "overnight", str(out), "2d", "grid", "codedim")
    assert proc.returncode == 0, proc.stderr
    calls = log.read_text().splitlines()
    assert calls == [
        f"paper --budget overnight --beyond --out {out} --only {exp} --no-progress"
        for exp in ("2d", "grid", "codedim")
    ]
    assert proc.stdout.count("== piece") == 6


def test_a_failed_piece_stops_the_rest_and_a_hold_waits(tmp_path: Path) -> None:
    cli, log = _fake_cli(tmp_path, fail_on="grid")
    proc = _run(cli, "overnight", str(tmp_path / "out"), "2d", "grid", "codedim")
    assert proc.returncode == 1
    assert [c.split("--only ")[1].split()[0] for c in log.read_text().splitlines()] == [
        "2d",
        "grid",
    ]
    # A hold file keeps the first piece from starting until it is removed.
    held = tmp_path / "held"
    held.mkdir()
    cli, log = _fake_cli(held)
    hold = tmp_path / "hold"
    hold.touch()
    threading.Timer(1.5, hold.unlink).start()
    start = time.monotonic()
    proc = _run(cli, "overnight", str(tmp_path / "out2"), "2d", env={"LEJEPA_ID_HOLD": str(hold)})
    assert proc.returncode == 0 and time.monotonic() - start >= 1.5
    assert log.read_text().count("--only 2d") == 1


def test_missing_arguments_exit_2(tmp_path: Path) -> None:
    cli, _ = _fake_cli(tmp_path)
    proc = _run(cli, "overnight")
    assert proc.returncode == 2 and "usage" in proc.stderr
