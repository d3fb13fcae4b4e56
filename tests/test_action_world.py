"""Action-driven worlds: the linear_action transition, the lejepa_action objective with its
learned predictor, the predictor and LQR metrics, and their configs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from lejepa_id import RunConfig, train
from lejepa_id.cli.main import main
from lejepa_id.config.run import make_run_config
from lejepa_id.errors import UsageError
from lejepa_id.linalg import affine_fit
from lejepa_id.metrics.action import action_scores, policy_cost
from lejepa_id.objectives import build_objective, random_directions, sigreg
from lejepa_id.objectives.lejepa_action import StackedPredictor
from lejepa_id.theory import lqr as lqr
from lejepa_id.training.saving import load_encoder
from lejepa_id.worlds import LatentLaw, LinearAction, World, action_pairs

CONFIG = str(Path(__file__).parents[1] / "configs" / "action.yaml")
ACTION = dict(
    transition="linear_action", mode="lejepa_action", action_dim=2, action_gain=0.3, rho=0.9
)
TINY = dict(steps=40, batch=64, hidden=16, depth=2, eval_size=400, eval_every=20)


def _rotation(n: int, seed: int) -> np.ndarray:
    q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((n, n)))
    return q


def test_matrices_have_the_documented_form_and_follow_the_seed():
    t = LinearAction(dim=4, action_dim=2, rho=0.8, gain=0.5, seed=3)
    np.testing.assert_allclose(t.A @ t.A.T, 0.64 * np.eye(4), atol=1e-12)
    np.testing.assert_allclose(t.B.T @ t.B, 0.25 * np.eye(2), atol=1e-12)
    S = t.noise_root @ t.noise_root
    np.testing.assert_allclose(S, np.eye(4) - t.A @ t.A.T - t.B @ t.B.T, atol=1e-12)
    same = LinearAction(dim=4, action_dim=2, rho=0.8, gain=0.5, seed=3)
    other = LinearAction(dim=4, action_dim=2, rho=0.8, gain=0.5, seed=4)
    assert np.array_equal(t.A, same.A) and not np.allclose(t.A, other.A)
    assert torch.equal(t.correlations(4), torch.tensor(np.diag(t.A).copy()))


def test_chain_stays_standard_normal_and_regression_recovers_A_and_B():
    t = LinearAction(dim=3, action_dim=2, rho=0.8, gain=0.5, seed=0)
    world = World.make("linear", dim=3, transition=t)
    gen = torch.Generator().manual_seed(0)
    z = world.sample_latents(200_000, gen).double()
    for _ in range(10):  # ten steps of the chain from N(0, I) stay at N(0, I)
        views, actions = action_pairs(world, z, gen)
        z = views[1]
    cov = torch.cov(z.T).numpy()
    # Entries of a sample covariance of 2e5 unit normals have sd <= sqrt(2 / 2e5) = 0.0032.
    np.testing.assert_allclose(cov, np.eye(3), atol=0.016)
    np.testing.assert_allclose(z.mean(0).numpy(), 0.0, atol=0.012)
    X = torch.cat([views[0], actions], dim=1).numpy()
    coef, *_ = np.linalg.lstsq(X, views[1].numpy(), rcond=None)
    np.testing.assert_allclose(coef.T, np.concatenate([t.A, t.B], axis=1), atol=0.015)


def test_views_without_actions_are_independent_successors():
    t = LinearAction(dim=2, action_dim=1, rho=0.6, gain=0.4, seed=1)
    z = torch.randn(100_000, 2, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    v = t.views(z, 2, LatentLaw(), torch.Generator().manual_seed(2))
    cross = (v[0].T @ z / len(z)).numpy()  # E[z' z^T] = A
    np.testing.assert_allclose(cross, t.A, atol=0.02)
    with pytest.raises(ValueError, match="actions have shape"):
        t.views(z, 1, LatentLaw(), torch.Generator(), torch.zeros(1, len(z), 3))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(rho=1.0), "rho=1.0"),
        (dict(rho=0.0), "rho=0.0"),
        (dict(action_dim=0), "action_dim=0"),
        (dict(action_dim=5), "action_dim=5"),
        (dict(gain=0.0), "action_gain=0.0"),
        (dict(gain=0.7), "not PSD|PSD"),
    ],
)
def test_transition_refuses_bad_settings(kwargs, match):
    args = dict(dim=4, action_dim=2, rho=0.8, gain=0.5) | kwargs
    with pytest.raises(ValueError, match=match):
        LinearAction(**args)


def _exact(n: int = 3, k: int = 2, seed: int = 0):
    t = LinearAction(dim=n, action_dim=k, rho=0.85, gain=0.4, seed=seed)
    Q = _rotation(n, seed + 10)
    z = np.random.default_rng(seed).standard_normal((5000, n))
    h = z @ Q.T + np.array([0.3, -1.0, 2.0])[:n]  # h = Q z + c
    return t, Q, z, h, (Q @ t.A @ Q.T).T, (Q @ t.B).T


def test_exact_code_and_predictor_score_zero_error_and_cost_ratio_one():
    t, Q, z, h, W_A, W_B = _exact()
    W, c = affine_fit(z, h)  # h ~ z @ W + c
    np.testing.assert_allclose(W.T.numpy(), Q, atol=1e-12)
    s = action_scores(z, h, W_A, W_B, t.A, t.B)
    assert s["predictor_err"] == pytest.approx(0.0, abs=1e-12)
    assert s["lqr_cost_ratio"] == pytest.approx(1.0, rel=1e-9)  # Theorem 4's invariance
    assert s["lqr_value_err"] == pytest.approx(0.0, abs=1e-9)


def test_wrong_predictor_costs_more_and_a_mismatched_code_is_not_scored():
    t, Q, z, h, W_A, W_B = _exact()
    s = action_scores(z, h, W_A, 0.5 * W_B, t.A, t.B)  # B under-estimated by half
    # ||0.5 Q B||_F / ||[Q A Q^T, Q B]||_F with ||A||_F^2 = 3 rho^2, ||B||_F^2 = 2 gain^2.
    want = 0.5 * np.sqrt(2 * 0.4**2) / np.sqrt(3 * 0.85**2 + 2 * 0.4**2)
    assert s["predictor_err"] == pytest.approx(want, rel=1e-9)
    assert s["lqr_cost_ratio"] > 1.0 and s["lqr_value_err"] > 0.01
    wide = action_scores(z, np.concatenate([h, h[:, :1]], axis=1), W_A, W_B, t.A, t.B)
    assert all(np.isnan(v) for v in wide.values()) and len(wide) == 3


def test_policy_cost_known_answers():
    # Scalar: cost = (1 + K^2) / (1 - (a - b K)^2) while |a - b K| < 1.
    a, b, K = np.array([[0.5]]), np.array([[1.0]]), np.array([[0.2]])
    assert policy_cost(a, b, K) == pytest.approx((1 + 0.04) / (1 - 0.3**2), rel=1e-12)
    assert policy_cost(a, b, np.array([[-1.0]])) == float("inf")  # closed loop 1.5
    t = LinearAction(dim=3, action_dim=2, rho=0.85, gain=0.4, seed=0)
    K_opt, P = lqr.lqr_gain(t.A, t.B, np.eye(3), np.eye(2))
    assert policy_cost(t.A, t.B, K_opt) == pytest.approx(np.trace(P), rel=1e-9)


def test_objective_loss_matches_its_written_out_form():
    gen = torch.Generator().manual_seed(0)
    H = torch.randn(2, 2, 32, 3, generator=gen)  # (R, V, B, m)
    a = torch.randn(2, 32, 2, generator=gen)
    pred = StackedPredictor(2, 3, 2)
    with torch.no_grad():
        pred.W_A.copy_(torch.randn(2, 3, 3, generator=gen))
        pred.W_B.copy_(torch.randn(2, 2, 3, generator=gen))
    obj = build_objective("lejepa_action", num_directions=8)
    d = random_directions(3, 8, gen, (2,))
    with torch.no_grad():
        loss, terms = obj.loss(H, d, actions=a, module=pred, lam=torch.tensor([0.1, 0.5]))
    for r, lam in enumerate((0.1, 0.5)):
        err = (H[r, 0] @ pred.W_A[r].detach() + a[r] @ pred.W_B[r].detach() - H[r, 1]).pow(2).mean()
        reg = sigreg(H[r], d[r], 8)
        assert float(loss[r]) == pytest.approx(float(lam * reg + (1 - lam) * err), rel=1e-5)
        assert float(terms["prediction"][r]) == pytest.approx(float(err), rel=1e-6)
    with pytest.raises(ValueError, match="needs the actions"):
        obj.loss(H, d)


def test_training_learns_the_world_and_saves_the_predictor():
    cfg = RunConfig(
        **ACTION,
        mixing="linear",
        lam=0.05,
        steps=600,
        batch=256,
        hidden=64,
        depth=3,
        eval_size=2000,
        eval_every=600,
    )
    res = train(cfg, progress=False)
    m = res.metrics
    # Measured once: r2_hz 0.9990, predictor_err 0.015, lqr_cost_ratio 1.0017,
    # lqr_value_err 0.069; an untrained predictor (W = 0) has predictor_err 1.
    assert m["r2_hz"] > 0.99
    assert m["predictor_err"] < 0.05
    assert 1.0 <= m["lqr_cost_ratio"] < 1.01
    assert m["lqr_value_err"] < 0.2
    assert res.weights["objective.W_A"].shape == (2, 2)
    assert res.weights["objective.W_B"].shape == (2, 2)
    load_encoder(cfg, res.weights)  # the predictor's weights do not disturb the encoder's


def test_stacked_action_runs_match_runs_alone():
    cfgs = [RunConfig(**ACTION, **TINY, seed=s, mixing="linear") for s in (0, 1)]
    together = train(cfgs, progress=False)
    alone = train(cfgs[1], progress=False)
    for key in ("r2_hz", "predictor_err", "lqr_cost_ratio"):
        assert together[1].metrics[key] == pytest.approx(alone.metrics[key], rel=1e-4)
    assert together[0].metrics["r2_hz"] != together[1].metrics["r2_hz"]


def test_ou_runs_have_no_action_metrics():
    res = train(RunConfig(**TINY), progress=False)
    assert "predictor_err" not in res.metrics and "objective.W_A" not in res.weights


def test_cli_runs_the_action_config(tmp_path, capsys):
    argv = ["run", CONFIG, "--run", "n8_coupling", "--seed", "0", "--out", str(tmp_path)]
    fast = ["steps=30", "eval_size=300", "hidden=16", "num_directions=16"]
    assert main([*argv, *(a for s in fast for a in ("--set", s)), "--no-progress"]) == 0
    result = json.loads((tmp_path / "action" / "n8_coupling-seed0" / "result.json").read_text())
    assert result["config"]["transition"] == "linear_action"
    assert result["config"]["action_dim"] == 2
    assert np.isfinite(result["metrics"]["predictor_err"])
    assert result["metrics"]["lqr_cost_ratio"] >= 1.0
    assert "predictor_err" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("overrides", "match"),
    [
        (dict(action_dim=3), "action_dim=3"),
        (dict(action_dim=None), "action_dim=None"),
        (dict(action_gain=0.5), "action_gain=0.5"),
        (dict(action_gain=None), "action_gain=None"),
        (dict(rho=1.2), "rho=1.2"),
        (dict(rho=[0.9, 0.8]), "takes one rho"),
        (dict(law="laplace"), "law='laplace'"),
        (dict(code_dim=3), "code_dim=3"),
        (dict(mode="lejepa"), "mode='lejepa'"),
    ],
)
def test_bad_action_settings_are_refused(overrides, match):
    with pytest.raises(UsageError, match=match):
        make_run_config({**ACTION, **overrides})


@pytest.mark.parametrize(
    ("overrides", "match"),
    [
        (dict(action_dim=2), "action_dim=2 is a key of transition linear_action only"),
        (dict(action_gain=0.3), "action_gain=0.3 is a key"),
        (dict(mode="lejepa_action"), "needs transition linear_action"),
    ],
)
def test_action_keys_are_refused_elsewhere(overrides, match):
    with pytest.raises(UsageError, match=match):
        make_run_config(overrides)


def test_cli_refuses_an_action_dimension_mismatch_in_one_line(tmp_path, capsys):
    argv = ["run", CONFIG, "--run", "n2_linear", "--seed", "0", "--out", str(tmp_path)]
    assert main([*argv, "--set", "action_dim=3", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "action_dim=3" in err
    assert not any(tmp_path.iterdir())


def test_the_action_world_asks_for_an_objective_that_takes_actions(monkeypatch):
    # A plugin subclass of lejepa_action, under its own name, is accepted: the transition
    # reads what the objective declares (takes_actions), not its name.
    from dataclasses import dataclass

    from lejepa_id.config import components
    from lejepa_id.objectives import register_objective
    from lejepa_id.objectives.lejepa_action import LeJEPAAction

    table = dict(components._REGISTERED["objective"])
    monkeypatch.setitem(components._REGISTERED, "objective", table)

    @register_objective("my_action")
    @dataclass(frozen=True)
    class MyAction(LeJEPAAction):
        pass

    cfg = make_run_config({**ACTION, "mode": "my_action"})
    assert cfg.objective_class is MyAction and cfg.objective_params["lam"] == MyAction.lam
    with pytest.raises(UsageError, match="this objective takes none"):
        make_run_config({**ACTION, "mode": "whiten"})
