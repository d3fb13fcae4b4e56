"""Config files, --set overrides and validation of every documented bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from lejepa_id.config.experiments import load_experiment
from lejepa_id.config.run import CORE_FIELDS, RunConfig, make_run_config
from lejepa_id.errors import UsageError

CONFIGS = Path(__file__).parents[1] / "configs"


def test_every_run_field_and_objective_hyperparameter_has_a_docstring():
    import dataclasses
    import inspect

    from lejepa_id.objectives import objective_class, objective_names

    owners = [(RunConfig, CORE_FIELDS)] + [
        (cls, [f.name for f in dataclasses.fields(cls)])
        for cls in map(objective_class, objective_names())
    ]
    for cls, names in owners:
        for name in names:
            # An inherited hyperparameter is documented where it is declared.
            owner = next(c for c in cls.__mro__ if name in vars(c).get("__annotations__", {}))
            source = inspect.getsource(owner)
            block = source.split(f"    {name}:", 1)[1].splitlines()[1]
            assert block.strip().startswith('"""'), (cls.__name__, name)


def test_2d_config_mirrors_the_spec():
    exp = load_experiment(CONFIGS / "2d.yaml")
    specs = exp.expand()
    assert len(specs) == 24
    names = {s.run for s in specs}
    assert names == {
        f"{m}_{o}" for m in ("spiral", "banana", "sinusoid", "nvp") for o in ("lejepa", "whiten")
    }
    nvp = exp.run_config("nvp_lejepa")
    assert (nvp.mixing, nvp.layers, nvp.encoder, nvp.lam) == ("coupling", 8, "matched", 1e-3)
    sw = exp.run_config("spiral_whiten")
    assert (sw.mode, sw.lam, sw.rho, sw.steps, sw.batch, sw.lr) == (
        "whiten",
        0.5,
        0.95,
        20000,
        256,
        3e-3,
    )
    assert {s.config.seed for s in specs} == {1337, 1338, 1339}
    assert specs[0].run_id == "spiral_lejepa-seed1337"


def test_set_overrides_run_keys_experiment_keys_and_dotted_paths():
    exp = load_experiment(
        CONFIGS / "2d.yaml",
        [
            "steps=100",
            "seeds=[1, 2]",
            "runs.spiral_lejepa.lam=1e-2",
            "runs=[spiral_lejepa, nvp_whiten]",
        ],
    )
    specs = exp.expand()
    assert [s.run_id for s in specs] == [
        "spiral_lejepa-seed1",
        "spiral_lejepa-seed2",
        "nvp_whiten-seed1",
        "nvp_whiten-seed2",
    ]
    assert all(s.config.steps == 100 for s in specs)
    assert specs[0].config.lam == 0.01


@pytest.mark.parametrize(
    "sets, message",
    [
        (["stepz=10"], "unknown config key 'stepz'"),
        (["rho=1.5"], "rho=1.5 must lie in the open interval"),
        (["rho=0"], "rho=0.0 must lie in the open interval"),
        (["lam=2"], "lam=2.0 must lie in"),
        (["runs.spiral_lejepa.mixing=spirall"], "mixing='spirall' is not one of"),
        (["runs.spiral_lejepa.mode=vicreg"], "mode='vicreg' is not one of"),
        (["runs.nvp_lejepa.dim=3"], "dim=3 must be even"),
        (["alpha=0"], "alpha=0.0 must be >= 0.1"),
        (["law=cauchy"], "law='cauchy' is not one of"),
        (
            ["coupling_draw=cuda"],
            "coupling_draw='cuda' is not one of float64, published, published_",
        ),
        (["steps=ten"], "steps='ten' must be an integer"),
        (["runs=[spiral_lejepx]"], "run 'spiral_lejepx' is not one of"),
        (["seeds=[]"], "sweep axis 'seeds' is empty"),
        (["oops"], "must look like key=value"),
    ],
)
def test_bad_values_name_the_key(sets, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(")):
        load_experiment(CONFIGS / "2d.yaml", sets)


def test_unknown_key_inside_the_file_is_named(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("runs:\n  a: {mixing: spiral, lamda: 0.1}\n")
    with pytest.raises(UsageError, match="unknown config key 'lamda' in runs.a"):
        load_experiment(bad)
    bad.write_text("runs:\n  a: {}\nsteps: 10\n")
    with pytest.raises(UsageError, match="unknown config key 'steps' in bad.yaml"):
        load_experiment(bad)


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(UsageError, match="does not exist"):
        load_experiment(tmp_path / "nope.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("runs: [unclosed\n")
    with pytest.raises(UsageError, match="not valid YAML"):
        load_experiment(bad)


def test_yaml_is_loaded_safely(tmp_path):
    evil = tmp_path / "evil.yaml"
    evil.write_text("runs: !!python/object/apply:os.system ['echo pwned']\n")
    with pytest.raises(UsageError, match="not valid YAML"):
        load_experiment(evil)


def test_a_key_given_twice_is_refused_but_a_merge_may_override(tmp_path):
    from lejepa_id.config.experiments import read_tree

    dup = tmp_path / "dup.yaml"
    dup.write_text("defaults:\n  steps: 4\n  hidden: 8\n  steps: 8\nruns: {a: {}}\n")
    with pytest.raises(UsageError, match=r"duplicate key 'steps' \(line 4\)"):
        load_experiment(dup)
    # Overriding a key brought in by `<<:` is what a merge is for, not a duplicate.
    merged = tmp_path / "merged.yaml"
    merged.write_text("base: &b {steps: 4, hidden: 8}\ndefaults: {<<: *b, steps: 6}\n")
    assert read_tree(merged)["defaults"] == {"steps": 6, "hidden": 8}


def test_numbers_in_any_yaml_spelling_are_accepted():
    cfg = make_run_config({"lam": "1e-3", "steps": 2000.0})
    assert cfg.lam == 1e-3 and cfg.steps == 2000 and isinstance(cfg.steps, int)
    with pytest.raises(UsageError, match="steps=True"):
        make_run_config({"steps": True})


def test_scaling_config_draws_the_published_worlds():
    exp = load_experiment(CONFIGS / "scaling.yaml")
    assert {exp.run_config(r).coupling_draw for r in exp.runs} == {"published"}


def test_run_ids_are_distinct_for_distinct_values_and_stable_for_published_ones():
    def ids(sets):
        return [s.run_id for s in load_experiment(CONFIGS / "grid.yaml", sets).expand()]

    one = ["rhos=[0.9]", "seeds=[1]"]
    assert ids(["lambs=[0.0010000001, 0.001]", *one]) == [
        "spiral_lejepa-lam0.0010000001-rho0.9-seed1",
        "spiral_lejepa-lam0.001-rho0.9-seed1",
    ]
    # 1e-3 (a string to YAML 1.1) and 0.001 are the same value: the same run.
    assert ids(["lambs=[1e-3]", *one]) == ids(["lambs=[0.001]", *one])
    # The published configs keep their short ids (6 significant digits where exact).
    gennorm = [s.run_id for s in load_experiment(CONFIGS / "gennorm.yaml").expand()]
    assert gennorm[0] == "spiral_lejepa-alpha0.125-seed1337"
    assert "nvp_infonce-alpha32-seed1339" in gennorm and "spiral_lejepa-alpha2-seed1337" in gennorm
    grid = [s.run_id for s in load_experiment(CONFIGS / "grid.yaml").expand()]
    assert grid[0] == "spiral_lejepa-lam1e-06-rho0.3-seed0"
    assert grid[-1] == "spiral_lejepa-lam0.5-rho0.99-seed2"


@pytest.mark.parametrize(
    "axis", ["seeds=[1, 1]", "lambs=[1e-3, 0.001]", "alphas=[2, 2.0]", "dims=[4, 4.0]"]
)
def test_duplicate_axis_values_are_refused(axis):
    with pytest.raises(UsageError, match=f"sweep axis '{axis.split('=')[0]}' lists the value"):
        load_experiment(CONFIGS / "grid.yaml", [axis]).expand()


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"steps": 10**12}, "steps=1000000000000 must be <= 100,000,000"),
        ({"mixing": "coupling", "dim": 10**6}, "dim=1000000 must be <= 16,384"),
        ({"eval_size": 2}, "eval_size=2 must be >= 100"),
        ({"mixing": "coupling", "dim": 512, "eval_size": 1000}, "= 2048"),
        ({"law": "gennorm", "alpha": 0.01}, "alpha=0.01 must be >= 0.1"),
        ({"lr": float("inf")}, "lr=inf must be a finite number"),
        ({"t_max": float("inf")}, "t_max=inf must be a finite number"),
        ({"mode": "whiten", "batch": 1}, "batch=1 must be >= 2"),
        ({"batch": 2**20, "hidden": 4096}, "GiB"),
        # Seeds enter derive_seed modulo 2^63: outside [0, 2^63) two seeds would be one.
        ({"seed": 10**30}, "seed=1000000000000000000000000000000 must be <= 9,223,372,036,"),
        ({"seed": -1}, "seed=-1 must be >= 0"),
        ({"mixing_seed": 2**63}, "mixing_seed=9223372036854775808 must be <= 9,223,"),
        ({"eval_seed": -5}, "eval_seed=-5 must be >= 0"),
    ],
)
def test_sizes_and_nonsense_are_refused_with_the_range(overrides, message):
    with pytest.raises(UsageError, match=message):
        make_run_config(overrides)


def test_the_smallest_allowed_values_are_accepted():
    make_run_config({"law": "gennorm", "alpha": 0.1, "batch": 2, "eval_size": 100})
    make_run_config({"mixing": "coupling", "dim": 16, "eval_size": 100, "steps": 1})
    make_run_config({"seed": 2**63 - 1, "mixing_seed": 0, "eval_seed": 0})
    make_run_config({"eval_every": 10**30})  # a threshold: a huge one means "never"


@pytest.mark.parametrize(
    "text, message",
    [
        ("defaults: [1]\nruns: {a: {}}\n", "'defaults' must be a mapping"),
        ("runs: {a: 5}\n", "runs.a must be a mapping"),
        ("name: ../x\nruns: {a: {}}\n", "experiment name '../x' is not allowed"),
        ("name: /tmp/x\nruns: {a: {}}\n", "experiment name '/tmp/x' is not allowed"),
        ("runs: {../y: {}}\n", "run name '../y' is not allowed"),
    ],
)
def test_wrong_shapes_and_escaping_names_in_files(tmp_path, text, message):
    path = tmp_path / "exp.yaml"
    path.write_text(text)
    with pytest.raises(UsageError, match=message.replace("(", r"\(")):
        load_experiment(path)


def test_python_api_misuse_raises_clear_errors():
    from lejepa_id.training.trainer import train
    from lejepa_id.worlds import World

    with pytest.raises(UsageError, match="steps='100' must be an integer"):
        RunConfig(steps="100").validate()
    with pytest.raises(UsageError, match="lr=True must be a number"):
        RunConfig(lr=True).validate()
    with pytest.raises(UsageError, match="non-empty list"):
        train([])
    cfg = RunConfig(steps=2, eval_size=100, device="cpu")
    world = World.make("spiral", 2)
    with pytest.raises(UsageError, match="got 1 worlds for 2 configs"):
        train([cfg, RunConfig(steps=2, eval_size=100, device="cpu", seed=1)], [world])
    with pytest.raises(UsageError, match="got 2 worlds for 1 configs"):
        train([cfg], [world, world])


def test_rho_list_and_rho_grid_give_anisotropic_runs(tmp_path):
    path = tmp_path / "aniso.yaml"
    path.write_text(
        "name: aniso\nruns:\n  a: {mixing: spiral}\n  b: {mixing: coupling, dim: 4,"
        " encoder: matched}\nrho_grid: {first: [0.99, 0.5], rest: [0.5]}\nseeds: [0]\n"
    )
    specs = load_experiment(path).expand()
    rhos = {s.run_id: s.config.rho for s in specs}
    assert rhos == {
        "a-rho0.99x0.5-seed0": [0.99, 0.5],
        "a-rho0.5x0.5-seed0": [0.5, 0.5],
        "b-rho0.99x0.5x0.5x0.5-seed0": [0.99, 0.5, 0.5, 0.5],
        "b-rho0.5x0.5x0.5x0.5-seed0": [0.5, 0.5, 0.5, 0.5],
    }
    assert make_run_config({"rho": [0.9, "0.8"]}).rho == [0.9, 0.8]


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"rho": [0.9]}, "lists 1 correlations; dim=2 needs 2"),
        ({"rho": [0.9, 1.0]}, "rho=1.0 must lie in the open interval"),
        ({"rho": []}, "rho=[] must be a number or a non-empty list of numbers"),
        ({"code_dim": 0}, "code_dim=0 must lie in"),
        ({"obs_dim": 3}, "obs_dim=3: mixing spiral keeps D = dim = 2"),
        ({"encoder": "matched", "mixing": "coupling", "code_dim": 4}, "matched encoder needs"),
    ],
)
def test_bad_anisotropic_and_size_settings_are_refused(overrides, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace("[", r"\[")):
        make_run_config(overrides)


def test_objective_is_accepted_beside_mode(tmp_path):
    # The report says "objective"; configs may too. Records keep writing mode, so old
    # records and configs read as before.
    from lejepa_id.config.experiments import load_experiment

    assert make_run_config({"objective": "whiten"}).mode == "whiten"
    assert RunConfig(objective="infonce").objective == "infonce"
    assert make_run_config({"objective": "whiten", "mode": "whiten"}).to_dict()["mode"] == "whiten"
    with pytest.raises(UsageError, match="objective='whiten' and mode='infonce' name two"):
        make_run_config({"objective": "whiten", "mode": "infonce"})
    # A run's `objective` replaces the defaults' `mode`, and --set objective=... all runs'.
    path = tmp_path / "e.yaml"
    path.write_text(
        "defaults: {mode: lejepa, steps: 10}\nruns:\n  a: {objective: whiten}\n  b: {}\n"
    )
    exp = load_experiment(path)
    assert (exp.run_config("a").mode, exp.run_config("b").mode) == ("whiten", "lejepa")
    exp = load_experiment("2d", ["objective=whiten", "seeds=[1]"])
    assert {s.config.mode for s in exp.expand()} == {"whiten"}


@pytest.mark.parametrize(
    "key, value, what",
    [
        ("mode", "no_such_objective", "an objective"),
        ("transition", "hops", "a transition"),
        ("encoder", "tanh", "an encoder"),
    ],
)
def test_an_unknown_component_suggests_a_plugin(key, value, what):
    # The name may be a component the user has not loaded: say how to bring one.
    with pytest.raises(UsageError) as err:
        RunConfig(**{key: value}).validate()
    message = str(err.value)
    assert message.startswith(f"{key}={value!r} is not one of ")
    assert f"({what} of your own: register it in a plugin and pass --plugin FILE)" in message
    assert "\n" not in message
    with pytest.raises(UsageError) as err:  # a choice no plugin can add: no hint
        RunConfig(coupling_draw="cuda").validate()
    assert "--plugin" not in str(err.value)
