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
