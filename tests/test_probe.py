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
