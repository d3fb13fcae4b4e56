"""Starting fast: ``import lejepa_id``, ``lejepa-id --version`` and every ``--help`` load no
torch, SciPy, Numba, matplotlib or pandas; the public names still resolve on first use."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import lejepa_id

HEAVY = ("torch", "numpy", "scipy", "numba", "matplotlib", "pandas", "dm_control", "mujoco")
SCIPY = ("scipy.optimize", "scipy.special")
UNUSED = ("matplotlib", "pandas", "dm_control", "mujoco")  # by a synthetic run
PUBLIC = ("RunConfig", "RunResult", "World", "load_encoder", "load_experiment", "train")

# Prints, after each command line, the heavy libraries loaded so far (a child process:
# this one has them all).
COMMANDS = """
import argparse, contextlib, io, json, sys
from lejepa_id.cli.main import build_parser, main

HEAVY = {heavy!r}

def loaded():
    return [name for name in HEAVY if name in sys.modules]

def paths(parser, words=()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield (*words, name)
                yield from paths(child, (*words, name))

commands = [["--version"], ["--help"], ["completion", "bash"], ["completion", "zsh"]]
commands += [[*words, "--help"] for words in paths(build_parser())]
out = {{}}
for argv in commands:
    with contextlib.redirect_stdout(io.StringIO()) as text:
        try:
            main(argv)
        except SystemExit as exc:
            assert exc.code == 0, (argv, exc.code)
    assert text.getvalue(), argv  # each printed its help, version or script
    out[" ".join(argv)] = loaded()
print(json.dumps(out))
"""


def _child(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_version_every_help_and_the_completion_scripts_load_no_heavy_library():
    loaded = json.loads(_child(COMMANDS.format(heavy=HEAVY)))
    # Every subcommand's help was printed, nested ones included.
    assert {"run --help", "sweep --help", "reacher render --help", "config show --help"} <= set(
        loaded
    )
    assert {argv: mods for argv, mods in loaded.items() if mods} == {}


@pytest.mark.parametrize("argv", [["--version"], ["--help"]])
def test_python_m_lejepa_id_starts_without_torch(argv):
    # The `python -m lejepa_id` path (lejepa_id/__main__.py), its SystemExit caught.
    code = (
        "import runpy, sys\n"
        f"sys.argv = ['lejepa-id', *{argv!r}]\n"
        "try:\n"
        "    runpy.run_module('lejepa_id', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
        f"print([name for name in {HEAVY!r} if name in sys.modules])"
    )
    assert _child(code).splitlines()[-1] == "[]"


def test_importing_the_package_and_listing_it_loads_no_heavy_library():
    code = (
        "import sys, lejepa_id\n"
        "names = dir(lejepa_id)\n"
        f"print([name for name in {HEAVY!r} if name in sys.modules])\n"
        f"print(sorted(set({PUBLIC!r}) - set(names)))"
    )
    heavy, missing = _child(code).splitlines()
    assert heavy == "[]"
    assert missing == "[]"  # dir() lists the public names before they are imported


def test_the_public_names_resolve_to_their_modules_objects():
    from lejepa_id import RunConfig, RunResult, World, load_encoder, load_experiment, train
    from lejepa_id.config.experiments import load_experiment as defined_load_experiment
    from lejepa_id.config.run import RunConfig as DefinedRunConfig
    from lejepa_id.records.result import RunResult as DefinedRunResult
    from lejepa_id.training.saving import load_encoder as defined_load_encoder
    from lejepa_id.training.trainer import train as defined_train
    from lejepa_id.worlds.world import World as DefinedWorld

    assert RunConfig is DefinedRunConfig and RunResult is DefinedRunResult
    assert World is DefinedWorld and train is defined_train
    assert load_encoder is defined_load_encoder and load_experiment is defined_load_experiment
    assert set(lejepa_id.__all__) == set(PUBLIC) and set(PUBLIC) <= set(dir(lejepa_id))
    assert RunConfig(mixing="banana").validate().mixing == "banana"


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="module 'lejepa_id' has no attribute 'trian'"):
        lejepa_id.trian  # noqa: B018
    assert not hasattr(lejepa_id, "trian")


def test_star_import_gives_the_public_names():
    namespace: dict[str, object] = {}
    exec("from lejepa_id import *", namespace)  # noqa: S102
    assert set(PUBLIC) <= set(namespace)


# A tiny 2d run through the command line, with Engine.step wrapped to note the heavy
# libraries loaded when the first step is done; the rest after the run.
RUN = """
import json, sys
from lejepa_id.cli.main import main
from lejepa_id.training import engine

HEAVY = {heavy!r}
seen = {{}}

def loaded():
    return [name for name in HEAVY if name in sys.modules]

def noting(step):
    def first(self, *args, **kwargs):
        out = step(self, *args, **kwargs)
        seen.setdefault("first step", loaded())
        return out
    return first

engine.Engine.step = noting(engine.Engine.step)
assert main({argv!r}) == 0
seen["end"] = loaded()
print(json.dumps(seen))
"""


def test_a_2d_run_loads_scipy_only_for_its_metrics_and_no_plotting(tmp_path):
    from pathlib import Path

    config = Path(__file__).parents[1] / "configs" / "2d.yaml"
    sets = ["steps=4", "eval_size=300", "scatter=50", "device=cpu", "eval_every=2"]
    sets += ["hidden=16", "num_directions=16"]
    argv = ["run", str(config), "--run", "spiral_lejepa", "--seed", "0", "--no-progress"]
    argv += ["--out", str(tmp_path), *(f"--set={s}" for s in sets)]
    heavy = (*HEAVY, *SCIPY)
    seen = json.loads(_child(RUN.format(heavy=heavy, argv=argv)).splitlines()[-1])
    # SIGReg's kernels need Numba from the first step (and Numba scipy.linalg, for its
    # LAPACK); scipy.optimize serves only the mcc metric, from the first evaluation on;
    # scipy.special only the gennorm law; nothing draws or tabulates.
    first, end = set(seen["first step"]), set(seen["end"])
    assert {"torch", "numba"} <= first
    assert not first & {"scipy.optimize", "scipy.special", *UNUSED}
    assert "scipy.optimize" in end and not end & set(UNUSED)
