"""A goal-directed reaching controller and the trajectory statistics it produces.

The paper cut its trajectory pairs from a learned policy's episodes. What matters for the
experiment is only that pairs (q_t, q_{t+delta}) of a purposeful agent are not an OU channel
on a Gaussian: the marginal of the angles is far from N(0, I), and the transition is
neither isotropic nor additive-Gaussian. A PD controller chasing random joint-space goals,
with temporally correlated exploration noise, has exactly those properties, and it is
deterministic given its seed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats

from lejepa_id.errors import UsageError

WRIST_LIMIT = np.deg2rad(160.0)  # the reacher model's wrist range
GOAL_LAWS = ("circle", "gaussian")
COVERAGE_BINS = 72  # 5-degree bins of the circle


def wrap_angle(a: np.ndarray) -> np.ndarray:
    """Angles mapped into [-pi, pi). Shape: any -> same."""
    return (np.asarray(a) + np.pi) % (2 * np.pi) - np.pi


@dataclass
class ControllerConfig:
    """A PD reacher chasing random joint-space goals, with OU exploration noise."""

    kp: float = 2.0
    """Proportional gain on the (shortest-way) angle error, in control units per radian."""
    kd: float = 0.3
    """Derivative gain on joint velocity."""
    noise_std: float = 0.3
    """Stationary standard deviation of the exploration noise added to the action."""
    noise_corr: float = 0.9
    """Per-step autocorrelation of the exploration noise (an AR(1) process)."""
    goal_tol: float = 0.1
    """A goal counts as reached when every joint is within this many radians of it."""
    max_goal_steps: int = 150
    """A new goal is drawn after this many control steps even if the last was not reached."""
    wrist_goal_limit: float = 2.5
    """Wrist goals are drawn uniformly in [-limit, limit] radians (the joint allows 2.79);
    gaussian goals of both joints are clipped to it."""
    goals: str = "circle"
    """circle: shoulder goals and starts uniform on the circle, reached the shortest way
    (across +-pi when shorter); gaussian: goals and starts N(0, goal_std^2) per joint
    (clipped to +-wrist_goal_limit), reached without wrapping, so the angles cover the OU
    data's range (the coverage-matched control)."""
    goal_std: float = 1.2
    """Standard deviation of gaussian goals; 1.2 gives visited angles with the OU data's
    1%-99% range (about +-2.35 rad) and a std of about 1.05."""


def simulate_episode(
    physics, steps: int, rng: np.random.Generator, cfg: ControllerConfig
) -> np.ndarray:
    """Run one episode from a random start and return its joint angles.

    The shoulder angle is wrapped to [-pi, pi) since frames only depend on it modulo 2 pi.
    Shape: -> (steps, 2)
    """
    from lejepa_id.reacher.render import set_angles

    if cfg.goals == "gaussian":
        start = _draw_goal(rng, cfg)
    else:
        start = np.array([rng.uniform(-np.pi, np.pi), rng.uniform(-WRIST_LIMIT, WRIST_LIMIT)])
    set_angles(physics, start)
    # Circle goals take the shortest way round; gaussian goals never wrap on purpose.
    shoulder_err = wrap_angle if cfg.goals == "circle" else (lambda a: a)
    goal = _draw_goal(rng, cfg)
    since_goal = 0
    noise = np.zeros(2)
    innov = cfg.noise_std * np.sqrt(1.0 - cfg.noise_corr**2)
    out = np.empty((steps, 2))
    for t in range(steps):
        q = physics.data.qpos.copy()
        qd = physics.data.qvel.copy()
        out[t] = (wrap_angle(q[0]), q[1])
        err = np.array([shoulder_err(goal[0] - q[0]), goal[1] - q[1]])
        if np.all(np.abs(err) < cfg.goal_tol) or since_goal >= cfg.max_goal_steps:
            goal, since_goal = _draw_goal(rng, cfg), 0
            err = np.array([shoulder_err(goal[0] - q[0]), goal[1] - q[1]])
        noise = cfg.noise_corr * noise + innov * rng.standard_normal(2)
        physics.set_control(np.clip(cfg.kp * err - cfg.kd * qd + noise, -1.0, 1.0))
        physics.step()
        since_goal += 1
    return out


def _draw_goal(rng: np.random.Generator, cfg: ControllerConfig) -> np.ndarray:
    lim = cfg.wrist_goal_limit
    if cfg.goals == "gaussian":
        # Both joints clipped: a shoulder goal near +-pi would let the noise carry the
        # arm across the wrap, which is what this control removes.
        return np.clip(cfg.goal_std * rng.standard_normal(2), -lim, lim)
    return np.array([rng.uniform(-np.pi, np.pi), rng.uniform(-lim, lim)])


def trajectory_pairs(
    n: int,
    delta: int = 16,
    seed: int = 0,
    episode_steps: int = 1000,
    stride: int = 4,
    cfg: ControllerConfig | None = None,
) -> np.ndarray:
    """n pairs (q_t, q_{t+delta}) cut every ``stride`` steps from controller episodes.

    Episodes run until n pairs exist; episode e uses seed (seed, e), so the first n pairs
    do not depend on how many are requested. Shape: -> (n, 2, 2) as (pair, view, joint).
    """
    if delta < 1 or stride < 1 or episode_steps <= delta:
        raise UsageError(
            f"need delta >= 1, stride >= 1 and episode_steps > delta "
            f"(got delta={delta}, stride={stride}, episode_steps={episode_steps})"
        )
    from lejepa_id.reacher.render import load_physics

    cfg = cfg or ControllerConfig()
    if cfg.goals not in GOAL_LAWS:
        raise UsageError(f"goals={cfg.goals!r} is not one of {', '.join(GOAL_LAWS)}")
    physics = load_physics("small")  # as before the target option: identical episodes
    chunks, have, episode = [], 0, 0
    while have < n:
        rng = np.random.default_rng([seed, episode])
        q = simulate_episode(physics, episode_steps, rng, cfg)
        t = np.arange(0, episode_steps - delta, stride)
        chunks.append(np.stack([q[t], q[t + delta]], axis=1))
        have += len(t)
        episode += 1
    return np.concatenate(chunks)[:n]


def pair_diagnostics(pairs: np.ndarray) -> dict:
    """Statistics of a pair dataset that decide whether the OU/Gaussian theory applies.

    Per joint: lag correlation corr(q_t, q_{t+delta}), mean, std, skewness, excess
    kurtosis, and D'Agostino-Pearson normality tests (scipy.stats.normaltest) of the
    marginal and of the increment q_{t+delta} - q_t wrapped to [-pi, pi). For an OU pair
    dataset the correlation is rho, skew and kurtosis are near 0 and the tests do not
    reject.

    Shape: pairs (n, 2, J) -> nested dict of floats.
    """
    a, b = pairs[:, 0, :], pairs[:, 1, :]
    out: dict = {"n_pairs": int(pairs.shape[0]), "per_joint": []}
    for j in range(pairs.shape[-1]):
        x, y = a[:, j], b[:, j]
        inc = wrap_angle(y - x)  # the shoulder wraps; frames only see the angle mod 2 pi
        marg = stats.normaltest(x)
        incr = stats.normaltest(inc)
        out["per_joint"].append(
            {
                "lag_corr": float(np.corrcoef(x, y)[0, 1]),
                "mean": float(x.mean()),
                "std": float(x.std()),
                "skew": float(stats.skew(x)),
                "excess_kurtosis": float(stats.kurtosis(x)),
                "normaltest_stat": float(marg.statistic),
                "normaltest_p": float(marg.pvalue),
                "increment_std": float(inc.std()),
                "increment_skew": float(stats.skew(inc)),
                "increment_excess_kurtosis": float(stats.kurtosis(inc)),
                "increment_normaltest_p": float(incr.pvalue),
            }
        )
    out["cross_corr"] = float(np.corrcoef(a[:, 0], a[:, 1])[0, 1])
    return out


def angle_coverage(angles: np.ndarray, bins: int = COVERAGE_BINS) -> list[dict]:
    """How much of the circle each joint's angles cover, and how often pairs wrap.

    Per joint: ``circle_fraction``, the share of 5-degree bins of [-pi, pi) holding at
    least a tenth of a uniform law's share of the first-view angles (1 for angles uniform
    on the circle, about 0.8 for N(0, 1)); ``wrap_fraction``, the share of items whose
    views lie more than pi apart (a wrap across +-pi, 0 for one view); the std and the
    1% and 99% quantiles of the first view.

    Shape: angles (n, V, J) -> one dict per joint
    """
    out = []
    for j in range(angles.shape[-1]):
        a = wrap_angle(angles[:, 0, j])
        counts, _ = np.histogram(a, bins=bins, range=(-np.pi, np.pi))
        wraps = 0.0
        if angles.shape[1] > 1:
            wraps = float(np.mean(np.abs(angles[:, 1, j] - angles[:, 0, j]) > np.pi))
        out.append(
            {
                "circle_fraction": float(np.mean(counts >= 0.1 * len(a) / bins)),
                "wrap_fraction": wraps,
                "std": float(a.std()),
                "q01": float(np.quantile(a, 0.01)),
                "q99": float(np.quantile(a, 0.99)),
            }
        )
    return out


def controller_dict(cfg: ControllerConfig) -> dict:
    """The controller's settings, for a dataset's metadata."""
    return asdict(cfg)
