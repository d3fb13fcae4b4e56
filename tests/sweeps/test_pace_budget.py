"""A dry run probes only what it can afford: a probe past its time budget stops at its
next evaluation and keeps what it timed; a group's times are fitted to the cost model's
two parts (members and multiply-adds) through the probes, so a time made of those parts
is projected exactly, and a group beyond the largest probe gets a range spanning a
second model (in proportion to work from the largest probe)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lejepa_id.config.experiments import load_experiment
from lejepa_id.sweeps.pace import (
    PROBE_BUDGET_S,
    Pace,
    beyond_probes,
    group_span,
    group_work,
    probe_groups,
    work_parts,
)
from lejepa_id.sweeps.plan import plan_groups

CONFIG = Path(__file__).parents[2] / "configs" / "scaling.yaml"


def _groups(dims: str, seeds: str = "[0]"):
    specs = load_experiment(CONFIG, [f"dims={dims}", f"seeds={seeds}", "runs=[lejepa]"]).expand()
    return plan_groups(specs, "cpu", 1)


# Each time is per member plus per unit of multiply-adds: (a, b) a key.
PARTS = {"step_s": (0.004, 0.06), "fixed_s": (0.5, 0.3), "eval_s": (0.01, 0.02)}


def _true(specs, key):
    a, b = PARTS[key]
    members, arithmetic = work_parts(specs)
    return a * members + b * arithmetic


def linear_probe(specs, what) -> Pace:
    """A stand-in timing whose times are made of the two parts of :data:`PARTS`."""
    return Pace(what, group_work(specs), probe_s=1.0, **{k: _true(specs, k) for k in PARTS})


def test_times_of_the_two_parts_are_projected_exactly_and_extrapolation_has_a_range():
    groups = _groups("[2, 64, 256, 1024]", seeds="[0, 1, 2]")
    paces = probe_groups(groups, None, "cpu", linear_probe)
    assert len(paces) == 2  # N = 2 and two runs of N = 1024
    for g in groups:
        c = g.specs[0].config
        exact = (
            _true(g.specs, "fixed_s")
            + c.steps * _true(g.specs, "step_s")
            + (len(c.eval_steps()) - 1) * _true(g.specs, "eval_s")
        )
        low, mid, high = group_span(g, paces)
        assert mid == pytest.approx(exact, rel=1e-9)
        if g in beyond_probes(groups, paces):
            top = max(paces, key=lambda p: p.work)
            scale = group_work(g.specs) / top.work
            other = scale * (top.fixed_s + c.steps * top.step_s)
            other += scale * (len(c.eval_steps()) - 1) * top.eval_s
            assert (low, high) == pytest.approx(sorted((mid, other)), rel=1e-9)
            assert low <= mid <= high
        else:
            assert low == mid == high
    # The N = 1024 group of 3 runs is beyond its two-run probe; the others are within.
    assert [len(g.specs) for g in beyond_probes(groups, paces)] == [3]
    assert [g.specs[0].config.dim for g in beyond_probes(groups, paces)] == [1024]


def test_a_negative_part_is_dropped_not_extrapolated():
    """Two probes whose exact fit needs a negative time per multiply-add (the small world
    slower per member than the large one: noise, or a model that does not hold): that
    part is dropped and the fit goes through the larger probe, so no group is projected
    at a negative time and the larger probe's own group gets its measured time."""
    small, large = sorted(_groups("[2, 1024]"), key=lambda g: group_work(g.specs))
    small, large = (
        type(small)(small.index, small.specs[:2]),
        type(large)(large.index, large.specs[:2]),
    )
    (m1, a1), (m2, a2) = work_parts(small.specs), work_parts(large.specs)
    q1, q2 = 1.0, 0.2
    assert m1 * q2 - m2 * q1 < 0 < m1 * a2 - m2 * a1  # the exact fit's b is negative
    p1 = Pace("s", group_work(small.specs), q1, 0.0, 0.0, 0.0, members=m1, arithmetic=a1)
    p2 = Pace("l", group_work(large.specs), q2, 0.0, 0.0, 0.0, members=m2, arithmetic=a2)
    steps = large.specs[0].config.steps
    assert group_span(large, [p1, p2])[1] == pytest.approx(steps * q2, rel=1e-9)
    assert group_span(small, [p1, p2])[1] == pytest.approx(steps * q2 / m2 * m1, rel=1e-9)


class Clock:
    """A fake ``time`` for the probe: trainings advance it by known costs."""

    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now


def _costly_training(monkeypatch, setup: float, step: float, evaluation: float):
    """Trainings that cost ``setup``, ``step`` a step and ``evaluation`` a full (not
    cheap) evaluation; returns the list of (steps asked, steps done) per training."""
    from lejepa_id.sweeps import pace
    from lejepa_id.training import trainer

    clock = Clock()
    calls: list[list[int]] = []

    def fake_train(cfgs, progress=True, on_eval=None, **kw):
        c = cfgs[0]
        cheap = c.eval_size == max(100, 4 * c.dim)  # the probe's smallest evaluation set
        calls.append([c.steps, 0])
        clock.now += setup
        done = 0
        for at in c.eval_steps():
            clock.now += (at - done) * step + (0.0 if cheap else evaluation)
            done = calls[-1][1] = at
            on_eval(at, [{}] * len(cfgs))

    monkeypatch.setattr(pace, "time", clock)
    monkeypatch.setattr(trainer, "train", fake_train)
    return calls


def test_a_probe_past_its_budget_stops_and_keeps_what_it_timed(monkeypatch) -> None:
    from lejepa_id.sweeps import pace

    setup, step = 0.6 * PROBE_BUDGET_S, 0.3 * PROBE_BUDGET_S  # an N = 1024 group, say
    calls = _costly_training(monkeypatch, setup, step, evaluation=PROBE_BUDGET_S)
    (group,) = [g for g in _groups("[1024]")]
    got = pace.probe_group(group.specs[:2], "g")
    # The first training stopped at its second evaluation, past the budget with one step
    # timed between two evaluations; no second or third training.
    assert calls == [[4, 2]]
    assert got.short and "probe stopped at" in got.line()
    assert got.step_s == pytest.approx(step) and got.step_hi_s == 0.0  # one timing
    assert got.fixed_s == pytest.approx(setup) and got.eval_s == 0.0
    assert got.probe_s == pytest.approx(setup + 2 * step)


def test_a_probe_within_its_budget_runs_all_three_trainings(monkeypatch) -> None:
    from lejepa_id.sweeps import pace

    calls = _costly_training(monkeypatch, setup=0.01, step=0.001, evaluation=0.02)
    (group,) = [g for g in _groups("[2]")]
    got = pace.probe_group(group.specs[:1], "g")
    assert len(calls) == 3 and all(asked == done for asked, done in calls)
    assert not got.short and got.eval_s == pytest.approx(0.02)
