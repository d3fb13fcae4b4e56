"""``lejepa-id verify --timeout`` and coqc's lifetime: a hung coqc is killed at the
limit, and an interrupted verify kills its coqc processes (no orphan keeps running).

A fake ``coqc`` on PATH stands in for Coq: it answers ``--version`` and otherwise
records its pid and sleeps, as a proof search that never ends would.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import lejepa_id
from lejepa_id.cli.main import main
from lejepa_id.proofs import coq

FAKE = """#!/bin/sh
if [ "$1" = "--version" ]; then echo "The Coq Proof Assistant, version 8.18.0"; exit 0; fi
echo $$ >> "{pids}"
exec sleep 120
"""


@pytest.fixture
def fake_coqc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    pids = tmp_path / "pids"
    script = bin_dir / "coqc"
    script.write_text(FAKE.format(pids=pids))
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return pids


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead but not yet reaped by its (test) parent.
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split()[2] == "Z")


def test_hung_coqc_is_killed_at_the_timeout(fake_coqc, tmp_path):
    start = time.monotonic()
    proc = coq._coqc("coqc", ["x.v"], tmp_path, timeout=1.0)
    assert proc.returncode == 124 and "timed out after 1 s" in proc.stderr
    assert time.monotonic() - start < 30
    (pid,) = map(int, fake_coqc.read_text().split())
    assert not alive(pid)
    assert not coq._RUNNING


@pytest.mark.parametrize("value", ["0", "-5", "abc", "inf", "nan"])
def test_verify_timeout_must_be_positive_seconds(value, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["verify", "--timeout", value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--timeout" in err and repr(value) in err  # no usage


@pytest.mark.parametrize("kind", ["file", "missing"])
def test_verify_formal_dir_must_be_a_folder(tmp_path, capsys, kind):
    target = tmp_path / "proofs.v"
    if kind == "file":
        target.write_text("Theorem t : True. Proof. exact I. Qed.\n")
    with pytest.raises(SystemExit) as exc:
        main(["verify", "--formal-dir", str(target)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1
        and f"--formal-dir {str(target)!r} is {'a file' if kind == 'file' else 'missing'}" in err
    )


def test_verify_help_names_the_timeout_and_its_default(capsys):
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    out = capsys.readouterr().out
    assert "--timeout SECONDS" in out and "default 900" in out


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_interrupted_verify_kills_its_coqc(fake_coqc, sig, code):
    env = {**os.environ, "PYTHONPATH": str(Path(lejepa_id.__file__).parents[1])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "lejepa_id", "verify", "--timeout", "600"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    deadline = time.monotonic() + 60
    while not (fake_coqc.exists() and fake_coqc.read_text().strip()):
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    pids = [int(p) for p in fake_coqc.read_text().split()]
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err.decode()
    assert "Traceback" not in err.decode()
    time.sleep(0.5)
    assert not [p for p in pids if alive(p)]
