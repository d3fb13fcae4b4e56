"""Paces from committed runs (`lejepa_id.sweeps.committed`): the table, its lookups and
the projection they give, on known answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lejepa_id.config.experiments import load_experiment
from lejepa_id.sweeps.committed import (
    TABLE,
    Table,
    collect,
    load_table,
    project_reacher,
    project_synthetic,
    source_root,
)
from lejepa_id.sweeps.paper import ReacherPart, configs_dir, reacher_sizes


def test_every_row_of_the_committed_table_is_what_a_committed_result_gives() -> None:
    """No number in the table that the committed results and benchmarks do not hold. The
    table is a snapshot: runs committed after it (a resumed sweep adding worlds) are not in
    it until `python -m lejepa_id.sweeps.committed --write` (and docs/overnight.md's
    projection with it) is regenerated, but a row whose source changed or vanished fails."""
    committed = json.loads((source_root() / TABLE).read_text())
    fresh = collect()
    assert {k: v for k, v in committed.items() if k != "rows"} == {
        k: v for k, v in fresh.items() if k != "rows"
    }
    stale = [row for row in committed["rows"] if row not in fresh["rows"]]
    assert not stale, f"run: python -m lejepa_id.sweeps.committed --write ({stale[0]})"
    kinds = {r["kind"] for r in committed["rows"]}
    assert kinds == {"group", "bench", "reacher", "render"}


def _group(run: str, wall: float, threads: int = 1, inits: int = 1, dim: int = 2) -> dict:
    config = {
        "encoder": "mlp",
        "mode": "lejepa",
        "dim": dim,
        "transition": "ou",
        "steps": 1000,
        "inits": inits,
        "inits_max_dim": 32,
    }
    return {
        "status": "finished",
        "config": config,
        "wall_time_s": wall,
        "threads": threads,
        "device": "cpu",
        "name": run,
    }


def _write(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def test_collect_keeps_only_groups_trained_together_on_one_thread(tmp_path: Path) -> None:
    sweep = tmp_path / "results" / "exp"
    groups = [["a", "b"], ["c", "d"], ["e"], ["f"]]
    _write(sweep / "sweep.json", {"groups": groups})
    _write(sweep / "a" / "result.json", _group("a", 100.0, inits=3))
    _write(sweep / "b" / "result.json", _group("b", 100.5, inits=3))
    _write(sweep / "c" / "result.json", _group("c", 100.0))
    _write(sweep / "d" / "result.json", _group("d", 150.0))  # resumed: not one group
    _write(sweep / "e" / "result.json", _group("e", 80.0, threads=2))  # 2 threads
    _write(sweep / "f" / "result.json", _group("f", 40.0, inits=3, dim=64))  # 1 init > 32
    rows = collect(tmp_path)["rows"]
    assert [(r["members"], r["wall_s"], r["dim"]) for r in rows] == [(6, 100.5, 2), (1, 40.0, 64)]
    assert rows[0]["source"] == "results/exp/a/result.json"


def test_collect_reads_only_the_folders_it_is_given(tmp_path: Path) -> None:
    """`bases` narrows the table to one results folder (benchmarks/projection_check.py
    projects a budget again from its own runs' rows)."""
    for name, wall in (("mine", 100.0), ("other", 300.0)):
        sweep = tmp_path / "results" / name / "exp"
        _write(sweep / "sweep.json", {"groups": [["a"]]})
        _write(sweep / "a" / "result.json", _group("a", wall))
    everything = collect(tmp_path)["rows"]
    mine = collect(tmp_path, bases=("results/mine",), bench=False)["rows"]
    assert sorted(r["wall_s"] for r in everything) == [100.0, 300.0]
    assert [(r["wall_s"], r["source"]) for r in mine] == [(100.0, "results/mine/exp/a/result.json")]


def _table(*rows: dict) -> Table:
    return Table(tuple(rows), "test")


def _row(encoder: str, mode: str, dim: int, wall: float, members: int = 1, steps: int = 1000):
    return {
        "kind": "group",
        "encoder": encoder,
        "mode": mode,
        "dim": dim,
        "transition": "ou",
        "members": members,
        "steps": steps,
        "wall_s": wall,
        "source": "x",
    }


def test_class_paces_take_their_n_else_the_next_larger_never_a_smaller() -> None:
    table = _table(
        _row("matched", "lejepa", 4, 4.0),  # 4 ms a member-step
        _row("matched", "lejepa", 4, 8.0, members=2),  # also 4 ms
        _row("matched", "lejepa", 64, 20.0),
        _row("matched", "whiten", 4, 1.0),
        _row("mlp", "lejepa", 2, 12.0, members=3),
    )
    at4 = table.class_paces("matched", "lejepa", 4, "ou")
    assert at4 is not None and (at4.low, at4.mid, at4.high, at4.rows) == (0.004, 0.004, 0.004, 2)
    at8 = table.class_paces("matched", "lejepa", 8, "ou")  # the next larger N measured
    assert at8 is not None and at8.mid == pytest.approx(0.02) and "N=64" in at8.what
    # whiten has no row at N >= 16: a matched encoder takes lejepa's (the dearest)
    w16 = table.class_paces("matched", "whiten", 16, "ou")
    assert w16 is not None and w16.mid == pytest.approx(0.02) and "lejepa" in w16.what
    assert table.class_paces("matched", "lejepa", 128, "ou") is None  # nothing larger
    assert table.class_paces("mlp", "whiten", 2, "ou") is None  # an mlp never borrows
    assert table.class_paces("mlp", "lejepa", 2, "linear_action") is None


def test_a_projection_is_members_times_steps_at_the_pace_on_two_workers() -> None:
    # 2 ms a member-step: a 20,000-step run is 40 s; four runs on 2 workers, 80 s.
    table = _table(_row("mlp", "lejepa", 2, 2.0), _row("mlp", "lejepa", 2, 6.0))
    sets = ["lambs=[1.0e-3, 1.0e-2]", "rhos=[0.5, 0.95]", "seeds=[0]"]
    specs = load_experiment(configs_dir() / "grid.yaml", sets).expand()
    proj = project_synthetic(specs, table, jobs=2)
    assert proj.runs == 4 and proj.missing == ()
    assert (proj.low, proj.mid, proj.high) == pytest.approx((80.0, 160.0, 240.0))
    one = project_synthetic(specs, table, jobs=1)
    assert one.mid == pytest.approx(320.0)


def test_a_group_without_a_pace_is_unknown_never_guessed() -> None:
    specs = load_experiment(configs_dir() / "grid.yaml", ["lambs=[1.0e-3]", "rhos=[0.5]"]).expand()
    proj = project_synthetic(specs, _table(_row("matched", "lejepa", 2, 1.0)), jobs=2)
    assert proj.mid is None and proj.missing == ("mlp lejepa N=2 ou",)


def test_reacher_projection_renders_then_trains_the_runs_on_the_workers() -> None:
    rows = (
        {"kind": "reacher", "size": 32, "look": "fast", "batch": 256, "steps": 100, "wall_s": 50},
        {"kind": "render", "size": 32, "look": "fast", "frames": 1000, "wall_s": 1.0},
    )
    part = ReacherPart(size=32, look="fast", pairs=2560, epochs=10, batch=256, seeds=(0, 1))
    sizes = reacher_sizes(part)
    # 10 epochs of 10 steps at 0.5 s: 50 s a run; 3 runs on 2 workers: 100 s; 4,000 frames.
    proj = project_reacher(sizes, 3, 4000, _table(*rows), jobs=2)
    assert proj.mid == pytest.approx(4.0 + 100.0) and proj.steps == "100"
    missing = project_reacher(sizes, 3, 0, _table(rows[1]), jobs=2)
    assert missing.mid is None and missing.missing == ("cnn 32x32 batch 256",)


def test_an_unreadable_table_is_one_line(tmp_path: Path) -> None:
    from lejepa_id.errors import UsageError

    with pytest.raises(UsageError, match="pace table"):
        load_table(tmp_path / "missing.json")
