"""`lejepa-id paper`: the budgets as data, bad input, and the dry run's plan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lejepa_id.cli.main import main
from lejepa_id.sweeps.pace import makespan
from lejepa_id.sweeps.paper import (
    BEYOND,
    BUDGET_NAMES,
    BUDGETS,
    DOUBLED,
    EXPERIMENTS,
    ReacherPart,
    budget_record,
    format_duration,
    part_sweep,
    reacher_sizes,
)


@pytest.mark.parametrize("name", BUDGET_NAMES)
def test_every_budget_covers_every_experiment_and_loads(name: str) -> None:
    budget = BUDGETS[name]
    # The cpu budget's beyond runs are too short to judge a claim: it plans no doubling.
    doubled = set() if name == "cpu" else set(DOUBLED)
    assert set(budget.parts) == {*EXPERIMENTS, *BEYOND, *doubled}
    record = budget_record(budget, list(budget.parts))
    for exp, entry in record["experiments"].items():
        assert entry["budget"]["runs"] >= 1, exp
        if name == "full":
            assert entry["shortfalls"] == [], exp  # full is the shipped configs unchanged


# The full budget's sizes, counted by hand from the configs (runs x sweep axes x seeds):
# comparing the budget with the paper's summary alone would compare one function with
# itself, since both are read from the same file.
FULL = {
    "2d": (24, 20_000, 24),  # 8 runs x 3 seeds
    "gennorm": (324, 20_000, 324),  # 12 runs x 9 alphas x 3 seeds
    "scaling": (150, 20_000, 300),  # 3 objectives x 10 dims x 5 seeds; dims <= 32 best of 3
    "grid": (189, 20_000, 189),  # 9 lambdas x 7 rhos x 3 seeds
    "anisotropic": (360, 20_000, 360),  # 8 runs x 15 (rho_1, rho_rest) pairs x 3 seeds
    "codedim": (54, 20_000, 54),  # 18 runs x 3 seeds
    "action": (12, 20_000, 12),  # 4 runs x 3 seeds
}


@pytest.mark.parametrize("name", ["smoke", "overnight", "full"])
def test_a_doubled_family_trains_the_same_runs_twice_as_long(name: str) -> None:
    """The ``<family>_x2`` part: the family's config and overrides, steps doubled, its own
    folder, and run ids equal to the family's (the claims join them by id)."""
    from lejepa_id.config.experiments import load_experiment

    budget = BUDGETS[name]
    for family in BEYOND:
        base = load_experiment(*part_sweep(budget, family)).expand()
        long = load_experiment(*part_sweep(budget, f"{family}_x2")).expand()
        assert {s.experiment for s in long} == {f"{family}_x2"}
        assert {s.config.steps for s in long} == {2 * base[0].config.steps}
        by_id = {s.run_id: s.config for s in base}
        assert long and all(s.run_id in by_id for s in long), family
        for s in long:
            same = by_id[s.run_id]
            assert (s.config.seed, s.config.mixing, s.config.dim) == (
                same.seed,
                same.mixing,
                same.dim,
            )
        if name != "smoke":
            assert {s.config.seed for s in long} == {1}
            assert len(long) == len(base) // 3  # one of 3 seeds


def test_the_full_budget_is_the_papers_size() -> None:
    record = budget_record(BUDGETS["full"], list(FULL))
    for exp, (runs, steps, encoders) in FULL.items():
        got = record["experiments"][exp]["budget"]
        assert (got["runs"], got["steps"], got["encoders"]) == (runs, steps, encoders), exp


def test_cpu_budget_never_shortens_silently() -> None:
    """Fewer steps (or epochs) than the paper's must be said in the reason, in capitals;
    the paper's synthetic experiments run at full length."""
    record = budget_record(BUDGETS["cpu"], [*EXPERIMENTS, *BEYOND])
    for exp, entry in record["experiments"].items():
        short = [s for s in entry["shortfalls"] if s.startswith(("steps ", "epochs "))]
        if short:
            assert "FEWER" in entry["why"], (exp, entry["why"])
        if exp in ("2d", "gennorm", "scaling", "grid"):
            assert entry["budget"]["steps"] == entry["paper"]["steps"] == 20_000, exp
        assert entry["why"], exp


def test_smoke_budget_keeps_every_code_path() -> None:
    """The smoke budget still runs every mixing and objective of the 2d experiment,
    best of K, several laws and both Reacher sweeps."""
    record = budget_record(BUDGETS["smoke"], list(EXPERIMENTS))
    e = record["experiments"]
    assert e["2d"]["budget"]["settings"] == e["2d"]["paper"]["settings"]
    assert e["scaling"]["budget"]["inits"] == 3
    sizes = reacher_sizes(BUDGETS["smoke"].parts["reacher"])
    assert len(sizes.rhos) >= 2 and len(sizes.deltas) >= 2
    assert "traj" in sizes.traj_kinds
    assert {d["kind"] for d in sizes.datasets().values()} == {"eval", "ou", "traj", "trajmatch"}
    # The grid's datasets are the sweeps' at the paper's rho and delta: rendered once.
    assert set(sizes.grid_labels().values()) <= set(sizes.datasets())


def test_full_reacher_is_the_config() -> None:
    part = BUDGETS["full"].parts["reacher"]
    assert isinstance(part, ReacherPart)
    sizes = reacher_sizes(part)
    assert (sizes.size, sizes.pairs, sizes.epochs, sizes.look) == (64, 100_000, 100, "paper")
    assert sizes.grid_runs == 3 * 4 * 3


def test_makespan_and_durations() -> None:
    assert makespan([3.0, 3.0, 2.0, 2.0, 2.0], 2) == 7.0
    assert makespan([], 4) == 0.0
    assert format_duration(42) == "42 s"
    assert format_duration(7260) == "2 h 01 min"


def _error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--budget", "huge"], "huge"),
        (["--budget", "smoke", "--only", "nope"], "nope"),
        (["--budget", "smoke", "--only", "action"], "--beyond"),
        (["--budget", "smoke", "--jobs", "0"], "--jobs"),
        (["--budget", "smoke", "--partition", "gpu"], "--partition"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path: Path, capsys, argv, needle) -> None:
    out = tmp_path / "out"
    try:
        rc = main(["paper", *argv, "--out", str(out)])
    except SystemExit as exc:  # argparse's choices (--budget) exit from the parser
        rc = exc.code
    assert rc == 2
    assert needle in _error_line(capsys)
    assert not out.exists()


def test_out_of_another_budget_is_refused(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "budget.json").write_text(json.dumps({"budget": "cpu", "experiments": {}}))
    rc = main(["paper", "--budget", "smoke", "--out", str(out), "--only", "grid"])
    assert rc == 2
    assert "'cpu'" in _error_line(capsys)
    assert sorted(p.name for p in out.iterdir()) == ["budget.json"]


def test_dry_run_prints_plan_and_projection_writes_nothing(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    rc = main(["paper", "--budget", "smoke", "--only", "grid", "--dry-run", "--out", str(out)])
    assert rc == 0
    lines = capsys.readouterr().out.splitlines()
    row = next(line for line in lines if line.startswith("grid "))
    runs, stacks, steps = row.split()[1:4]
    assert (runs, steps) == ("4", "30")
    assert int(stacks) >= 1
    assert "steps/s measured" in row
    assert any(line.startswith("Projected wall times, not measurements") for line in lines)
    assert not out.exists()


def test_a_second_dry_run_reuses_the_stored_paces_and_probes_nothing(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    from lejepa_id.sweeps import pace

    argv = ["paper", "--budget", "smoke", "--only", "grid", "--dry-run", "--out", str(tmp_path)]
    assert main(argv) == 0
    first = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("grid "))

    def no_probe(*args):
        raise AssertionError("a stored pace was probed again")

    monkeypatch.setattr(pace, "probe_group", no_probe)
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    again = next(line for line in lines if line.startswith("grid "))
    assert "steps/s stored, measured 20" in again
    assert again.split()[4] == first.split()[4]  # the same projection from the same paces
    assert any("stored in" in line and "delete it to measure again" in line for line in lines)


def test_budget_file_keeps_the_experiments_of_earlier_only_runs(tmp_path: Path) -> None:
    # `paper --only 2d gennorm` then `--only grid` into one folder: the report judges all
    # of its runs, so budget.json must describe all three, in the paper's order.
    from lejepa_id.cli.paper import budget_names
    from lejepa_id.records.io import atomic_write_json
    from lejepa_id.sweeps.paper import BUDGET_FILE, BUDGETS, budget_record

    cpu = BUDGETS["cpu"]
    assert budget_names(tmp_path, cpu, ["grid", "2d"]) == ["2d", "grid"]
    atomic_write_json(tmp_path / BUDGET_FILE, budget_record(cpu, ["2d", "gennorm"]))
    assert budget_names(tmp_path, cpu, ["grid"]) == ["2d", "gennorm", "grid"]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--executor", "slurm"], "sbatch"),
        (["--device", "cuda"], "cuda"),
        (["--executor", "submitit-local", "--time", "-5"], "--time=-5"),
        (["--executor", "submitit-local", "--time", "0"], "--time=0"),
    ],
)
def test_executor_and_device_are_refused_before_out_is_made(
    tmp_path: Path, capsys, monkeypatch, argv, needle
) -> None:
    import shutil

    import torch

    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    out = tmp_path / "out"
    rc = main(["paper", "--budget", "smoke", "--only", "grid", "--out", str(out), *argv])
    assert rc == 2
    assert needle in _error_line(capsys)
    assert not out.exists()


@pytest.mark.parametrize(
    "content", ['{"budget": "smoke", "experiments": null}', '{"budget": "smoke"}', "[1, 2]"]
)
def test_unusable_budget_file_is_refused_before_any_run(
    tmp_path: Path, capsys, content: str
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "budget.json").write_text(content)
    rc = main(["paper", "--budget", "smoke", "--out", str(out), "--only", "grid"])
    assert rc == 2
    assert "not a budget file" in _error_line(capsys)
    assert sorted(p.name for p in out.iterdir()) == ["budget.json"]


def test_budget_file_that_is_a_folder_is_refused_before_any_run(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    (out / "budget.json").mkdir(parents=True)
    rc = main(["paper", "--budget", "smoke", "--out", str(out), "--only", "grid"])
    assert rc == 2
    assert "budget.json" in _error_line(capsys)
    assert sorted(p.name for p in out.iterdir()) == ["budget.json"]


@pytest.mark.parametrize("dry", [["--dry-run"], []])
def test_out_that_is_a_file_is_refused(tmp_path: Path, capsys, dry: list[str]) -> None:
    out = tmp_path / "out.txt"
    out.write_text("keep me")
    rc = main(["paper", "--budget", "smoke", "--only", "grid", "--out", str(out), *dry])
    assert rc == 2
    assert "is a file" in _error_line(capsys)
    assert out.read_text() == "keep me"


def _paper_process(out: Path):
    import os
    import subprocess
    import sys

    src = str(Path(__file__).parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": src, "LEJEPA_ID_CHECKPOINT_EVERY": "16"}
    argv = [sys.executable, "-m", "lejepa_id", "paper", "--budget", "smoke", "--only", "2d"]
    argv += ["--out", str(out), "--no-progress", "--device", "cpu", "--jobs", "1"]
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _wait_for(condition, process, what: str, limit: float = 300) -> None:
    import time

    deadline = time.monotonic() + limit
    while not condition():
        assert process.poll() is None, f"paper ended before {what}: {process.stderr.read()}"
        assert time.monotonic() < deadline, f"no {what} in {limit} s"
        time.sleep(0.05)


@pytest.mark.slow
def test_paper_refuses_a_second_paper_and_survives_sigterm_and_sigkill(tmp_path, capsys):
    import signal

    out = tmp_path / "paper"
    lock = out / ".sweep.lock"
    first = _paper_process(out)
    # The sweep of 2d has begun: the folder's lock is held and training is under way.
    _wait_for(lambda: (out / "2d" / ".sweep.lock").exists(), first, "2d sweep")
    argv = ["paper", "--budget", "smoke", "--only", "2d", "--out", str(out), "--no-progress"]
    assert main([*argv, "--device", "cpu"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"another paper (pid {first.pid}) is writing into {out}" in err[0]
    first.send_signal(signal.SIGTERM)
    assert first.wait(timeout=120) == 143
    assert "interrupted (SIGTERM)" in first.stderr.read().decode()
    assert not lock.exists()  # the lock goes with its holder

    second = _paper_process(out)
    _wait_for(lambda: any((out / "2d").glob("*/result.json")), second, "a finished run")
    second.send_signal(signal.SIGKILL)
    second.wait(timeout=60)
    done_before = len(list((out / "2d").glob("*/result.json")))
    # The lock of a killed holder never blocks: the third paper resumes and finishes.
    assert main([*argv, "--device", "cpu", "--jobs", "1"]) == 0
    printed = capsys.readouterr().out
    assert f"{done_before} already done" in printed
    runs = (out / "runs.csv").read_text().splitlines()
    assert len(runs) - 1 == len(list((out / "2d").glob("*/result.json"))) > done_before
    assert (out / "report.html").is_file() and not lock.exists()
    assert not list(out.rglob(".*.tmp"))


# --- the overnight budget ---------------------------------------------------------------

# Its sizes counted by hand from its --set overrides and the configs.
OVERNIGHT = {
    "2d": (15, 20_000, 15),  # the 5 settings published_2d reads x 3 seeds
    "gennorm": (36, 20_000, 36),  # 4 lejepa runs x 3 alphas x 3 seeds
    # 3 objectives x 6 dims x 3 seeds; N = 2..16 best of 3 (108 encoders), 64 and 256 one
    "scaling": (54, 20_000, 4 * 3 * 3 * 3 + 2 * 3 * 3),
    "grid": (18, 20_000, 18),  # 3 lambdas x 3 rhos x 2 seeds
    "anisotropic": (24, 20_000, 24),  # 2 runs x 4 cells x 3 seeds
    "codedim": (15, 20_000, 15),  # 5 runs x 3 seeds
    "action": (6, 20_000, 6),  # 2 runs x 3 seeds
}


def test_the_overnight_budget_runs_every_synthetic_experiment_at_full_length() -> None:
    record = budget_record(BUDGETS["overnight"], [*EXPERIMENTS, *BEYOND])
    assert record["budget"] == "overnight" and record["judges"] is True
    for exp, (runs, steps, encoders) in OVERNIGHT.items():
        got = record["experiments"][exp]["budget"]
        assert (got["runs"], got["steps"], got["encoders"]) == (runs, steps, encoders), exp
        assert got["steps"] == record["experiments"][exp]["paper"]["steps"], exp
        assert got["seeds"] >= 2, exp  # every claim's statistic needs a seed spread
    part = BUDGETS["overnight"].parts["reacher"]
    assert isinstance(part, ReacherPart)
    sizes = reacher_sizes(part)
    # 50 epochs: the setting the Reacher identification study chose (2 of 3 seeds identified)
    assert (sizes.size, sizes.pairs, sizes.batch, sizes.epochs) == (32, 20_000, 256, 50)
    assert sizes.epochs * (sizes.pairs // sizes.batch) == 3_900
    assert (sizes.grid_runs, sizes.sweep_runs, len(sizes.seeds)) == (9, 0, 3)
    # Each seed trains on datasets rendered with it: replicates of data and training.
    grid = ("ou_rho0.95", "traj_delta16", "trajmatch_delta16")
    datasets = sizes.datasets()
    assert set(datasets) == {"eval"} | {f"{g}_s{k}" for g in grid for k in (0, 1, 2)}
    assert [datasets[f"ou_rho0.95_s{k}"]["seed"] for k in (0, 1, 2)] == [0, 1, 2]
    assert sizes.frames() == 2_000 + 9 * 2 * 20_000


def _overnight_doc_rows() -> dict[str, list[str]]:
    text = (Path(__file__).parents[2] / "docs" / "overnight.md").read_text()
    section = text.split("## The budget", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] in (*EXPERIMENTS, *BEYOND, *DOUBLED, "**total**"):
            rows[cells[0]] = cells
    return rows


def test_the_overnight_doc_states_the_codes_shortfalls_and_projection() -> None:
    """docs/overnight.md's budget table is the code's: runs, steps, the projection from
    the committed paces with its range, and budget.json's shortfalls."""
    from lejepa_id.cli.paper import _range
    from lejepa_id.sweeps.committed import load_table, project_budget

    names = [*EXPERIMENTS, *BEYOND, *DOUBLED]
    budget = BUDGETS["overnight"]
    record = budget_record(budget, names)
    projected = project_budget(budget, names, load_table(), jobs=2)
    doc = _overnight_doc_rows()
    assert set(doc) == {*names, "**total**"}
    for name in names:
        p, entry = projected[name], record["experiments"][name]
        assert p.low is not None and p.mid is not None and p.high is not None, p.missing
        want = [
            name,
            str(p.runs),
            p.steps,
            format_duration(p.mid),
            _range(p.low, p.high),
            "; ".join(entry["shortfalls"]),
        ]
        assert doc[name] == want, name
    total = [sum(getattr(p, k) for p in projected.values()) for k in ("low", "mid", "high")]
    assert doc["**total**"][1] == str(sum(p.runs for p in projected.values()))
    assert doc["**total**"][3] == f"**{format_duration(total[1])}**"
    assert doc["**total**"][4] == _range(total[0], total[2])


def test_the_overnight_projection_from_committed_paces_is_at_most_10_hours() -> None:
    """The budget as sized (2026-12-03): the claims' own runs. The doubled families, added
    on 2026-12-06 with the v4 convergence premise, take it above 10 hours; docs/overnight.md
    states by how much (checked above)."""
    from lejepa_id.sweeps.committed import load_table, project_budget

    names = [*EXPERIMENTS, *BEYOND]
    projected = project_budget(BUDGETS["overnight"], names, load_table(), jobs=2)
    assert all(p.missing == () for p in projected.values())
    total = sum(p.mid for p in projected.values() if p.mid is not None)
    assert 0 < total <= 10 * 3600, format_duration(total)


def test_the_overnight_budget_never_shortens_silently() -> None:
    record = budget_record(BUDGETS["overnight"], [*EXPERIMENTS, *BEYOND])
    for exp, entry in record["experiments"].items():
        assert entry["why"], exp
        if any(s.startswith(("steps ", "epochs ")) for s in entry["shortfalls"]):
            assert "FEWER" in entry["why"], (exp, entry["why"])


def test_the_overnight_dry_run_projects_from_committed_paces_and_probes_nothing(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    from lejepa_id.reacher import pace as reacher_pace
    from lejepa_id.sweeps import pace

    def no_probe(*args, **kwargs):
        raise AssertionError("the overnight dry run probed")

    monkeypatch.setattr(pace, "probe_group", no_probe)
    monkeypatch.setattr(reacher_pace, "probe_reacher", no_probe)
    out = tmp_path / "out"
    argv = ["paper", "--budget", "overnight", "--beyond", "--dry-run", "--out", str(out)]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "paces committed for" in lines[1] and "paces-cpu-2core.json" in lines[1]
    rows = {line.split()[0]: line for line in lines[3:-1]}
    assert set(rows) == {*EXPERIMENTS, *BEYOND, *DOUBLED, "total"}
    assert rows["reacher"].split()[1:4] == ["9", "9", "3,900"]
    # One seed of the 8 anisotropic settings, at twice the 20,000 steps.
    assert (
        rows["anisotropic_x2"].split()[1] == "8" and rows["anisotropic_x2"].split()[3] == "40,000"
    )
    assert "ms/member-step (median of" in rows["2d"] and "?" not in rows["total"]
    assert lines[-1].startswith("Projected wall times, not measurements")
    assert not out.exists()


def test_the_overnight_dry_run_leaves_out_finished_runs(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    from lejepa_id.sweeps import state

    out = tmp_path / "out"
    (out / "beyond" / "action").mkdir(parents=True)
    seen = []

    def one_done(specs, root):  # the sweep's own check of result.json, faked
        seen.append(root)
        return specs[:1], specs[1:], []

    monkeypatch.setattr(state, "partition", one_done)
    argv = ["paper", "--budget", "overnight", "--beyond", "--only", "action", "--dry-run"]
    assert main([*argv, "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    row = next(x for x in printed if x.startswith("action "))
    assert row.split()[1] == "5/6" and seen == [out / "beyond" / "action"]
    total = next(x for x in printed if x.startswith("total "))
    assert total.split()[1:3] == row.split()[4:6]  # the one experiment's projection


def test_a_doubled_family_is_refused_by_a_budget_that_does_not_plan_it(capsys) -> None:
    argv = ["paper", "--budget", "cpu", "--beyond", "--only", "codedim_x2", "--dry-run"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'codedim_x2'" in err[0] and "cpu budget does not plan it" in err[0]


def test_a_reacher_budget_without_sweeps_trains_and_plans_only_the_grid(
    tmp_path: Path, monkeypatch
) -> None:
    import argparse

    from lejepa_id.cli import paper as cli
    from lejepa_id.reacher import datasets

    part = BUDGETS["overnight"].parts["reacher"]
    assert isinstance(part, ReacherPart)
    sizes = reacher_sizes(part)
    calls: list[tuple[str, Path]] = []
    monkeypatch.setattr(datasets, "render_dataset", lambda spec, path, **kw: None)
    monkeypatch.setattr(
        cli, "_sweep", lambda config, sets, root, args: calls.append(("sweep", root)) or []
    )
    monkeypatch.setattr(cli, "_plan_and_draw", lambda runs, *a, **k: calls.append(("plan", runs)))
    args = argparse.Namespace(no_progress=True, device=None)
    assert cli.run_reacher(sizes, tmp_path, args) == []
    assert calls == [("sweep", tmp_path), ("plan", tmp_path / "reacher")]


def test_time_entries_sum_the_measured_invocations_beside_the_projection() -> None:
    from lejepa_id.sweeps.paper import time_entry

    first = time_entry(None, (10.0, 20.0, 40.0), 25.0)
    assert first == {"projected_s": 20.0, "projected_range_s": [10.0, 40.0], "measured_s": 25.0}
    assert time_entry(first, (10.0, 20.0, 40.0), 5.0)["measured_s"] == 30.0  # resumed
    assert time_entry(first, None, None) == {"measured_s": 25.0}  # not run this time
    assert time_entry({"measured_s": "x"}, None, None) == {"measured_s": 0.0}
    assert time_entry(None, None, None) == {}


def test_an_overnight_record_keeps_the_time_earlier_invocations_measured(tmp_path: Path) -> None:
    from lejepa_id.cli.paper import _add_times
    from lejepa_id.records.io import atomic_write_json
    from lejepa_id.sweeps.committed import load_table, project_budget
    from lejepa_id.sweeps.paper import BUDGET_FILE

    budget = BUDGETS["overnight"]
    earlier = budget_record(budget, ["2d", "grid"])
    earlier["experiments"]["2d"]["time"] = {"measured_s": 100.0}
    atomic_write_json(tmp_path / BUDGET_FILE, earlier)
    record = budget_record(budget, ["2d", "grid"])
    _add_times(record, tmp_path, budget, {"grid": 60.0})  # this invocation: --only grid
    projected = project_budget(budget, ["2d", "grid"], load_table(), jobs=2)
    two, grid = record["experiments"]["2d"]["time"], record["experiments"]["grid"]["time"]
    assert two["measured_s"] == 100.0 and grid["measured_s"] == 60.0
    assert two["projected_s"] == round(projected["2d"].mid, 1)
    assert grid["projected_range_s"] == [
        round(projected["grid"].low, 1),
        round(projected["grid"].high, 1),
    ]


def _reacher_smoke_seconds(frames_per_s: float, step_s: float, encode_s: float) -> float:
    """The smoke Reacher row by hand: 10 runs of 2 epochs x (128 pairs // batch 64)
    steps, each encoding its 240-frame gallery and 128 fit frames, one after another
    (--jobs 1), after rendering 240 gallery frames and 5 pair datasets of 128 pairs."""
    import os

    frames = 240 + 5 * 2 * 128
    return frames / (frames_per_s * os.cpu_count()) + 10 * (4 * step_s + (240 + 128) * encode_s)


def test_the_reacher_pace_is_stored_and_a_second_dry_run_probes_nothing(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    from lejepa_id.reacher import pace as reacher_pace

    calls = []

    def fake_probe(size, look, target, batch, device, render=True):
        calls.append((size, look, batch, device))
        return reacher_pace.ReacherPace(100.0, 0.5, 0.001, 2.0, f"cnn {size}x{size}", load=3.0)

    monkeypatch.setattr(reacher_pace, "probe_reacher", fake_probe)
    argv = ["paper", "--budget", "smoke", "--only", "reacher", "--dry-run", "--jobs", "1"]
    argv += ["--out", str(tmp_path / "out"), "--device", "cpu"]
    assert main(argv) == 0
    first = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("reacher "))
    assert calls == [(32, "fast", 64, "cpu")]
    assert first.split()[1:4] == ["10", "10", "4"]
    assert first.split()[4:6] == format_duration(_reacher_smoke_seconds(100, 0.5, 0.001)).split()
    assert "256 images/s trained, 100 frames/s rendered" in first
    assert "measured at load 3.0" in first and "stored" not in first

    def no_probe(*args, **kwargs):
        raise AssertionError("a stored Reacher pace was probed again")

    monkeypatch.setattr(reacher_pace, "probe_reacher", no_probe)
    assert main(argv) == 0
    again = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("reacher "))
    assert "stored, measured 20" in again and "at load 3.0" in again
    assert again.split()[4:6] == first.split()[4:6]


def test_a_reacher_pace_of_other_sizes_is_not_reused(tmp_path: Path, monkeypatch) -> None:
    from lejepa_id.reacher import pace as reacher_pace
    from lejepa_id.sweeps.pace import PaceStore

    store = PaceStore(tmp_path / "p.json")
    made = []

    def fake_probe(size, look, target, batch, device, render=True):
        made.append((size, look, batch))
        return reacher_pace.ReacherPace(1.0, 1.0, 1.0, 1.0, "x")

    monkeypatch.setattr(reacher_pace, "probe_reacher", fake_probe)
    for size, look, batch in [(32, "fast", 64), (32, "fast", 64), (32, "fast", 256)]:
        reacher_pace.stored_or_probed(store, size, look, "fixed", batch, "cpu", "2 CPU cores")
    reacher_pace.stored_or_probed(store, 32, "paper", "fixed", 64, "cpu", "2 CPU cores")
    reacher_pace.stored_or_probed(store, 32, "fast", "fixed", 64, "cpu", "NVIDIA H200")
    assert made == [(32, "fast", 64), (32, "fast", 256), (32, "paper", 64), (32, "fast", 64)]
    # A Reacher entry is never read as a synthetic group's pace, nor the reverse.
    assert all(store.get(k) is None for k in store.paces)
    again = PaceStore(tmp_path / "p.json")
    assert len(again.paces) == 4
    assert all(again.get(k, reacher_pace.ReacherPace) is not None for k in again.paces)


@pytest.mark.parametrize("hidden", [True, False])
def test_paper_no_progress_reaches_the_render_and_the_sweeps(
    tmp_path: Path, monkeypatch, hidden: bool
) -> None:
    # `paper --no-progress` showed the render bars: the flag must reach render_dataset
    # (and the sweep runner) as progress=False, and only then.
    import argparse

    from lejepa_id.cli import paper as paper_cli
    from lejepa_id.reacher import datasets
    from lejepa_id.sweeps import runner
    from lejepa_id.sweeps.paper import BUDGETS

    seen: dict[str, bool] = {}

    class StopError(Exception):
        pass

    def render(spec, out, workers=0, progress=True):
        seen["render"] = progress
        raise StopError

    def sweep(config, sets, out, options, progress=True):
        seen["sweep"] = progress
        raise StopError

    monkeypatch.setattr(datasets, "render_dataset", render)
    monkeypatch.setattr(runner, "run_sweep", sweep)
    args = argparse.Namespace(
        no_progress=hidden,
        device="cpu",
        jobs=1,
        executor="local",
        partition=None,
        time=None,
        gpus=None,
    )
    sizes = reacher_sizes(BUDGETS["smoke"].parts["reacher"])
    with pytest.raises(StopError):
        paper_cli.run_reacher(sizes, tmp_path, args)
    with pytest.raises(StopError):
        paper_cli._sweep(paper_cli.configs_dir() / "grid.yaml", [], tmp_path, args)
    assert seen == {"render": not hidden, "sweep": not hidden}


def test_the_overnight_reacher_runs_record_their_identification_curve(tmp_path) -> None:
    from lejepa_id.reacher.experiment import TRAIN_KEYS
    from lejepa_id.sweeps.paper import reacher_grid_sets

    sizes = reacher_sizes(BUDGETS["overnight"].parts["reacher"])
    assert sizes.identify_every == 1
    sets = reacher_grid_sets(sizes, tmp_path, "cpu")
    assert "identify_every=1" in sets
    # One sweep; each run's data names its seed's dataset.
    (runs,) = [json.loads(s.split("=", 1)[1]) for s in sets if s.startswith("runs=")]
    assert runs["ou"] == {"data": str(tmp_path / "ou_rho0.95_s{seed}")}
    # The cpu budget keeps the config's default: no checks.
    assert not any(s.startswith("identify_every") for s in reacher_grid_sets(
        reacher_sizes(BUDGETS["cpu"].parts["reacher"]), tmp_path, "cpu"))  # fmt: skip
    # A training key of the grid config (loading it would need rendered datasets).
    assert "identify_every" in TRAIN_KEYS


def test_data_per_seed_refuses_a_budget_with_rho_or_delta_sweeps() -> None:
    from lejepa_id.sweeps.paper import ReacherPart as Part

    sizes = reacher_sizes(Part(seeds=(0, 1), rhos=(0.5,), deltas=(), data_per_seed=True))
    with pytest.raises(ValueError, match="no rho/delta sweeps"):
        sizes.datasets()
