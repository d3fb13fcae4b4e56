"""--version, shell completion, config show, --set hints and the sweep bar's text."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from lejepa_id import __version__
from lejepa_id.cli.completion import script
from lejepa_id.cli.main import build_parser, main
from lejepa_id.config.experiments import load_experiment
from lejepa_id.sweeps.plan import Group
from lejepa_id.sweeps.runner import ProgressBar

CONFIG = str(Path(__file__).parents[1] / "configs" / "2d.yaml")


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out == f"lejepa-id {__version__}\n"


def _complete(shell: str, words: list[str], tmp_path: Path) -> list[str]:
    """What the generated script offers for the last word, as the shell calls it."""
    path = tmp_path / f"completion.{shell}"
    path.write_text(script(shell, build_parser()))
    quoted = " ".join(f"'{w}'" for w in words)
    body = (
        f"source {path}; COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; "
        '_lejepa_id; echo "${COMPREPLY[*]}"'
    )
    if shell == "zsh":
        # zsh's bashcompinit runs a bash completion function with ksharrays set.
        cmd = ["zsh", "-f", "-c", "setopt ksharrays; " + body]
    else:
        cmd = ["bash", "--norc", "-c", body]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, check=True)
    assert done.stderr == ""
    # bash's compgen filters by the typed prefix; zsh's emulation leaves that to zsh.
    return [w for w in done.stdout.split() if w.startswith(words[-1])]


@pytest.mark.parametrize(
    "words, expected",
    [
        (["lejepa-id", "ru"], ["run"]),
        (["lejepa-id", "run", "--dev"], ["--device"]),
        (["lejepa-id", "run", "--device", ""], ["auto", "cpu", "cuda"]),
        (["lejepa-id", "sweep", "--logger", ""], ["csv", "tensorboard", "wandb"]),
        (["lejepa-id", "reacher", "render", ""], ["eval", "ou", "traj", "trajmatch"]),
        (["lejepa-id", "config", "show", "--r"], ["--run", "--recorded-plugins"]),
        (["lejepa-id", "completion", ""], ["bash", "zsh"]),
    ],
)
@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_script_completes_commands_options_and_choices(shell, words, expected, tmp_path):
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed (scripts/setup.sh --all installs it)")
    assert _complete(shell, words, tmp_path) == expected


def test_completion_command_prints_the_script(capsys):
    assert main(["completion", "bash"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# bash completion for lejepa-id") and "complete " in out
    assert main(["completion", "zsh"]) == 0
    assert "bashcompinit" in capsys.readouterr().out


def test_config_show_prints_the_resolved_runs(capsys):
    args = ["config", "show", CONFIG, "--run", "spiral_lejepa", "--set", "steps=2e3"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("# 3 runs of ")
    shown = yaml.safe_load(out)
    assert shown["experiment"] == "2d"
    assert list(shown["runs"]) == [f"spiral_lejepa-seed{s}" for s in (1337, 1338, 1339)]
    run = shown["runs"]["spiral_lejepa-seed1337"]
    exp = load_experiment(CONFIG, ["steps=2e3"], only="spiral_lejepa")
    assert run == exp.expand()[0].config.to_dict() and run["steps"] == 2000
    assert main(["config", "show", CONFIG, "--run", "spiral_lejepa", "--seed", "5"]) == 0
    assert list(yaml.safe_load(capsys.readouterr().out)["runs"]) == ["spiral_lejepa-seed5"]
    assert main(["config", "show", CONFIG]) == 0
    assert len(yaml.safe_load(capsys.readouterr().out)["runs"]) == 24


@pytest.mark.parametrize(
    "sets, message",
    [
        (
            ["lambs=1e-3,1e-2"],
            "lambs='1e-3,1e-2' is one string, not a list; write a YAML list, [1e-3, 1e-2] "
            "(quoted on a command line: --set 'lambs=[1e-3, 1e-2]')",
        ),
        (["lam=1e-3,1e-2"], "to sweep lam set the axis lambs: write a YAML list, [1e-3, 1e-2]"),
        (["seeds=1,2"], "seeds='1,2' is one string, not a list"),
        (["steps=2000.5"], "steps=2000.5 must be an integer"),
        (["steps=2.5e-3"], "steps=0.0025 must be an integer"),
        (["steps=ten"], "steps='ten' must be an integer"),
    ],
)
def test_set_mistakes_are_named_with_a_hint(sets, message, tmp_path, capsys):
    args = [a for s in sets for a in ("--set", s)]
    assert (
        main(
            ["run", CONFIG, "--run", "spiral_lejepa", "--seed", "0", "--out", str(tmp_path), *args]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert list(tmp_path.iterdir()) == []


def test_integral_float_spellings_are_integers():
    exp = load_experiment(CONFIG, ["steps=2e3", "batch=1.28e2"], only="spiral_lejepa")
    cfg = exp.run_config("spiral_lejepa")
    assert (cfg.steps, cfg.batch) == (2000, 128)
    assert isinstance(cfg.steps, int)


def test_sweep_bar_is_not_complete_while_runs_are_running():
    specs = load_experiment(CONFIG, ["seeds=[0,1]"], only="spiral_lejepa").expand()
    group = Group(0, specs)
    bar = ProgressBar([group], total_runs=2, done_runs=0, enabled=True)
    bar.started(group)
    bar.advanced(0, specs[0].config.steps)  # the last evaluation: every step done
    text = str(bar.bar)
    assert "sweep  98%" in text and "runs 0/2 done, 2 running" in text, text
    bar.finished(group, {s.run_id: "finished" for s in specs})
    text = str(bar.bar)
    assert "sweep 100%" in text and "runs 2/2 done, 0 running" in text, text
    bar.close()


def test_no_help_text_has_a_line_joined_by_a_stray_backslash():
    # "... --data-root data/reacher \" in a plain string joined the next line onto it,
    # indentation included: "data/reacher       --out" in `reacher --help`.
    import argparse
    import re

    from lejepa_id.cli.main import build_parser

    def parsers(parser):
        yield parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for child in action.choices.values():
                    yield from parsers(child)

    joined = re.compile(r"\S {3,}--")
    found = [
        f"{p.prog}: {line.strip()}"
        for p in parsers(build_parser())
        for line in p.format_help().splitlines()
        if joined.search(line)
    ]
    assert found == []
    assert joined.search("data/reacher       --out runs") is not None
