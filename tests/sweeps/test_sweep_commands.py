"""The report's "Commands that made it": the sweeps sweep.json recorded, printed so that
running them again trains the same runs (every --set as given, the config a rerun can
find, the plugins), tested by parsing the printed line and running it into a new folder."""

from __future__ import annotations

import html
import json
import os
import shlex
from pathlib import Path

import pandas as pd

from lejepa_id.analysis.table import collect
from lejepa_id.cli.main import build_parser, main
from lejepa_id.config.experiments import load_experiment
from lejepa_id.sweeps.state import read_manifest, rerun_commands

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
TINY = ["steps=4", "eval_size=200", "scatter=0", "hidden=16", "num_directions=16"]
SETS = ["runs=[spiral_lejepa, spiral_whiten]", "seeds=[0]", *TINY]
# In this process (--jobs 1): the printed command is what these tests are about, not the pool.
ARGS = [w for s in SETS for w in ("--set", s)] + ["--no-progress", "--device", "cpu", "--jobs", "1"]

USER_CONFIG = """\
name: mine
defaults: {dim: 2, rho: 0.9, batch: 64, lr: 3.0e-3}
runs:
  a: {mixing: spiral, mode: lejepa, lam: 1.0e-3}
  b: {mixing: banana, mode: whiten, lam: 0.5}
  c: {mixing: spiral, mode: barlow}
seeds: [1, 2, 3]
"""


def _printed(out: Path, experiment: str) -> list[str]:
    return rerun_commands(read_manifest(out / experiment) or {}, out)


def _parsed_run_ids(line: str) -> list[str]:
    """The run ids the printed command plans, read the way `lejepa-id` reads its argv."""
    words = shlex.split(line)
    assert words[0] == "lejepa-id"
    args = build_parser().parse_args(words[1:])
    sets = list(args.sets) + ([f"device={args.device}"] if args.device else [])
    return sorted(s.run_id for s in load_experiment(args.config, sets).expand())


def _trained(out: Path, experiment: str) -> list[str]:
    return sorted(p.parent.name for p in (out / experiment).glob("*/result.json"))


def test_a_shipped_config_prints_its_name_and_every_set(tmp_path: Path, capsys) -> None:
    out = tmp_path / "runs"
    assert main(["sweep", "2d", "--out", str(out), *ARGS]) == 0
    (line,) = _printed(out, "2d")
    assert line.startswith(f"lejepa-id sweep 2d --out {out} ")
    # The run list is what a rerun got wrong: without it the file's 8 runs x 3 seeds train.
    assert "--set 'runs=[spiral_lejepa, spiral_whiten]'" in line
    assert _parsed_run_ids(line) == _trained(out, "2d")
    assert _trained(out, "2d") == ["spiral_lejepa-seed0", "spiral_whiten-seed0"]
    # The report prints the same line among its commands.
    assert main(["report", str(out)]) == 0
    capsys.readouterr()
    assert html.escape(line) in (out / "report.html").read_text()


def test_a_user_config_with_a_plugin_reruns_into_a_new_folder(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    config = tmp_path / "configs" / "mine.yaml"
    config.parent.mkdir()
    config.write_text(USER_CONFIG)
    plugin = str(PLUGINS / "barlow_objective.py")
    # Run from the config's folder, naming it relatively: the line must name the real file.
    monkeypatch.chdir(config.parent)
    out = tmp_path / "first"
    sets = ["runs=[a, c]", "seeds=[0]", *TINY]
    argv = [w for s in sets for w in ("--set", s)] + ["--no-progress", "--device", "cpu"]
    argv += ["--jobs", "1"]
    assert main(["sweep", "mine.yaml", "--out", str(out), "--plugin", plugin, *argv]) == 0
    (line,) = _printed(out, "mine")
    words = shlex.split(line)
    assert words[2] == str(config.resolve())
    assert words[words.index("--plugin") + 1] == plugin
    assert _parsed_run_ids(line) == _trained(out, "mine") == ["a-seed0", "c-seed0"]
    # Rerun, as printed, from another folder and into a new one: the same runs, the same
    # table.
    monkeypatch.chdir(tmp_path)
    again = tmp_path / "again"
    words[words.index("--out") + 1] = str(again)
    assert main(words[1:]) == 0
    capsys.readouterr()
    first, second = (collect(o).frame for o in (out, again))
    keep = [c for c in first.columns if c not in ("path", "wall_time_s", "steps_per_s")]
    keep = [c for c in keep if not c.startswith(("time", "created"))]
    order = ["run_id"]
    pd.testing.assert_frame_equal(
        first[keep].sort_values(order).reset_index(drop=True),
        second[keep].sort_values(order).reset_index(drop=True),
    )


def test_each_sweep_into_one_folder_is_printed_in_order(tmp_path: Path, capsys) -> None:
    out = tmp_path / "runs"
    common = [w for s in TINY for w in ("--set", s)] + ["--no-progress", "--device", "cpu"]
    common += ["--jobs", "1"]
    first = ["--set", "runs=[spiral_lejepa]", "--set", "seeds=[0]", *common]
    second = ["--set", "runs=[spiral_lejepa]", "--set", "seeds=[1]", *common]
    for argv in (first, second, first):  # the repeat adds no line
        assert main(["sweep", "2d", "--out", str(out), *argv]) == 0
    lines = _printed(out, "2d")
    assert len(lines) == 2 and "'seeds=[0]'" in lines[0] and "'seeds=[1]'" in lines[1]
    assert sorted(i for line in lines for i in _parsed_run_ids(line)) == _trained(out, "2d")
    assert json.loads((out / "2d" / "sweep.json").read_text())["commands"][0]["config"] == "2d"
    capsys.readouterr()


def _page_commands(page: Path) -> list[str]:
    """The lines of the page's "Commands that made it"."""
    text = page.read_text()
    start = text.index("Commands that made it</summary><pre>") + len(
        "Commands that made it</summary><pre>"
    )
    return html.unescape(text[start : text.index("</pre>", start)]).splitlines()


def test_every_printed_command_of_a_plugin_sweep_reruns_as_is(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """Sweep with a plugin objective, report with the recorded plugins' consent; then run
    the page's commands, as printed but for the folder, from another working folder: the
    same runs, and a report that again loads the plugins (so prints the flag again)."""
    config = tmp_path / "configs" / "mine.yaml"
    config.parent.mkdir()
    config.write_text(USER_CONFIG)
    monkeypatch.chdir(config.parent)
    out = tmp_path / "first"
    sets = ["runs=[a, c]", "seeds=[0]", *TINY]
    argv = [w for s in sets for w in ("--set", s)] + ["--no-progress", "--device", "cpu"]
    # Named relatively, as a user in the config's folder would: printed as the real file.
    plugin = os.path.relpath(PLUGINS / "barlow_objective.py", config.parent)
    assert main(["sweep", "mine.yaml", "--out", str(out), "--plugin", plugin, *argv]) == 0
    assert main(["report", str(out), "--recorded-plugins", "--plugin", plugin]) == 0
    printed = _page_commands(out / "report.html")
    assert len(printed) == 2
    sweep_line, report_line = printed
    assert "--plugin" in shlex.split(sweep_line)
    words = shlex.split(report_line)
    assert words[:3] == ["lejepa-id", "report", str(out)]
    assert "--recorded-plugins" in words
    assert words[words.index("--plugin") + 1] == str(PLUGINS / "barlow_objective.py")
    # Rerun every line as printed, the folder replaced, from elsewhere.
    monkeypatch.chdir(tmp_path)
    again = tmp_path / "again"
    for line in printed:
        rerun = [str(again) if w == str(out) else w for w in shlex.split(line)]
        assert main(rerun[1:]) == 0
    capsys.readouterr()
    first, second = (collect(o).frame for o in (out, again))
    keep = [c for c in first.columns if c not in ("path", "wall_time_s", "steps_per_s")]
    keep = [c for c in keep if not c.startswith(("time", "created"))]
    pd.testing.assert_frame_equal(
        first[keep].sort_values(["run_id"]).reset_index(drop=True),
        second[keep].sort_values(["run_id"]).reset_index(drop=True),
    )
    assert [
        line.replace(str(again), str(out)) for line in _page_commands(again / "report.html")
    ] == printed
