"""A user's objective, encoder and transition, one file each (tests/plugins/), used through
the Python API and through ``lejepa-id sweep --plugin``; the stacking checker on them."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import torch

from lejepa_id import RunConfig, plugins, train
from lejepa_id.config import components
from lejepa_id.config.run import make_run_config
from lejepa_id.encoders import stacked as encoders
from lejepa_id.errors import UsageError
from lejepa_id.metrics import registry as metric_registry
from lejepa_id.objectives import Objective, register_objective
from lejepa_id.testing import StackingError, check_stacking
from lejepa_id.worlds import laws, mixings, transitions

PLUGINS = Path(__file__).parent / "plugins"
FILES = [PLUGINS / f for f in ("barlow_objective.py", "tanh_encoder.py", "hops_transition.py")]
TINY = dict(steps=30, batch=64, hidden=16, eval_size=400, eval_every=15, eval_every_early=15)


@pytest.fixture
def isolated(monkeypatch):
    """Every registry and the plugin cache as copies, restored after the test."""
    objectives_now = dict(components._REGISTERED["objective"])
    monkeypatch.setitem(components._REGISTERED, "objective", objectives_now)
    monkeypatch.setattr(transitions, "_TRANSITIONS", dict(transitions._TRANSITIONS))
    monkeypatch.setattr(mixings, "_MIXINGS", dict(mixings._MIXINGS))
    monkeypatch.setattr(laws, "_LAWS", dict(laws._LAWS))
    monkeypatch.setattr(encoders, "_ENCODERS", dict(encoders._ENCODERS))
    monkeypatch.setattr(encoders, "_COSTS", dict(encoders._COSTS))
    monkeypatch.setattr(encoders, "_SHAPES", dict(encoders._SHAPES))
    monkeypatch.setattr(metric_registry, "_METRICS", dict(metric_registry._METRICS))
    monkeypatch.setattr(plugins, "_LOADED", {})
    yield
    for name in [m for m in sys.modules if m.startswith("lejepa_id_plugin_")]:
        del sys.modules[name]


def test_each_objective_owns_its_defaults(isolated):
    plugins.load_all([str(f) for f in FILES])
    assert RunConfig(mode="lejepa").lam == 1e-3
    assert RunConfig(mode="whiten").lam == 0.5
    assert RunConfig(mode="barlow").lam == 5e-3
    # A record carries its own objective's keys only, at that objective's default.
    assert RunConfig(mode="barlow").to_dict()["lam"] == 5e-3
    assert "sigma" not in RunConfig(mode="barlow").to_dict()
    # A qualified key sets one objective's value; the flat one the selected objective's.
    shared = {"whiten.lam": 0.25, "barlow.lam": 0.02}
    assert make_run_config({"mode": "whiten", **shared}).lam == 0.25
    assert make_run_config({"mode": "barlow", **shared}).lam == 0.02
    assert make_run_config({"mode": "lejepa", **shared}).lam == 1e-3
    with pytest.raises(UsageError, match="barlow.lam=0.0"):
        make_run_config({"mode": "lejepa", "barlow.lam": 0.0})


def test_plugin_components_train_through_the_python_api(isolated):
    plugins.load_all([str(f) for f in FILES])
    cfg = RunConfig(**TINY, mode="barlow", encoder="tanh1", transition="hops", hops=3, seed=1)
    result = train(cfg.validate(), progress=False)
    record = result.to_dict()["config"]
    assert record["mode"] == "barlow" and record["lam"] == 5e-3 and record["hops"] == 3
    assert result.status == "finished" and set(result.losses) >= {"invariance", "redundancy"}
    # The transition's own key reaches the world: Theorem 3's rho is rho^hops, in the
    # world the config builds and in the bound the run reports.
    from lejepa_id.worlds.build import world_for

    r = cfg.rho**3
    world = world_for(cfg)
    assert world.transition.hops == 3 and world.bound_rho() == pytest.approx(r, rel=1e-12)
    m = result.metrics
    assert m["D_bound"] == pytest.approx(m["delta"] / (2 * r * (1 - r)), rel=1e-9)
    assert m["approx_bound"] == pytest.approx(
        m["D_bound"] + (m["epsilon"] + m["D_bound"]) ** 2, rel=1e-9
    )
    with pytest.raises(UsageError, match="hops=0 must be >= 1"):
        make_run_config({"transition": "hops", "hops": 0})
    with pytest.raises(UsageError, match="hops=2 is a key of transition hops only, not ou"):
        make_run_config({"hops": 2})
    # The encoder's cost is measured from its weights when it gives none.
    cost = encoders.encoder_cost(cfg)
    assert cost.weights == 2 * 16 + 16 + 16 * 2
    # Its own key (width) is a config key in its namespace, read by its builder, recorded,
    # and refused for another encoder.
    narrow = make_run_config({"encoder": "tanh1", "width": 8})
    assert narrow.width == 8 and narrow.to_dict()["width"] == 8
    assert encoders.encoder_cost(narrow).weights == 2 * 8 + 8 + 8 * 2
    assert make_run_config({"encoder": "tanh1", "tanh1.width": 4}).encoder_options["width"] == 4
    with pytest.raises(UsageError, match="width=8 is a key of encoder tanh1 only, not mlp"):
        make_run_config({"width": 8})


def test_a_missing_or_broken_plugin_is_one_line(isolated, tmp_path):
    with pytest.raises(UsageError, match="no such file"):
        plugins.load(str(tmp_path / "nope.py"))
    bad = tmp_path / "bad.py"
    bad.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(UsageError, match="failed to import: RuntimeError: boom"):
        plugins.load(str(bad))
    with pytest.raises(UsageError, match="no module named 'not_a_module_xyz'"):
        plugins.load("not_a_module_xyz")


HIJACKS = {
    "objective": (
        "lejepa",
        "from dataclasses import dataclass\n"
        "from lejepa_id.objectives import Objective, register_objective\n"
        "@register_objective('lejepa'{extra})\n"
        "@dataclass(frozen=True)\n"
        "class Fake(Objective):\n"
        "    def loss(self, H, draw=None, generator=None, **kw):\n"
        "        return H.pow(2).mean((-3, -2, -1)), {{}}\n",
    ),
    "encoder": (
        "mlp",
        "from lejepa_id.encoders.stacked import StackedMLP, register_encoder\n"
        "@register_encoder('mlp'{extra})\n"
        "def fake(obs_dim, code_dim, seeds, **options):\n"
        "    return StackedMLP(obs_dim, seeds, 4, 1, code_dim)\n",
    ),
    "transition": (
        "ou",
        "from lejepa_id.worlds.transitions import OU, register_transition\n"
        "@register_transition('ou'{extra})\n"
        "class Fake(OU):\n"
        "    pass\n",
    ),
    "mixing": (
        "spiral",
        "from lejepa_id.worlds import register_mixing\n"
        "@register_mixing('spiral'{extra})\n"
        "def fake(dim, **_):\n"
        "    return lambda z: 2 * z\n",
    ),
}


@pytest.mark.parametrize("kind", sorted(HIJACKS))
def test_a_plugin_cannot_silently_replace_a_built_in(isolated, tmp_path, capsys, kind):
    from lejepa_id.cli.main import main

    name, source = HIJACKS[kind]
    plugin = tmp_path / "hijack.py"
    plugin.write_text(source.format(extra=""))
    out = tmp_path / "out"
    argv = ["run", str(Path(__file__).parents[1] / "configs" / "2d.yaml"), "--run",
            "spiral_lejepa", "--seed", "0", "--out", str(out), "--no-progress",
            "--plugin", str(plugin), "--set", "steps=2"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{kind} {name!r} is registered twice" in err[0]
    assert "by built-in lejepa_id." in err[0] and f"by plugin {plugin}" in err[0]
    assert not out.exists()
    # A replacement that says so is taken.
    meant = tmp_path / "meant.py"
    meant.write_text(source.format(extra=", override=True"))
    module = plugins.load(str(meant))
    table = {
        "objective": lambda: components._REGISTERED["objective"][name],
        "encoder": lambda: encoders._ENCODERS[name],
        "transition": lambda: transitions._TRANSITIONS[name],
        "mixing": lambda: mixings._MIXINGS[name],
    }
    assert table[kind]() is getattr(module, "Fake", getattr(module, "fake", None))


def test_a_plugin_metric_under_a_built_in_name_is_refused_naming_both(isolated, tmp_path):
    plugin = tmp_path / "metric.py"
    plugin.write_text(
        "from lejepa_id.metrics.registry import register_metric\n"
        "@register_metric('r2_hz', 'R2', 'not the real one')\n"
        "def fake(moments):\n"
        "    return moments\n"
    )
    with pytest.raises(UsageError, match="metric 'r2_hz' is registered twice") as caught:
        plugins.load(str(plugin))
    assert "by built-in lejepa_id.metrics." in str(caught.value)
    assert f"by plugin {plugin}" in str(caught.value)


def test_two_plugins_claiming_one_name_are_refused_naming_both(isolated, tmp_path):
    plugins.load(str(FILES[0]))
    twin = tmp_path / "twin.py"
    twin.write_text((PLUGINS / "barlow_objective.py").read_text())
    with pytest.raises(UsageError, match="registered twice") as caught:
        plugins.load(str(twin))
    assert f"plugin {FILES[0]}" in str(caught.value) and f"plugin {twin}" in str(caught.value)
    # The same file loaded afresh (its module imported again) is no conflict.
    plugins._LOADED.clear()
    plugins.load(str(FILES[0]))


def _sweep(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    return subprocess.run(
        [sys.executable, "-m", "lejepa_id", "sweep", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


YAML = """name: mine
defaults: {steps: 30, batch: 64, hidden: 16, eval_size: 400, eval_every: 15,
           eval_every_early: 15, transition: hops, hops: 3, encoder: tanh1}
runs:
  barlow: {mode: barlow}
  lejepa: {mode: lejepa}
seeds: [0, 1]
"""


@pytest.mark.slow
def test_plugin_components_run_through_sweep_with_spawned_workers(tmp_path):
    cfg = tmp_path / "mine.yaml"
    cfg.write_text(YAML)
    flags = [a for f in FILES for a in ("--plugin", str(f))]
    # Two spawned workers: each must load the plugins again before training.
    done = _sweep(
        [str(cfg), "--out", str(tmp_path / "out"), "--jobs", "2", "--no-progress", *flags], tmp_path
    )
    assert done.returncode == 0, done.stderr
    runs = sorted((tmp_path / "out" / "mine").glob("*/result.json"))
    assert len(runs) == 4
    records = {p.parent.name: json.loads(p.read_text())["config"] for p in runs}
    assert records["barlow-seed0"]["lam"] == 5e-3 and records["lejepa-seed0"]["lam"] == 1e-3
    assert all(r["hops"] == 3 and r["encoder"] == "tanh1" for r in records.values())
    # Without the plugins the config names unknown components: one line, exit 2.
    bare = _sweep([str(cfg), "--out", str(tmp_path / "out2"), "--no-progress"], tmp_path)
    assert bare.returncode == 2 and len(bare.stderr.strip().splitlines()) == 1
    assert "unknown config key 'hops'" in bare.stderr and "--plugin" in bare.stderr


@pytest.mark.slow
def test_a_yaml_file_can_name_its_plugins(tmp_path):
    cfg = tmp_path / "mine.yaml"
    listed = ", ".join(json.dumps(os.path.relpath(f, tmp_path)) for f in FILES)
    cfg.write_text(YAML.replace("seeds: [0, 1]", "seeds: [0]") + f"plugins: [{listed}]\n")
    done = _sweep(
        [str(cfg), "--out", str(tmp_path / "out"), "--jobs", "1", "--no-progress"], tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "out" / "mine").glob("*/result.json"))) == 2


@dataclass(frozen=True)
class BarlowBug(Objective):
    """The README mistake: ``lam * off`` with lam (R,) and off (R, m, m)."""

    lam: float = 5e-3
    views = 2
    per_run = ("lam",)

    def loss(self, H, draw=None, generator=None, **per_run):
        from barlow_objective import cross_correlation

        lam = torch.as_tensor(self.value("lam", per_run), dtype=H.dtype)
        C = cross_correlation(H)
        eye = torch.eye(C.shape[-1], dtype=C.dtype)
        on = ((1 - C) * eye).pow(2).sum((-2, -1))
        off = (lam * (C * (1 - eye)).pow(2)).sum((-2, -1))
        return on + off, {"invariance": on.detach(), "redundancy": off.detach()}


def test_stacking_checker_passes_correct_objectives_and_catches_the_broadcast_bug(
    isolated, monkeypatch
):
    plugins.load(str(FILES[0]))
    for name in ("lejepa", "whiten", "infonce", "barlow"):
        check_stacking(name)
    monkeypatch.syspath_prepend(str(PLUGINS))
    register_objective("barlow_bug")(BarlowBug)
    # R = m = 3: the wrong broadcast runs without an error and gives other numbers.
    with pytest.raises(StackingError, match="R = 3 stacked members"):
        check_stacking("barlow_bug", code_dim=3)


MARKED = (
    "import pathlib\n"
    "pathlib.Path(__file__).with_suffix('.ran').write_text('x')\n"
    "from lejepa_id.worlds.transitions import OU, register_transition\n"
    "@register_transition('hops_marked')\n"
    "class Marked(OU):\n"
    "    pass\n"
)


@pytest.mark.parametrize("command", ["config show", "sweep --dry-run"])
def test_commands_that_only_show_never_run_a_listed_plugin(isolated, tmp_path, capsys, command):
    from lejepa_id.cli.main import main

    plugin = tmp_path / "marked.py"
    plugin.write_text(MARKED)
    cfg = tmp_path / "mine.yaml"
    cfg.write_text(
        "name: mine\ndefaults: {steps: 4, transition: hops_marked}\n"
        "runs:\n  a: {mode: lejepa}\nseeds: [0]\nplugins: [marked.py]\n"
    )
    argv = {
        "config show": ["config", "show", str(cfg)],
        "sweep --dry-run": ["sweep", str(cfg), "--out", str(tmp_path / "out"), "--dry-run"],
    }[command]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{command} runs no user code unless asked" in err[0]
    assert f"--plugin {plugin}" in err[0]
    assert not plugin.with_suffix(".ran").exists() and not (tmp_path / "out").exists()
    # Asked for by --plugin, it runs.
    assert main([*argv, "--plugin", str(plugin)]) == 0
    shown = {"config show": "transition: hops_marked", "sweep --dry-run": "1 to train"}
    assert plugin.with_suffix(".ran").exists() and shown[command] in capsys.readouterr().out


def test_installed_plugins_load_only_for_commands_that_train(isolated, tmp_path, monkeypatch):
    import importlib.metadata

    from lejepa_id.cli.main import main

    (tmp_path / "installed_marker.py").write_text(MARKED)
    monkeypatch.syspath_prepend(str(tmp_path))
    entry = importlib.metadata.EntryPoint("m", "installed_marker", plugins.ENTRY_POINT_GROUP)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [entry])
    ran = tmp_path / "installed_marker.ran"
    cfg = str(Path(__file__).parents[1] / "configs" / "2d.yaml")
    for argv in (
        ["aggregate", str(tmp_path)],
        ["report", str(tmp_path)],
        ["figures", str(tmp_path)],
        ["curves", str(tmp_path)],
        ["config", "show", cfg],
        ["sweep", cfg, "--out", str(tmp_path / "o"), "--dry-run"],
    ):
        main(argv)
        assert not ran.exists(), argv
    main(["run", cfg, "--run", "nope", "--seed", "0", "--out", str(tmp_path / "o")])
    assert ran.exists()
    sys.modules.pop("installed_marker", None)


def test_a_record_keeps_its_plugins_hash_and_a_changed_plugin_is_not_resumed(
    isolated, tmp_path, capsys
):
    from lejepa_id.cli.main import main

    plugin = tmp_path / "kept.py"
    plugin.write_text(MARKED.replace("hops_marked", "hops_kept"))
    cfg = tmp_path / "mine.yaml"
    cfg.write_text(
        "name: mine\ndefaults: {steps: 4, batch: 32, hidden: 8, eval_size: 200, eval_every: 2,"
        " eval_every_early: 2, scatter: 20, transition: hops_kept}\n"
        "runs:\n  a: {mode: lejepa}\nseeds: [0, 1]\nplugins: [kept.py]\n"
    )
    out = tmp_path / "out"
    argv = ["sweep", str(cfg), "--out", str(out), "--jobs", "1", "--no-progress"]
    assert main([*argv, "--set", "seeds=[0]"]) == 0
    record = json.loads((out / "mine" / "a-seed0" / "result.json").read_text())
    digest = hashlib.sha256(plugin.read_bytes()).hexdigest()
    assert record["plugins"] == {str(plugin): digest}
    capsys.readouterr()
    plugin.write_text(plugin.read_text() + "# changed\n")
    plugins._LOADED.clear()
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"trained with plugin {plugin} of sha256 {digest[:12]}" in err[0]
    assert not (out / "mine" / "a-seed1").exists()


@pytest.mark.parametrize("code", ["3", "0", "'bye'"])
def test_a_plugin_calling_sys_exit_is_one_line_not_the_commands_exit(
    isolated, tmp_path, capsys, code
):
    from lejepa_id.cli.main import main

    plugin = tmp_path / "quits.py"
    plugin.write_text(f"import sys\nsys.exit({code})\n")
    cfg = str(Path(__file__).parents[1] / "configs" / "2d.yaml")
    out = tmp_path / "out"
    argv = ["run", cfg, "--run", "spiral_lejepa", "--seed", "0", "--out", str(out),
            "--plugin", str(plugin)]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"called sys.exit({code}) while it was imported" in err[0]
    assert not out.exists() and str(plugin) not in plugins.loaded()


SWIRL = PLUGINS / "swirl_mixing.py"
CONFIG_2D = Path(__file__).parents[1] / "configs" / "2d.yaml"
CLI_TINY = ["--set", "steps=4", "--set", "eval_size=200", "--set", "scatter=0",
            "--set", "hidden=16", "--set", "num_directions=16", "--no-progress",
            "--device", "cpu"]  # fmt: skip


def _cli(command: str, out: Path, plugin: Path, *sets: str) -> list[str]:
    argv = [command, str(CONFIG_2D), "--out", str(out), "--plugin", str(plugin), *CLI_TINY]
    argv += [w for s in sets for w in ("--set", s)]
    if command == "run":
        return argv + ["--run", "spiral_lejepa", "--seed", "0"]
    return argv + ["--set", "runs=[spiral_lejepa, spiral_whiten]", "--set", "seeds=[0]"]


@pytest.mark.parametrize("command", ["run", "sweep"])
def test_a_plugin_mixing_is_a_config_value_for_run_and_sweep(isolated, tmp_path, capsys, command):
    from lejepa_id.cli.main import main

    out = tmp_path / "out"
    assert main(_cli(command, out, SWIRL, "mixing=swirl")) == 0
    records = [json.loads(p.read_text()) for p in (out / "2d").glob("*/result.json")]
    assert len(records) == (1 if command == "run" else 2)
    for record in records:
        assert record["config"]["mixing"] == "swirl" and record["status"] == "finished"
        assert str(SWIRL) in record["plugins"]
    # The world the record names is the plugin's: x of the first latents is the swirl's.
    from lejepa_id.worlds.build import world_for

    world = world_for(make_run_config(records[0]["config"]))
    z = torch.tensor([[0.5, -1.0]])
    assert torch.allclose(world.render(z), plugins.load(str(SWIRL)).Swirl(0.75)(z))
    capsys.readouterr()


def test_an_unknown_mixing_names_the_registered_ones_and_plugins(isolated):
    with pytest.raises(UsageError, match="mixing='swirl' is not one of spiral, banana") as caught:
        make_run_config({"mixing": "swirl"}).validate()
    assert "--plugin" in str(caught.value)
    plugins.load(str(SWIRL))
    assert make_run_config({"mixing": "swirl"}).validate().mixing == "swirl"
    with pytest.raises(UsageError, match="swirl mixing needs an even dim"):
        from lejepa_id.worlds.build import world_for

        world_for(make_run_config({"mixing": "swirl", "dim": 3}).validate())


BAD_MIXINGS = {
    "wrong_shape": ("return lambda z: z.sum(-1)", r"mapped latents of shape \(2, 8, 2\)"),
    "collapsed": (
        "return lambda z: (z[..., :1] + z[..., 1:]).expand(z.shape)",
        "sends 16 probe latents into 1 dimension of x; an invertible mixing of 2 latents",
    ),
    "even": ("return lambda z: z * z", "maps a latent z and -z to the same x"),
    "fails": ("raise ValueError('no weights')", "failed to build for dim=2: ValueError: no"),
    "not_callable": ("return 3", "built a int; it must return an nn.Module or a callable"),
    "too_wide": (
        "return lambda z: torch.cat([z, z[..., :1]], -1)",
        "maps dim=2 latents to 3 observed dimensions but the run has obs_dim=None; set obs_dim=3",
    ),
}


@pytest.mark.parametrize(
    "command, case",
    [("run", c) for c in sorted(BAD_MIXINGS)] + [("sweep", "collapsed"), ("sweep", "fails")],
)
def test_a_bad_plugin_mixing_is_one_line_and_no_folder(isolated, tmp_path, capsys, command, case):
    from lejepa_id.cli.main import main

    body, match = BAD_MIXINGS[case]
    plugin = tmp_path / f"{case}.py"
    plugin.write_text(
        "import torch\n"
        "from lejepa_id.worlds import register_mixing\n"
        f"@register_mixing({case!r})\n"
        "def build(dim, **_):\n"
        f"    {body}\n"
    )
    out = tmp_path / "out"
    assert main(_cli(command, out, plugin, f"mixing={case}")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert f"mixing {case!r}" in err[0] and re.search(match, err[0]), err[0]
    assert not out.exists()


UNIFORM = PLUGINS / "uniform_law.py"


@pytest.mark.parametrize("command", ["run", "sweep"])
def test_a_plugin_law_is_a_config_value_for_run_and_sweep(isolated, tmp_path, capsys, command):
    from lejepa_id.cli.main import main
    from lejepa_id.worlds.build import world_for

    out = tmp_path / "out"
    assert main(_cli(command, out, UNIFORM, "law=uniform")) == 0
    records = [json.loads(p.read_text()) for p in (out / "2d").glob("*/result.json")]
    assert len(records) == (1 if command == "run" else 2)
    for record in records:
        assert record["config"]["law"] == "uniform" and record["status"] == "finished"
        assert str(UNIFORM) in record["plugins"]
    # The world's latents are the plugin's: uniform on [-sqrt(3), sqrt(3)], unit variance.
    world = world_for(make_run_config(records[0]["config"]))
    z = world.sample_latents(20_000, torch.Generator().manual_seed(0))
    assert float(z.abs().max()) <= 3**0.5 and abs(float(z.var()) - 1.0) < 0.03
    assert not world.law.is_gaussian
    capsys.readouterr()


def test_an_unknown_law_names_the_registered_ones_and_plugins(isolated):
    with pytest.raises(UsageError, match="law='uniform' is not one of gaussian, laplace, gen"):
        make_run_config({"law": "uniform"}).validate()
    plugins.load(str(UNIFORM))
    assert make_run_config({"law": "uniform"}).validate().law == "uniform"
    assert laws.law_names()[:3] == laws.LAW_NAMES and "uniform" in laws.law_names()


def test_a_plugin_law_under_a_built_in_name_is_refused_naming_both(isolated, tmp_path):
    plugin = tmp_path / "gauss.py"
    plugin.write_text(
        "import torch\nfrom lejepa_id.worlds import register_law\n"
        "@register_law('gaussian')\ndef g(shape, generator, **_):\n"
        "    return torch.zeros(shape)\n"
    )
    with pytest.raises(UsageError) as caught:
        plugins.load(str(plugin))
    message = str(caught.value)
    assert "law 'gaussian' is registered twice: by built-in lejepa_id.worlds.laws" in message
    assert f"plugin {plugin}" in message and "register_law('gaussian', override=True)" in message
    assert laws._LAWS["gaussian"].__module__ == "lejepa_id.worlds.laws"


BAD_LAWS = {
    "wrong_shape": ("return torch.randn(shape[0])", r"drew shape \(64,\) when asked for \(64, 2\)"),
    "wrong_dims": ("return torch.randn(*shape, 1)", r"drew shape \(64, 2, 1\) when asked"),
    "nonfinite": ("return torch.full(shape, float('nan'))", "returned NaN or infinite values"),
    "integers": ("return torch.ones(shape, dtype=torch.int64)", "returned int64 values"),
    "numpy": ("import numpy; return numpy.zeros(shape)", "returned a numpy.ndarray"),
    "fails": ("raise ValueError('no draws')", r"failed on a probe draw of shape \(64, 2\)"),
}


@pytest.mark.parametrize(
    "command, case", [("run", c) for c in sorted(BAD_LAWS)] + [("sweep", "nonfinite")]
)
def test_a_bad_plugin_law_is_one_line_and_no_folder(isolated, tmp_path, capsys, command, case):
    from lejepa_id.cli.main import main

    body, match = BAD_LAWS[case]
    plugin = tmp_path / f"{case}.py"
    plugin.write_text(
        "import torch\n"
        "from lejepa_id.worlds import register_law\n"
        f"@register_law({case!r})\n"
        "def draw(shape, generator, **_):\n"
        f"    {body}\n"
    )
    out = tmp_path / "out"
    assert main(_cli(command, out, plugin, f"law={case}")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert f"law {case!r} (plugin {plugin})" in err[0] and re.search(match, err[0]), err[0]
    assert not out.exists()
