"""Training engine: determinism, batched = one by one, divergence, and a real 2D run."""

from __future__ import annotations

import math

import pytest
import torch

from lejepa_id import RunConfig, World, load_encoder, train
from lejepa_id.errors import UsageError
from lejepa_id.records.io import load_tensors, read_json
from lejepa_id.training.engine import lr_factor

TINY = dict(
    steps=40,
    batch=64,
    eval_size=500,
    eval_every=20,
    eval_every_early=10,
    early_until=20,
    hidden=32,
    num_directions=32,
    device="cpu",
)


def test_lr_schedule_is_constant_then_cosine_to_zero():
    assert lr_factor(0, 100) == 1.0 and lr_factor(49, 100) == 1.0
    assert lr_factor(75, 100) == pytest.approx(0.5)
    assert lr_factor(100, 100) == pytest.approx(0.0, abs=1e-12)


def test_eval_schedule_is_dense_early_then_sparse():
    steps = RunConfig(steps=2000).eval_steps()
    assert steps[:10] == list(range(100, 1001, 100))
    assert steps[10:] == [1500, 2000]


def test_same_seed_same_numbers():
    a = train(RunConfig(**TINY, seed=3), progress=False)
    b = train(RunConfig(**TINY, seed=3), progress=False)
    c = train(RunConfig(**TINY, seed=4), progress=False)
    assert a.curves == b.curves and a.metrics == b.metrics
    for k in a.weights:
        assert torch.equal(a.weights[k], b.weights[k])
    assert a.metrics != c.metrics


def test_loss_mean_is_the_mean_of_every_steps_loss_since_the_last_evaluation(monkeypatch):
    from lejepa_id.training.trainer import _Trainer as Trainer

    seen: list[list[float]] = []
    record = Trainer.record_step

    def spy(self, step, loss, terms):
        seen.append(loss.tolist())
        record(self, step, loss, terms)

    monkeypatch.setattr(Trainer, "record_step", spy)
    cfgs = [RunConfig(**TINY, seed=3), RunConfig(**TINY, seed=4)]  # one group of two
    results = train(cfgs, progress=False)
    assert len(seen) == TINY["steps"]
    for member, result in enumerate(results):
        curves, start = result.curves, 0
        assert curves["step"] == [10, 20, 40]
        for end, mean, last in zip(curves["step"], curves["loss_mean"], curves["loss"]):
            window = [losses[member] for losses in seen[start:end]]
            assert mean == pytest.approx(sum(window) / len(window), rel=1e-6)
            assert last == window[-1]  # ``loss`` stays the last step's minibatch
            start = end


@pytest.mark.parametrize("mode", ["lejepa", "whiten", "infonce"])
def test_batched_group_equals_runs_trained_one_by_one(mode):
    cfgs = [
        RunConfig(**TINY, mode=mode, seed=s, lam=lam, rho=rho, law="gennorm", alpha=a)
        for s, lam, rho, a in [(0, 1e-3, 0.9, 2.0), (1, 0.3, 0.5, 1.0), (2, 0.5, 0.95, 4.0)]
    ]
    together = train(cfgs, progress=False)
    for cfg, res in zip(cfgs, together):
        alone = train(cfg, progress=False)
        for k in alone.weights:
            assert torch.allclose(res.weights[k], alone.weights[k], rtol=1e-4, atol=1e-5), k
        for k, v in alone.metrics.items():
            # Predictions that do not apply to a world (NaN) must be NaN in both.
            assert res.metrics[k] == pytest.approx(v, rel=1e-4, abs=1e-5, nan_ok=True), k


def test_best_of_k_keeps_the_lowest_final_loss(tmp_path):
    res = train(RunConfig(**TINY, inits=3), progress=False)
    assert len(res.init_final_losses) == 3
    assert res.init_final_losses[res.selected_init] == min(res.init_final_losses)
    assert len(set(res.init_final_losses)) == 3  # different initializations
    # Every initialization's own end point is kept; the selected one is the run's.
    assert len(res.init_final_metrics) == 3
    kept = res.init_final_metrics[res.selected_init]
    assert kept["r2_hz"] == res.metrics["r2_hz"]
    assert kept["orth_err"] == res.metrics["orth_err"]
    assert [m["loss_last100"] for m in res.init_final_metrics] == res.init_final_losses
    assert len({m["r2_hz"] for m in res.init_final_metrics}) == 3
    assert not any(m["diverged"] for m in res.init_final_metrics)
    assert res.to_dict()["init_final_metrics"] == res.init_final_metrics
    # Every initialization's weights are saved beside the kept ones, and listed.
    res.save(tmp_path)
    every = load_tensors(tmp_path / "init_weights.safetensors")
    kept = load_tensors(tmp_path / "weights.safetensors")
    for name, value in kept.items():
        assert torch.equal(every[f"init{res.selected_init}.{name}"], value)
    others = [k for k in range(3) if k != res.selected_init]
    assert not torch.equal(every[f"init{others[0]}.{name}"], value)
    assert len(every) == 3 * len(kept)
    assert "init_weights.safetensors" in read_json(tmp_path / "result.json")["files"]
    single = train(RunConfig(**TINY), progress=False)
    assert single.init_weights == {} and len(single.init_final_metrics) == 1
    big = RunConfig(**TINY, inits=3, inits_max_dim=1)
    assert big.effective_inits == 1


def test_best_of_k_over_worlds_trains_the_published_codes_starts():
    # The published code's best of K: start k is the whole run at seed + 1000 k.
    cfg = RunConfig(**TINY, inits=3, inits_over="world", seed=5)
    res = train(cfg, progress=False)
    seeds = [m["seed"] for m in res.init_final_metrics]
    assert seeds == [5, 1005, 2005]
    assert res.init_final_losses[res.selected_init] == min(res.init_final_losses)
    assert res.extra["kept_seed"] == seeds[res.selected_init]
    assert res.config.seed == 5 and res.config.inits == 3
    for k, seed in enumerate(seeds):
        alone = train(RunConfig(**TINY, seed=seed), progress=False)
        got = res.init_final_metrics[k]["r2_hz"]
        assert got == pytest.approx(alone.metrics["r2_hz"], rel=1e-4, abs=1e-5)
        if k == res.selected_init:
            for name, value in alone.weights.items():
                assert torch.allclose(res.weights[name], value, rtol=1e-4, atol=1e-5)
    assert res.to_dict()["kept_seed"] == res.extra["kept_seed"]
    # Over encoders (the default), the three starts share the run's world and seed.
    same = train(RunConfig(**TINY, inits=3, seed=5), progress=False)
    assert "kept_seed" not in same.extra and "seed" not in same.init_final_metrics[0]


def test_best_of_k_over_worlds_refuses_a_given_world_and_a_bad_choice():
    world = World.make("spiral", dim=2)
    with pytest.raises(UsageError, match="inits_over='world'"):
        train(RunConfig(**TINY, inits=2, inits_over="world"), world, progress=False)
    with pytest.raises(UsageError, match="inits_over"):
        RunConfig(**TINY, inits_over="worlds").validate()


class _BreaksAfter:
    """A mixing that starts returning NaN after a number of calls."""

    def __init__(self, calls: int) -> None:
        self.calls, self.left = calls, calls

    def __call__(self, z: torch.Tensor) -> torch.Tensor:
        self.left -= 1
        return z * float("nan") if self.left < 0 else z


def test_divergence_is_recorded_with_its_step_and_spares_the_group():
    # Two calls are World.make's probe (worlds/probe.py: a batch z, then -z for an even
    # map), one probes the observation size, the 2D eval set renders 3 times (z, z',
    # grid); the data stream 16 steps per call.
    bad = World.make(_BreaksAfter(2 + 1 + 3 + 2), dim=2, rho=0.9)
    good = World.make("spiral", dim=2, rho=0.9)
    cfgs = [RunConfig(**TINY, seed=0, rho=0.9), RunConfig(**TINY, seed=1, rho=0.9)]
    res_bad, res_good = train(cfgs, worlds=[bad, good], progress=False)
    assert res_bad.status == "diverged"
    assert res_bad.diverged_step == 33
    assert res_good.status == "finished"
    assert math.isfinite(res_good.metrics["r2_hz"])


def rescored_r2_hz(result, world) -> float:
    """R^2(h -> z) of the saved encoder on the run's own evaluation latents, by the
    reference formula (linalg.r2): what the record's r2_hz must be."""
    from lejepa_id.linalg import r2
    from lejepa_id.metrics.evaluation import EvalSet
    from lejepa_id.runtime import generator

    c = result.config
    evalset = EvalSet.draw(world, c.eval_size, generator(torch.device("cpu"), c.eval_seed, 3))
    encoder = load_encoder(c, result.weights)
    with torch.no_grad():
        h = encoder(evalset.x.unsqueeze(0))[0]
    return float(r2(h.double(), evalset.z.double()))


def test_matched_encoder_run_and_user_world():
    from lejepa_id.worlds.build import world_for

    cfg = RunConfig(**{**TINY, "hidden": 256}, mixing="coupling", encoder="matched", dim=8)
    res = train(cfg, progress=False)
    # The record scores the saved matched encoder (a coupling inverse of its own kind).
    assert res.status == "finished" and set(res.weights) == set(
        load_encoder(cfg, res.weights).state_dict()
    )
    assert res.metrics["r2_hz"] == pytest.approx(rescored_r2_hz(res, world_for(cfg)), abs=1e-6)
    world = World.make(torch.sinh, dim=4, rho=0.9)
    user = train(RunConfig(**TINY, dim=4, mixing="coupling", rho=0.9), worlds=world, progress=False)
    # Trained and scored on the user's world, not on the config's named coupling.
    assert user.metrics["r2_hz"] == pytest.approx(rescored_r2_hz(user, world), abs=1e-6)
    named = world_for(RunConfig(**TINY, dim=4, mixing="coupling", rho=0.9))
    assert user.metrics["r2_hz"] != pytest.approx(rescored_r2_hz(user, named), abs=1e-6)
    assert user.to_dict()["config"]["mixing"] == "custom:sinh"
    # One truth: the result's config names the world it was trained on, as its record does.
    assert user.config.mixing == user.mixing == "custom:sinh"


def test_saved_result_and_weights_round_trip(tmp_path):
    res = train(RunConfig(**TINY, scatter=100), progress=False)
    res.save(tmp_path)
    data = read_json(tmp_path / "result.json")
    for key in (
        "r2_hz",
        "r2_zh",
        "r2_xz",
        "r2_zx",
        "orth_err",
        "epsilon",
        "delta",
        "D_bound",
        "approx_bound",
        "procrustes_mse",
    ):
        assert key in data["metrics"]
    assert data["config"]["seed"] == 0 and data["versions"]["torch"] == torch.__version__
    assert data["curves"]["step"] == [10, 20, 40]
    enc = load_encoder(res.config, load_tensors(tmp_path / "weights.safetensors"))
    scatter = load_tensors(tmp_path / "scatter.safetensors")
    with torch.no_grad():
        assert torch.allclose(enc(scatter["x"].unsqueeze(0))[0], scatter["h"], atol=1e-5)


@pytest.mark.slow
def test_spiral_lejepa_identifies_the_latents():
    """A real (short) run of the paper's 2D spiral configuration."""
    res = train(RunConfig(steps=1500, device="cpu", seed=0), progress=False)
    assert res.metrics["r2_hz"] >= 0.97
    assert res.metrics["r2_xz"] < 0.2  # the spiral scrambles z: the mixing alone is useless
