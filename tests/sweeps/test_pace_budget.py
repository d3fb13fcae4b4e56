"""A dry run probes only what it can afford: the larger probe of an experiment is the
group of most work whose probe fits the budget; a group's times are fitted to the cost
model's two parts (members and multiply-adds) through the probes, so a time made of those
parts is projected exactly, and a group beyond the largest probe gets a range spanning a
second model (in proportion to work from the largest probe)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lejepa_id.config.experiments import load_experiment
from lejepa_id.sweeps import pace as pace_mod
from lejepa_id.sweeps.pace import (
    PROBE_BUDGET_S,
    Pace,
    beyond_probes,
    group_seconds,
    group_span,
    group_work,
    probe_estimate,
    probe_groups,
    wanted_paces,
    work_parts,
)
from lejepa_id.sweeps.plan import plan_groups

CONFIG = Path(__file__).parents[2] / "configs" / "scaling.yaml"


def _groups(dims: str):
    specs = load_experiment(CONFIG, [f"dims={dims}", "seeds=[0]", "runs=[lejepa]"]).expand()
    return plan_groups(specs, "cpu", 1)


# Each time is per member plus per unit of multiply-adds: (a, b) a key.
PARTS = {"step_s": (0.004, 0.06), "fixed_s": (0.5, 0.3), "eval_s": (0.01, 0.02)}


def _true(specs, key):
    a, b = PARTS[key]
    members, arithmetic = work_parts(specs)
    return a * members + b * arithmetic


class LinearProbe:
    """A stand-in timing whose times are made of the two parts of :data:`PARTS` and whose
    probe takes ``per_work`` seconds a unit of work."""

    def __init__(self, per_work: float) -> None:
        self.per_work = per_work
        self.probed: list[float] = []

    def __call__(self, specs, what) -> Pace:
        w = group_work(specs)
        self.probed.append(w)
        times = {k: _true(specs, k) for k in PARTS}
        return Pace(what, w, probe_s=self.per_work * w, **times)


def test_the_larger_probe_is_the_largest_group_that_fits_the_budget():
    groups = _groups("[64, 128, 256, 512, 1024]")
    works = sorted(group_work(g.specs[: pace_mod.PROBE_RUNS]) for g in groups)
    # Seconds a unit of work such that the N = 256 group fits and N = 512 does not.
    per_work = PROBE_BUDGET_S / (0.5 * (works[2] + works[3]))
    probe = LinearProbe(per_work)
    paces = probe_groups(groups, None, "cpu", probe)
    assert probe.probed == [works[0], works[2]]  # N = 64, then N = 256; never N = 1024
    assert wanted_paces(groups, paces) == 2
    far = beyond_probes(groups, paces)
    assert sorted(g.specs[0].config.dim for g in far) == [512, 1024]
    assert probe_estimate(far[0], paces[0]) > PROBE_BUDGET_S


def test_a_cheap_experiment_still_probes_its_largest_group():
    groups = _groups("[64, 1024]")
    probe = LinearProbe(1e-6)
    paces = probe_groups(groups, None, "cpu", probe)
    assert len(probe.probed) == 2 and max(probe.probed) == max(group_work(g.specs) for g in groups)
    assert beyond_probes(groups, paces) == []


def test_no_larger_group_fits_gives_one_probe():
    groups = _groups("[64, 1024]")
    probe = LinearProbe(1e6)  # even the smallest probe is over the budget
    paces = probe_groups(groups, None, "cpu", probe)
    assert len(paces) == 1 and wanted_paces(groups, paces) == 1
    assert [g.specs[0].config.dim for g in beyond_probes(groups, paces)] == [1024]


def test_times_of_the_two_parts_are_projected_exactly_and_extrapolation_has_a_range():
    groups = _groups("[2, 64, 256, 1024]")
    probe = LinearProbe(PROBE_BUDGET_S / 4.0)  # N = 1024 (two runs) does not fit
    paces = probe_groups(groups, None, "cpu", probe)
    assert len(paces) == 2
    for g in groups:
        c = g.specs[0].config
        exact = (
            _true(g.specs, "fixed_s")
            + c.steps * _true(g.specs, "step_s")
            + (len(c.eval_steps()) - 1) * _true(g.specs, "eval_s")
        )
        low, mid, high = group_span(g, paces)
        assert mid == pytest.approx(exact, rel=1e-9) and group_seconds(g, paces) == mid
        if g in beyond_probes(groups, paces):
            top = max(paces, key=lambda p: p.work)
            scale = group_work(g.specs) / top.work
            other = scale * (top.fixed_s + c.steps * top.step_s)
            other += scale * (len(c.eval_steps()) - 1) * top.eval_s
            assert (low, high) == pytest.approx(sorted((mid, other)), rel=1e-9)
            assert high > low
        else:
            assert low == mid == high
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
