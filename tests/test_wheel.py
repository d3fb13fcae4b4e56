"""The built wheel is self-contained: installed in a fresh venv and run from another
folder, it trains the demo and a paper config by name and finds its Coq sources."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from lejepa_id.proofs.checker import default_formal_dir
from lejepa_id.resources import paper_configs, resolve_config, shipped_dir

ROOT = Path(__file__).resolve().parents[1]


def test_a_checkout_reads_its_own_configs_and_formal():
    # One copy of each in the repository: the package reads it, nothing is duplicated.
    assert shipped_dir("configs") == ROOT / "configs"
    assert default_formal_dir() == ROOT / "formal"
    assert not (ROOT / "src" / "lejepa_id" / "_bundled").exists()
    assert set(paper_configs()) >= {"2d", "scaling", "gennorm", "grid", "reacher_grid"}
    assert resolve_config("2d") == ROOT / "configs" / "2d.yaml"
    assert resolve_config(ROOT / "configs" / "2d.yaml") == ROOT / "configs" / "2d.yaml"


def test_an_unknown_config_name_lists_the_shipped_ones(tmp_path, capsys):
    from lejepa_id.cli.main import main

    assert main(["run", "2e", "--run", "x", "--seed", "0", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "config file '2e' does not exist; the paper's configs by name: 2d, action," in err
    assert list(tmp_path.iterdir()) == []


def _torch_requirement(lines: list[str]):
    from packaging.requirements import Requirement

    (torch,) = [r for r in map(Requirement, lines) if r.name == "torch"]
    return torch


def _setup_pin() -> str:
    """The torch version scripts/setup.sh installs (``torch==X``)."""
    import re

    (pin,) = set(re.findall(r"torch==([\d.]+)", (ROOT / "scripts" / "setup.sh").read_text()))
    return pin


def test_torch_is_bounded_by_the_version_tested():
    # "torch>=2.4" let a resolver pick any newer torch (on Linux the CUDA build, several
    # GB); the bound keeps it to the tested series, and the tested pin satisfies it.
    tomllib = pytest.importorskip("tomllib")
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    torch = _torch_requirement(deps)
    assert any(s.operator in ("<", "<=", "==", "~=") for s in torch.specifier), torch
    assert torch.specifier.contains(_setup_pin())
    assert not torch.specifier.contains("99.0")


@pytest.mark.slow
def test_wheel_installs_and_runs_from_another_folder(tmp_path):
    had_build = (ROOT / "build").exists()
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(ROOT)],
        check=True,
        cwd=tmp_path,
    )
    assert had_build or not (ROOT / "build").exists(), "pip wheel left build/ in the checkout"
    (wheel,) = wheels.glob("lejepa_identifiability-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    # The wheel's own metadata carries the bound (the requirement pip resolves).
    with zipfile.ZipFile(wheel) as zf:
        (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        requires = [
            line.split(":", 1)[1].strip()
            for line in zf.read(meta).decode().splitlines()
            if line.startswith("Requires-Dist:") and "extra ==" not in line
        ]
    torch = _torch_requirement(requires)
    assert torch.specifier.contains(_setup_pin()) and not torch.specifier.contains("99.0")
    # The bundled copies are the repository's files, byte for byte: they cannot drift.
    with zipfile.ZipFile(wheel) as zf:
        for kind, pattern in (("configs", "*.yaml"), ("formal", "*.v"), ("formal", "_CoqProject")):
            for path in (ROOT / kind).glob(pattern):
                packed = f"lejepa_id/_bundled/{kind}/{path.name}"
                assert packed in names, packed
                assert zf.read(packed) == path.read_bytes(), packed

    # Without PYTHONPATH: a checkout's src/ on it (with its egg-info) would make pip take
    # the package for installed already, and lejepa-id import the checkout's code.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--disable-pip-version-check",
            "-q",
            str(wheel),
        ],
        check=True,
        env=env,
    )
    # A venv made from a venv sees the base interpreter's packages, not the parent
    # venv's: point it at this interpreter's site-packages for the dependencies (torch,
    # numpy, ...), after the install (else pip would call the checkout's editable
    # install "already satisfied"). The wheel in the new venv comes first on sys.path.
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    parents = {sysconfig.get_paths()["purelib"], *site.getsitepackages()}
    Path(purelib, "_parent_site.pth").write_text("\n".join(sorted(parents)) + "\n")
    work = tmp_path / "elsewhere"
    work.mkdir()
    exe = str(venv / "bin" / "lejepa-id")

    def run(*args: str) -> str:
        done = subprocess.run(
            [exe, *args], cwd=work, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    where = subprocess.run(
        [
            str(python),
            "-c",
            "import lejepa_id, lejepa_id.proofs.checker as c; "
            "print(lejepa_id.__file__); print(c.default_formal_dir())",
        ],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert where[0].startswith(str(venv)), where  # the installed wheel, not the checkout
    assert where[1].startswith(str(venv)) and where[1].endswith("_bundled/formal")

    assert "wrote" in run("demo", "--steps", "20", "--no-progress", "--out", "demo")
    assert (work / "demo" / "demo.png").is_file()
    fast = [
        "--set",
        "steps=20",
        "--set",
        "eval_size=300",
        "--set",
        "scatter=0",
        "--set",
        "hidden=16",
        "--set",
        "num_directions=16",
        "--no-progress",
    ]
    run("run", "2d", "--run", "spiral_lejepa", "--seed", "0", "--out", "runs", *fast)
    assert (work / "runs" / "2d" / "spiral_lejepa-seed0" / "result.json").is_file()
    assert "--formal-dir" in run("verify", "--help")
