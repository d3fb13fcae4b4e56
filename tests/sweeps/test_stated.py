"""Another device's paces (``--dry-run --pace-from``): the shipped table holds only
numbers a committed measurement file holds, the interpolation gives a measured group its
measured pace and brackets the others, and bad sources are one line naming the flag."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lejepa_id.cli.main import main
from lejepa_id.config.experiments import RunSpec
from lejepa_id.sweeps.pace import group_work
from lejepa_id.sweeps.paper import format_duration
from lejepa_id.sweeps.plan import Group
from lejepa_id.sweeps.stated import (
    Point,
    Stated,
    bench_cases,
    load_stated,
    project_groups,
    table_rows,
)

ROOT = Path(__file__).resolve().parents[2]
H200 = ROOT / "benchmarks" / "results" / "h200-2026-11-30" / "bench_train_cuda.json"


def test_every_row_of_a_shipped_table_is_a_row_of_its_committed_measurement() -> None:
    table = table_rows("h200")
    assert table["rows"]
    for row in table["rows"]:
        measured = json.loads((ROOT / row["source"]).read_text())
        same = [m for m in measured if all(m.get(k) == v for k, v in row.items() if k != "source")]
        assert len(same) == 1, row


def _group(cfg, steps: int, members: int = 1) -> Group:
    cfg.steps = steps
    return Group(0, [RunSpec("e", f"r{i}", {}, cfg) for i in range(members)])


def test_a_measured_group_gets_its_measured_pace() -> None:
    stated = load_stated(str(H200))
    assert stated.device_type == "cuda"
    two_d = _group(bench_cases(20_000)["2d"], 20_000)
    low, mid, high = project_groups([two_d], stated, jobs=4)
    assert (low, mid, high) == pytest.approx((20_000 / 200.1,) * 3)


def test_between_and_beyond_the_points_the_range_brackets_the_projection() -> None:
    a, b = Point(1.0, 0.01, "a"), Point(10.0, 0.02, "b")
    stated = Stated("dev", "cuda", (a, b), "test")
    low, mid, high = stated.step_s(10**0.5)
    assert mid == pytest.approx(0.01 * 2**0.5)  # half-way in log-log
    assert (low, high) == (0.01, 0.02)  # no faster than a, no slower than b
    low, mid, high = stated.step_s(100.0)  # beyond b: b's slope, at most proportional
    assert low == 0.02 and mid == pytest.approx(0.02 * 10 ** (0.30103), rel=1e-4)
    assert high == pytest.approx(0.2)
    low, mid, high = stated.step_s(0.5)  # below a: no slower than a
    assert (low, mid, high) == (0.005, 0.01, 0.01)


def test_the_high_end_runs_the_groups_one_after_another() -> None:
    stated = Stated(
        "dev", "cuda", (Point(group_work(_group(bench_cases(1)["2d"], 1).specs), 0.01, "p"),), "t"
    )
    groups = [_group(bench_cases(1)["2d"], 100) for _ in range(4)]
    low, mid, high = project_groups(groups, stated, jobs=4)
    assert (low, mid, high) == pytest.approx((1.0, 1.0, 4.0))


def test_sweep_dry_run_projects_on_the_stated_device(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    argv = ["sweep", "2d", "--out", str(out), "--dry-run", "--pace-from", "h200"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    (line,) = [x for x in text.splitlines() if "projected on NVIDIA H200" in x]
    assert "range" in line and "not a measurement" in line
    assert not out.exists()


def test_paper_dry_run_projects_on_the_stated_device(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    argv = ["paper", "--budget", "full", "--dry-run", "--out", str(out), "--pace-from", "h200"]
    assert main([*argv, "--only", "2d", "reacher"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("device NVIDIA H200 (paces from table 'h200')")
    row = next(x for x in lines if x.startswith("2d "))
    assert row.split()[1:4] == ["24", row.split()[2], "20,000"] and " to " in row
    assert any(x.startswith("reacher ") and "no Reacher pace stated" in x for x in lines)
    assert any("reacher not included" in x for x in lines)
    assert not out.exists()


def _write(tmp_path: Path, data) -> str:
    path = tmp_path / "paces.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


@pytest.mark.parametrize(
    ("source", "needle"),
    [
        (lambda t: str(t / "missing.json"), "no such file"),
        (lambda t: _write(t, "{not json"), "not readable JSON"),
        (lambda t: _write(t, {"rows": 3}), "list of benchmark rows"),
        (lambda t: _write(t, []), "holds no rows"),
        (lambda t: _write(t, [{"case": "N7", "steps_per_s": 3}]), "case 'N7'"),
        (lambda t: _write(t, [{"case": "2d", "steps_per_s": -3}]), "steps_per_s=-3"),
        (lambda t: _write(t, [{"case": "2d", "steps_per_s": "fast"}]), "no number"),
        (lambda t: _write(t, [{"what": 1}]), "neither"),
        (lambda t: "h100", "no such file"),
    ],
)
@pytest.mark.parametrize("command", ["sweep", "paper"])
def test_a_bad_pace_source_is_one_line_naming_the_flag(
    tmp_path: Path, capsys, source, needle, command
) -> None:
    out = tmp_path / "out"
    given = source(tmp_path)
    head = ["sweep", "2d"] if command == "sweep" else ["paper", "--budget", "smoke", "--only", "2d"]
    rc = main([*head, "--out", str(out), "--dry-run", "--pace-from", given])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1, err
    assert f"--pace-from {given}:" in err[0] and needle in err[0]
    assert not out.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["sweep", "2d", "--pace-from", "h200"],
        ["sweep", "2d", "--probe"],
        ["paper", "--budget", "smoke", "--pace-from", "h200"],
    ],
)
def test_a_projection_flag_without_dry_run_is_refused(tmp_path: Path, capsys, argv) -> None:
    rc = main([*argv, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "--dry-run" in err[0]
    assert not (tmp_path / "out").exists()


REACHER_ROW = {
    "reacher": "cnn",
    "device": "cpu",
    "size": 32,
    "look": "fast",
    "batch": 64,
    "images_per_s": 256.0,
    "frames_per_s": 100.0,
    "encoded_per_s": 1000.0,
    "render_processes": 4,
}


def test_a_stated_reacher_pace_projects_the_reacher_row_without_a_probe(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    from lejepa_id.reacher import pace as reacher_pace

    def no_probe(*args, **kwargs):
        raise AssertionError("a stated Reacher pace was probed")

    monkeypatch.setattr(reacher_pace, "probe_reacher", no_probe)
    source = _write(tmp_path, {"device": "a test CPU", "rows": [REACHER_ROW]})
    argv = ["paper", "--budget", "smoke", "--dry-run", "--out", str(tmp_path / "out")]
    assert main([*argv, "--only", "2d", "reacher", "--pace-from", source, "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    row = next(x for x in lines if x.startswith("reacher "))
    # 2 epochs x 2 steps of 64 pairs at 256 images/s (0.5 s a step), 368 frames encoded
    # at 1,000/s, 10 runs one after another; 1,520 frames rendered on 4 processes at 100/s.
    seconds = 1520 / (100 * 4) + 10 * (4 * 0.5 + 368 / 1000)
    assert row.split()[1:6] == ["10", "10", "4", *format_duration(seconds).split()]
    assert "cnn 32x32 batch 64 on a test CPU: 256 images/s trained" in row
    assert "stated; render 1,520 frames on 4 processes" in row
    assert any(x.startswith("2d ") and "no synthetic pace stated" in x for x in lines)
    assert any("(2d not included)" in x for x in lines)
    # A row of other sizes states nothing for the cpu budget's batch of 256.
    assert main(["paper", "--budget", "cpu", "--dry-run", "--out", str(tmp_path / "out"),
                 "--only", "reacher", "--pace-from", source]) == 0  # fmt: skip
    lines = capsys.readouterr().out.splitlines()
    assert any("no Reacher pace stated for cnn 32x32 batch 256 (fast look)" in x for x in lines)


def test_a_sweep_dry_run_from_reacher_rows_only_says_what_is_not_projected(
    tmp_path: Path, capsys
) -> None:
    source = _write(tmp_path, [REACHER_ROW])
    argv = ["sweep", "2d", "--out", str(tmp_path / "out"), "--dry-run", "--pace-from", source]
    assert main(argv) == 0
    assert "states no pace of a synthetic group" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"reacher": "vit"}, "not 'cnn'"),
        ({"size": 0}, "size=0"),
        ({"batch": "64"}, "batch='64'"),
        ({"look": ""}, "look=''"),
        ({"render_processes": None}, "render_processes=None"),
        ({"images_per_s": -1}, "images_per_s=-1"),
        ({"encoded_per_s": "fast"}, "no number 'encoded_per_s'"),
    ],
)
def test_a_bad_reacher_row_is_one_line_naming_the_flag(
    tmp_path: Path, capsys, change, needle
) -> None:
    given = _write(tmp_path, [REACHER_ROW | change])
    argv = ["paper", "--budget", "smoke", "--only", "reacher", "--dry-run"]
    rc = main([*argv, "--out", str(tmp_path / "out"), "--pace-from", given])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1, err
    assert f"--pace-from {given}:" in err[0] and needle in err[0]
