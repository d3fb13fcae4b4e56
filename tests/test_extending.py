"""Extending the engine: a new objective, transition and metric are one file each
(tests/toys/), picked up by name by configs, training, metrics and the CLI summary."""

from __future__ import annotations

import importlib
import sys

import pytest
import torch

from lejepa_id import RunConfig, train
from lejepa_id.config.run import make_run_config
from lejepa_id.errors import UsageError
from lejepa_id.objectives import objective
from lejepa_id.worlds import LatentLaw, World, transitions

TINY = dict(
    steps=40, batch=64, hidden=16, depth=2, eval_size=400, eval_every=20, eval_every_early=20
)


@pytest.fixture
def toys(monkeypatch):
    """Register the toys into copies of the registries, restored after the test."""
    from lejepa_id.config import components
    from lejepa_id.metrics import registry as metric_registry

    objectives_now = dict(components._REGISTERED["objective"])
    monkeypatch.setitem(components._REGISTERED, "objective", objectives_now)
    monkeypatch.setattr(transitions, "_TRANSITIONS", dict(transitions._TRANSITIONS))
    monkeypatch.setattr(metric_registry, "_METRICS", dict(metric_registry._METRICS))
    names = [f"toys.{name}" for name in ("toy_objective", "toy_transition", "toy_metric")]
    for name in names:
        sys.modules.pop(name, None)  # a fresh import registers into the copies, once
    mods = [importlib.import_module(name) for name in names]
    yield mods
    monkeypatch.undo()


def test_toy_objective_is_a_config_key_and_matches_its_written_out_loss(toys):
    toy = toys[0]
    cfg = make_run_config({"mode": "centered_whiten", "beta": 0.25})
    assert cfg.beta == 0.25 and cfg.to_dict()["beta"] == 0.25
    H = torch.randn(2, 32, 3, generator=torch.Generator().manual_seed(0))
    loss, terms = objective(H, "centered_whiten", beta=0.25)
    assert loss.item() == pytest.approx(toy.reference_loss(H, 0.25).item(), rel=1e-6)
    assert set(terms) == {"alignment", "moments"}
    with pytest.raises(UsageError, match="beta=1.5"):
        make_run_config({"mode": "centered_whiten", "beta": 1.5})


def test_toy_objective_trains_and_stacks_runs_that_differ_in_beta(toys):
    cfgs = [RunConfig(**TINY, mode="centered_whiten", beta=b, seed=1) for b in (0.2, 0.6)]
    together = train(cfgs, progress=False)
    alone = train(cfgs[1], progress=False)
    assert together[1].metrics["r2_hz"] == pytest.approx(alone.metrics["r2_hz"], rel=1e-5)
    assert together[0].metrics["r2_hz"] != together[1].metrics["r2_hz"]


def test_toy_transition_reports_its_correlation_and_feeds_training(toys):
    lazy = toys[1].LazyOU(rho=0.6)
    z = torch.randn(200_000, 2, generator=torch.Generator().manual_seed(1))
    zp = lazy.views(z, 1, LatentLaw(), torch.Generator().manual_seed(2))[0]
    corr = float((z * zp).mean())
    assert corr == pytest.approx(float(lazy.correlations(2)[0]), abs=0.01)  # 0.8 +- 5 se
    res = train(RunConfig(**TINY, transition="lazy_ou", rho=0.6), progress=False)
    assert res.status == "finished" and res.to_dict()["config"]["transition"] == "lazy_ou"
    # Theorem 3's bound uses the transition's correlation (0.8), not the config's rho.
    m = res.metrics
    expected_D = m["delta"] / (2 * 0.8 * 0.2)
    assert m["D_bound"] == pytest.approx(expected_D, rel=1e-9)


def test_toy_metric_is_computed_for_every_run(toys):
    res = train(RunConfig(**TINY), progress=False)
    assert res.metrics["code_energy"] > 0


def test_unknown_objective_key_is_refused_without_the_toy():
    with pytest.raises(UsageError, match="unknown config key 'beta'"):
        make_run_config({"beta": 0.3})


def test_world_and_config_must_agree():
    cfg = RunConfig(**TINY, rho=0.95)
    with pytest.raises(UsageError, match="rho=0.95 does not match"):
        train(cfg, World.make("spiral", rho=0.9), progress=False)
    with pytest.raises(UsageError, match="law='gaussian'"):
        train(cfg, World.make("spiral", law="laplace"), progress=False)
    with pytest.raises(UsageError, match="mixing='spiral' but the supplied world's mixing is"):
        train(cfg, World.make("banana"), progress=False)
    with pytest.raises(UsageError, match="dim=2 does not match"):
        train(cfg, World.make(torch.tanh, dim=3), progress=False)
