"""User worlds checked once on a probe batch, and API misuse as one-line UsageErrors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from lejepa_id.config.run import RunConfig
from lejepa_id.errors import UsageError
from lejepa_id.training.saving import load_encoder
from lejepa_id.training.trainer import train
from lejepa_id.worlds.world import World

TINY = dict(steps=4, eval_size=300, device="cpu", hidden=16, num_directions=16, eval_every=4)


def wrong_shape(z):
    return z.sum(-1)


def numpy_out(z):
    return np.asarray(z) * 2


def float16_out(z):
    return z.half()


def int_out(z):
    return (z * 10).int()


def complex_out(z):
    return z.to(torch.complex64)


def nan_out(z):
    return z / 0.0 * 0.0


def batch_mixer(z):
    return z.reshape(-1, z.shape[-1])  # drops the views dimension


def first_latent_only(z):
    return z[..., :1]  # 2 latents into 1 observed dimension: not injective


def onto_a_line(z):
    return (z[..., :1] - z[..., 1:]) * torch.tensor([1.0, 2.0, 3.0])  # D = 3, a line of x


def squared(z):
    return z * z  # z and -z give one x


@pytest.mark.parametrize(
    "fn, match",
    [
        (wrong_shape, r"mapped latents of shape \(2, 8, 2\) to \(2, 8\)"),
        (numpy_out, "returned a numpy.ndarray; it must return a torch.Tensor"),
        (float16_out, "returned float16 values"),
        (int_out, "returned int32 values"),
        (complex_out, "returned complex64 values"),
        (nan_out, "NaN or infinite"),
        (batch_mixer, "keeping the leading dimensions"),
        (first_latent_only, r"maps 2 latents to 1 observed dimension.*D >= 2"),
        (onto_a_line, "sends 16 probe latents into 1 dimension of x; an invertible mixing"),
        (squared, "maps a latent z and -z to the same x"),
    ],
)
def test_bad_user_mixing_is_refused_at_make_in_one_line(fn, match):
    with pytest.raises(UsageError, match=match) as exc:
        World.make(fn, dim=2)
    assert fn.__name__ in str(exc.value) and "\n" not in str(exc.value)


def test_bad_mixing_in_a_world_built_directly_is_refused_by_train():
    from lejepa_id.worlds.laws import LatentLaw
    from lejepa_id.worlds.mixings import as_mixing
    from lejepa_id.worlds.transitions import OU

    world = World(LatentLaw("gaussian", 2.0), OU(0.95), as_mixing(int_out), 2)
    with pytest.raises(UsageError, match="int32"):
        train(RunConfig(**TINY), worlds=world, progress=False)


def test_float64_mixing_is_cast_with_a_note_and_trains():
    def double(z):
        return torch.tanh(z.double()) + z.double()

    with pytest.warns(UserWarning, match="cast to float32"):
        world = World.make(double, dim=2)
    assert world.render(torch.zeros(3, 2)).dtype == torch.float32
    assert world.mixing_name == "double"
    res = train(RunConfig(**TINY), worlds=world, progress=False)
    assert res.status == "finished" and res.mixing == "custom:double"


def test_worlds_as_a_string_is_refused():
    with pytest.raises(UsageError, match="worlds='spiral' must be a World"):
        train(RunConfig(**TINY), worlds="spiral", progress=False)
    with pytest.raises(UsageError, match="must be World objects"):
        train(RunConfig(**TINY), worlds=["spiral"], progress=False)


def test_load_encoder_with_foreign_weights_is_one_line():
    cfg = RunConfig(**TINY)
    with pytest.raises(UsageError, match="not a mlp encoder's") as exc:
        load_encoder(cfg, {"layer.weight": torch.zeros(3, 3)})
    assert "\n" not in str(exc.value)
    with pytest.raises(UsageError, match="dict of tensors"):
        load_encoder(cfg, "weights.safetensors")


@pytest.mark.parametrize(
    "values, match",
    [
        ({"steps": "100"}, "steps='100' must be an integer"),
        ({"lam": "big"}, "lam='big' must be a number"),
        ({"dim": 2.5}, "dim=2.5 must be an integer"),
        ({"stepz": 100}, "unknown config key 'stepz'"),
    ],
)
def test_run_config_refuses_wrong_types_at_construction(values, match):
    with pytest.raises(UsageError, match=match):
        RunConfig(**values)


@pytest.mark.parametrize(
    "call",
    [
        lambda: World.make("spiral", dim=0),
        lambda: World.make(42, dim=2),
        lambda: World.make("spiral", law="cauchy"),
    ],
)
def test_api_misuse_raises_the_documented_usage_error(call):
    with pytest.raises(UsageError):
        call()


# --- a plugin objective's loss, probed once before the first step -----------------------

BAD_LOSSES = {
    "a wrong shape": (lambda H: (H.pow(2).mean((-2, -1)), {}), r"the loss has shape \(1, 2\)"),
    "a scalar": (lambda H: (H.pow(2).mean(), {}), r"the loss has shape \(\), not \(1,\)"),
    "a detached loss": (lambda H: (H.pow(2).mean((-3, -2, -1)).detach(), {}), "no gradient"),
    "an exception": (lambda H: 1 / 0, "failed on a probe batch .*ZeroDivisionError"),
    "not a pair": (lambda H: H.pow(2).mean((-3, -2, -1)), "not the pair"),
    "a bad term": (
        lambda H: (H.pow(2).mean((-3, -2, -1)), {"t": 1.0}),
        "term 't' is a float",
    ),
    "an integer loss": (lambda H: (H.sum((-3, -2, -1)).long(), {}), "not a floating tensor"),
}


@pytest.fixture
def own_objective(monkeypatch):
    """Register objectives into a copy of the registry, restored after the test."""
    from lejepa_id.config import components

    monkeypatch.setitem(
        components._REGISTERED, "objective", dict(components._REGISTERED["objective"])
    )

    def register(name, fn):
        from dataclasses import dataclass

        from lejepa_id.objectives import Objective, register_objective

        @register_objective(name)
        @dataclass(frozen=True)
        class Mine(Objective):
            def loss(self, H, draw=None, generator=None, **per_run):
                return fn(H)

        return Mine

    return register


@pytest.mark.parametrize("case", sorted(BAD_LOSSES))
def test_a_plugin_objective_that_breaks_the_loss_contract_is_one_line(own_objective, case):
    fn, match = BAD_LOSSES[case]
    own_objective("mine", fn)
    with pytest.raises(UsageError, match=match) as caught:
        train(RunConfig(**TINY, mode="mine"), progress=False)
    message = str(caught.value)
    assert "\n" not in message and "objective 'mine' (module " in message


def test_a_sound_plugin_objective_trains_as_without_the_probe(own_objective, monkeypatch):
    own_objective("square", lambda H: (H.pow(2).mean((-3, -2, -1)) - H.var(-2).mean((-2, -1)), {}))
    first = train(RunConfig(**TINY, mode="square"), progress=False)
    import lejepa_id.training.trainer as trainer

    monkeypatch.setattr(trainer, "probe_objective", lambda *a, **k: None)
    again = train(RunConfig(**TINY, mode="square"), progress=False)
    assert first.status == "finished"
    assert all(torch.equal(first.weights[k], again.weights[k]) for k in first.weights)


@pytest.mark.parametrize("command", ["run", "sweep"])
def test_a_broken_plugin_objective_leaves_no_folder(tmp_path, capsys, monkeypatch, command):
    from pathlib import Path

    from lejepa_id import plugins
    from lejepa_id.cli.main import main
    from lejepa_id.config import components

    monkeypatch.setitem(
        components._REGISTERED, "objective", dict(components._REGISTERED["objective"])
    )
    monkeypatch.setattr(plugins, "_LOADED", {})
    plugin = tmp_path / "shapeless.py"
    plugin.write_text(
        "from dataclasses import dataclass\n"
        "from lejepa_id.objectives import Objective, register_objective\n"
        "@register_objective('shapeless')\n"
        "@dataclass(frozen=True)\n"
        "class Shapeless(Objective):\n"
        "    def loss(self, H, draw=None, generator=None, **kw):\n"
        "        return H.pow(2).mean(), {}\n"
    )
    out = tmp_path / "out"
    config = Path(__file__).parents[1] / "configs" / "2d.yaml"
    argv = [command, str(config), "--out", str(out), "--no-progress", "--plugin", str(plugin),
            "--set", "mode=shapeless", "--set", "steps=4"]  # fmt: skip
    if command == "run":
        argv += ["--run", "spiral_lejepa", "--seed", "0"]
    else:  # refused before any worker starts, not one error.json per run
        argv += ["--set", "runs=[spiral_lejepa]", "--set", "seeds=[0]", "--jobs", "1"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"objective 'shapeless' (plugin {plugin})" in err[0]
    assert not out.exists()


@pytest.mark.parametrize(
    "compute, match",
    [
        (lambda m: 0.5, r"returned a float, not a tensor of shape \(1,\)"),
        (lambda m: torch.zeros(3), r"returned a tensor of shape \(3,\)"),
        (lambda m: 1 / 0, "failed: ZeroDivisionError"),
    ],
)
def test_a_plugin_metric_that_is_not_one_score_per_run_is_one_line(monkeypatch, compute, match):
    from lejepa_id.metrics import registry

    monkeypatch.setattr(registry, "_METRICS", dict(registry._METRICS))
    registry.register_metric("mine", "mine", "a user's metric")(compute)
    with pytest.raises(UsageError, match=match) as caught:
        train(RunConfig(**TINY), progress=False)
    assert "\n" not in str(caught.value) and "metric 'mine' (module " in str(caught.value)


def test_a_plugin_loss_calling_sys_exit_is_one_line(own_objective):
    import sys

    own_objective("quits", lambda H: sys.exit(3))
    with pytest.raises(UsageError, match="failed on a probe batch .*SystemExit: 3"):
        train(RunConfig(**TINY, mode="quits"), progress=False)
