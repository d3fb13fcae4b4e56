"""A dry run's paces are stored and reused: a group probed once is not probed again on the
same device (a second projection costs no probe and reads the same paces), a changed
group or device is probed anew, and the spread of repeated timings bounds the projection."""

from __future__ import annotations

from pathlib import Path

from lejepa_id.config.experiments import load_experiment
from lejepa_id.sweeps.pace import Pace, PaceStore, probe_groups, spread
from lejepa_id.sweeps.plan import plan_groups

CONFIG = Path(__file__).parents[2] / "configs" / "2d.yaml"


def _groups(*sets: str):
    specs = load_experiment(CONFIG, ["steps=30", "seeds=[0]", *sets]).expand()
    return plan_groups(specs, "cpu", 1)


class Probe:
    """Stands in for the timing: counts the groups it is asked to measure."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, specs, what) -> Pace:
        self.calls.append(what)
        return Pace(what, 1.0, step_s=0.01, fixed_s=1.0, eval_s=0.1, probe_s=2.0, step_hi_s=0.013)


def test_a_probed_group_is_reused_and_not_probed_again(tmp_path):
    path = tmp_path / "paces.json"
    groups = _groups()
    probe = Probe()
    first = probe_groups(groups, PaceStore(path), "2 CPU cores", probe)
    assert probe.calls and len(probe.calls) == len(first)
    assert all(p.stored == "" and "steps/s measured" in p.line() for p in first)
    again = probe_groups(groups, PaceStore(path), "2 CPU cores", probe)
    assert len(probe.calls) == len(first)  # nothing probed the second time
    assert [p.step_s for p in again] == [p.step_s for p in first]
    assert all(p.stored and "stored, measured" in p.line() for p in again)
    # Another device, or another group (a different width), is measured anew.
    probe_groups(groups, PaceStore(path), "NVIDIA H200", probe)
    assert len(probe.calls) == 2 * len(first)
    probe_groups(_groups("hidden=32"), PaceStore(path), "2 CPU cores", probe)
    assert len(probe.calls) > 2 * len(first)


def test_the_key_ignores_seeds_and_lengths_only():
    base = _groups()[0].specs
    seeds = plan_groups(load_experiment(CONFIG, ["steps=500", "seeds=[7]"]).expand(), "cpu", 1)[
        0
    ].specs
    assert PaceStore.key(base, "cpu") == PaceStore.key(seeds, "cpu")
    assert PaceStore.key(base, "cpu") != PaceStore.key(base, "cuda")
    assert PaceStore.key(base, "cpu") != PaceStore.key(_groups("batch=64")[0].specs, "cpu")


def test_a_broken_or_unwritable_store_only_costs_a_probe(tmp_path):
    path = tmp_path / "paces.json"
    path.write_text("{not json")
    store = PaceStore(path)
    assert store.paces == {}
    blocked = tmp_path / "file"
    blocked.write_text("")
    probe = Probe()
    # A store below a regular file cannot be written: the pace is still returned.
    (pace,) = probe_groups(_groups("runs=[spiral_lejepa]"), PaceStore(blocked / "p.json"),
                           "cpu", probe)  # fmt: skip
    assert pace.step_s == 0.01 and len(probe.calls) == 1


def test_spread_is_the_slowest_repeated_timing_over_the_one_used():
    def pace(step, hi):
        return Pace("g", 1.0, step, 0.0, 0.0, 0.0, hi)

    assert spread([]) == 1.0
    assert spread([pace(0.01, 0.0)]) == 1.0  # not repeated
    assert spread([pace(0.01, 0.013), pace(0.02, 0.05)]) == 2.5


class Clock:
    """A fake ``time`` for the probe: trainings advance it by known costs."""

    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now

    def strftime(self, *args):  # PaceStore.put dates the pace
        import time

        return time.strftime(*args)


SETUP, STEP, EVAL, SCATTER = 0.5, 0.01, 0.2, 0.3


def test_the_probe_recovers_known_costs_from_three_short_trainings(monkeypatch) -> None:
    """A training that costs SETUP, STEP per step, EVAL per full evaluation (a cheap one
    costs nothing) and SCATTER at the end: the probe reads them back from the timestamps
    of three trainings (the earlier probe trained eight times)."""
    from lejepa_id.sweeps import pace
    from lejepa_id.training import trainer

    clock = Clock()
    calls = []

    def fake_train(cfgs, progress=True, on_eval=None, **kw):
        c = cfgs[0]
        calls.append(c.steps)
        cheap = c.scatter == 0
        clock.now += SETUP
        done = 0
        for at in c.eval_steps():
            clock.now += (at - done) * STEP + (0.0 if cheap else EVAL)
            done = at
            on_eval(at, [{}] * len(cfgs))
        clock.now += 0.0 if cheap else SCATTER

    monkeypatch.setattr(pace, "time", clock)
    monkeypatch.setattr(trainer, "train", fake_train)
    (group,) = _groups("runs=[spiral_lejepa]")
    got = pace.probe_group(group.specs, "g")
    assert len(calls) == 3
    assert abs(got.step_s - STEP) < 1e-12 and abs(got.step_hi_s - STEP) < 1e-12
    assert abs(got.eval_s - EVAL) < 1e-12
    assert abs(got.fixed_s - (SETUP + EVAL + SCATTER)) < 1e-12
    # The long trainings take about TARGET_S of steps: m steps per gap, 2 m in all.
    assert calls[1] == 2 * round(pace.TARGET_S / (2 * STEP))


def test_a_slower_second_gap_is_the_spread(monkeypatch) -> None:
    from lejepa_id.sweeps import pace
    from lejepa_id.training import trainer

    clock = Clock()

    def fake_train(cfgs, progress=True, on_eval=None, **kw):
        c = cfgs[0]
        done = 0
        for at in c.eval_steps():
            # Steps after the m-th are twice as slow (another process took the core).
            slow = 2.0 if c.steps > 4 and done >= c.steps // 2 else 1.0
            clock.now += (at - done) * STEP * slow
            done = at
            on_eval(at, [{}])

    monkeypatch.setattr(pace, "time", clock)
    monkeypatch.setattr(trainer, "train", fake_train)
    (group,) = _groups("runs=[spiral_lejepa]")
    got = pace.probe_group(group.specs[:1], "g")
    assert abs(got.step_hi_s / got.step_s - 2.0) < 1e-9
    assert spread([got]) == got.step_hi_s / got.step_s
