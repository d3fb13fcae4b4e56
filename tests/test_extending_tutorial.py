"""docs/extending.md is run as written: its titled code blocks (an objective, a mixing, a
latent law, a metric and the experiment YAML) are written to files and taken through
``sweep``, ``aggregate``, ``figures`` and ``report``, where the plugin objective shows with
its label, colour and lambda, after the consent the read commands ask for."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
import pytest
import torch
from matplotlib.colors import to_hex, to_rgba

from lejepa_id import plugins
from lejepa_id.config import components
from lejepa_id.encoders import stacked as encoders
from lejepa_id.errors import UsageError
from lejepa_id.metrics import registry as metric_registry
from lejepa_id.worlds import laws, mixings, transitions

DOC = Path(__file__).parents[1] / "docs" / "extending.md"
BLOCK = re.compile(r'^```(\w+) title="([^"]+)"\n(.*?)^```$', re.S | re.M)
FILES = {"decorr_objective.py", "shear_mixing.py", "triangle_law.py", "spread_metric.py"}
TINY = ["steps=30", "batch=64", "hidden=16", "eval_size=400", "eval_every=15",
        "eval_every_early=15", "scatter=300", "num_directions=16"]  # fmt: skip


def blocks() -> dict[str, str]:
    """File name -> the code of each titled block of the tutorial."""
    return {name: code for _, name, code in BLOCK.findall(DOC.read_text())}


def _registries() -> dict:
    # The built-ins first: loaded lazily, they would register into a copy and vanish.
    plugins.load_builtins()
    return {
        "objective": dict(components._REGISTERED["objective"]),
        "transitions": dict(transitions._TRANSITIONS),
        "mixings": dict(mixings._MIXINGS),
        "laws": dict(laws._LAWS),
        "encoders": dict(encoders._ENCODERS),
        "metrics": dict(metric_registry._METRICS),
    }


def _restore(monkeypatch, saved: dict) -> None:
    """The registries as ``saved`` (copies) and no plugin loaded: a fresh process's view."""
    monkeypatch.setitem(components._REGISTERED, "objective", dict(saved["objective"]))
    monkeypatch.setattr(transitions, "_TRANSITIONS", dict(saved["transitions"]))
    monkeypatch.setattr(mixings, "_MIXINGS", dict(saved["mixings"]))
    monkeypatch.setattr(laws, "_LAWS", dict(saved["laws"]))
    monkeypatch.setattr(encoders, "_ENCODERS", dict(saved["encoders"]))
    monkeypatch.setattr(metric_registry, "_METRICS", dict(saved["metrics"]))
    monkeypatch.setattr(plugins, "_LOADED", {})
    for name in [m for m in sys.modules if m.startswith("lejepa_id_plugin_")]:
        del sys.modules[name]


@pytest.fixture
def tutorial(tmp_path, monkeypatch):
    """The tutorial's files in a folder, and a function that forgets every plugin."""
    saved = _registries()
    _restore(monkeypatch, saved)
    folder = tmp_path / "mine"
    folder.mkdir()
    for name, code in blocks().items():
        (folder / name).write_text(code)
    yield folder, lambda: _restore(monkeypatch, saved)
    _restore(monkeypatch, saved)


def test_the_tutorial_has_one_file_of_each_component_and_the_yaml():
    assert set(blocks()) == FILES | {"mine.yaml"}


def test_the_tutorial_components_do_what_the_doc_says(tutorial):
    from lejepa_id.testing import check_stacking
    from lejepa_id.worlds import LatentLaw, build_mixing

    folder, _ = tutorial
    for name in sorted(FILES):
        plugins.load(str(folder / name))
    check_stacking("decorr", values={"lam": [0.2, 0.7, 0.4, 0.9]})
    from lejepa_id.config.run import make_run_config

    with pytest.raises(UsageError, match=r"lam=1\.5 must lie in \(0, 1\)"):
        make_run_config({"mode": "decorr", "lam": 1.5}).validate()
    # The law: zero mean, unit variance, within +-sqrt(6).
    z = LatentLaw("triangle").sample((200_000,), torch.Generator().manual_seed(0))
    assert abs(float(z.mean())) < 0.01 and abs(float(z.var()) - 1) < 0.01
    assert float(z.abs().max()) <= 6**0.5
    # The mixing: x0 = z0 + tanh(z1), x1 = z1.
    g = build_mixing("shear", dim=2)
    assert torch.allclose(g(torch.tensor([[0.5, -1.0]])), torch.tensor([[0.5 - 0.7616, -1.0]]),
                          atol=1e-4)  # fmt: skip


def _drawn(monkeypatch) -> dict[str, plt.Figure]:
    """Every figure ``figures`` saves, by name, kept open for the test to read."""
    from lejepa_id.analysis import ablation, beyond, bound, figures, gennorm, plotting, scaling

    drawn: dict[str, plt.Figure] = {}
    original = plotting.save

    def keep(fig, out_dir, name, caption, formats, made) -> None:
        drawn[name] = fig
        original(fig, out_dir, name, caption, formats, made)

    for module in (ablation, beyond, bound, figures, gennorm, scaling):
        monkeypatch.setattr(module, "save", keep)
    return drawn


def test_the_tutorial_runs_through_sweep_figures_and_report(tutorial, tmp_path, capsys,
                                                            monkeypatch):  # fmt: skip
    from lejepa_id.cli.main import main

    folder, forget = tutorial
    out = tmp_path / "runs"
    sets = [w for s in TINY for w in ("--set", s)]
    argv = ["sweep", str(folder / "mine.yaml"), "--out", str(out), "--jobs", "1",
            "--no-progress", "--device", "cpu", *sets]  # fmt: skip
    assert main(argv) == 0, capsys.readouterr().err
    records = [json.loads(p.read_text()) for p in (out / "mine").glob("*/result.json")]
    assert sorted(r["config"]["mode"] for r in records) == ["decorr"] * 4 + ["lejepa"] * 4
    for record in records:
        assert record["status"] == "finished" and record["config"]["law"] == "triangle"
        assert record["config"]["mixing"] == "shear" and "code_spread" in record["metrics"]
    decorr = next(r for r in records if r["config"]["mode"] == "decorr")
    assert decorr["config"]["lam"] == 0.3 and set(decorr["losses"]) >= {"covariance"}
    capsys.readouterr()

    # A read command in a fresh process knows none of the plugins: it names them, once.
    forget()
    assert main(["aggregate", str(out)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not loaded (aggregate runs no user code unless asked)" in err[0]
    assert all(str(folder / name) in err[0] for name in FILES) and "--recorded-plugins" in err[0]
    assert str(folder / "shear_mixing.py") not in plugins.loaded()
    # Unloaded, the figures still draw its runs, under the objective's raw name.
    drawn = _drawn(monkeypatch)
    assert main(["figures", str(out), "--formats", "png"]) == 0
    titles = [ax.get_title() for ax in drawn["mine_panels"].axes]
    assert any(t.startswith("decorr\n") for t in titles), titles
    assert "not loaded (figures runs no user code" in capsys.readouterr().err

    # With consent they are loaded: the table, the figures and the report know them.
    forget()
    assert main(["aggregate", str(out), "--recorded-plugins"]) == 0
    assert "not loaded" not in capsys.readouterr().err
    table = pd.read_csv(out / "runs.csv")
    assert "code_spread" in table.columns
    assert set(table.loc[table["mode"] == "decorr", "lam"]) == {0.3}

    forget()
    drawn = _drawn(monkeypatch)
    assert main(["figures", str(out), "--recorded-plugins", "--formats", "png"]) == 0
    olive = to_rgba("tab:olive")
    panels = drawn["mine_panels"]
    titles = [ax.get_title() for ax in panels.axes]
    assert any(t.startswith("SIGReg (LeJEPA)") for t in titles)
    assert any(t.startswith("Decorrelation (mine)") for t in titles)
    # The plugin mixing is a row of the panels, named as registered; the scaling table
    # and figure name it and set no paper value (of the coupling world) beside its runs.
    assert "shear" in {ax.get_ylabel() for ax in panels.axes}
    assert "(paper)" not in (out / "figures" / "mine_table.md").read_text()
    # The scaling figure draws it in its colour, the tables give it a column and a table.
    lines = [ln for ax in drawn["scaling_r2_vs_n"].axes for ln in ax.get_lines()]
    assert any(to_rgba(ln.get_color()) == olive for ln in lines)
    assert "Decorrelation" in (out / "figures" / "mine_table.md").read_text().splitlines()[0]
    index = json.loads((out / "figures" / "figures_index.json").read_text())
    (table,) = [t for t in index["tables"] if t["name"] == "tab_scaling_decorr"]
    assert "Decorrelation (mine)" in table["caption"] and "mixing shear" in table["caption"]
    (figure,) = [f for f in index["figures"] if f["name"] == "scaling_r2_vs_n"]
    assert "mixing shear" in figure["caption"] and "dashed" not in figure["caption"]
    tex = (out / "figures" / table["tex"]).read_text()
    assert r"\begin{tabular}" in tex and "Decorrelation (mine)" in tex
    losses = drawn["scatter_losses_r2"]
    labels = {ax.get_ylabel() for ax in losses.axes} | {ax.get_xlabel() for ax in losses.axes}
    assert "R²(h → z), Decorrelation" in labels and "final covariance" in labels
    capsys.readouterr()

    forget()
    assert main(["report", str(out), "--recorded-plugins"]) == 0
    page = (out / "report.html").read_text()
    assert "Decorrelation (mine)" in page and "var(h)" in page
    # The results table: the run's objective by its label, its law and its lambda.
    rows = re.findall(r"<tr[^>]*><td>mine</td><td>shear_decorr</td>(.*?)</tr>", page)
    cells = [re.findall(r"<td>(.*?)</td>", row)[:5] for row in rows]
    assert cells == [["Decorrelation (mine)", "triangle", "", str(n), "0.3"] for n in (2, 4)]
    # The training curves' legend in the objective's colour.
    assert f"color:{to_hex(olive)}" in page
    plt.close("all")


def test_config_show_runs_the_files_plugins_only_with_consent(tutorial, capsys):
    from lejepa_id.cli.main import main

    folder, _ = tutorial
    argv = ["config", "show", str(folder / "mine.yaml")]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "config show runs no user code unless asked" in err[0]
    assert main([*argv, "--recorded-plugins"]) == 0
    shown = capsys.readouterr().out
    assert "mode: decorr" in shown and "law: triangle" in shown and "mixing: shear" in shown
