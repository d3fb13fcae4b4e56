"""The registered stage-two sizing of the Reacher planning claims: the power formulas on
known answers and a simulation, and the rule on fabricated plans."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from scipy import stats

from lejepa_id.analysis import plan_statistics as st
from lejepa_id.errors import UsageError
from lejepa_id.reacher.sizing import RULE, main, size_stage_one, stage_two

MARGIN = math.log1p(0.05)


def test_the_sd_bound_of_three_runs_has_its_closed_form() -> None:
    # df = 2: the chi-square is exponential with mean 2, its 0.2 quantile -2 ln 0.8.
    assert st.sd_upper(1.0, 3, 0.8) == pytest.approx(1 / math.sqrt(-math.log(0.8)))
    assert st.sd_upper(0.5, 3, 0.8) == pytest.approx(0.5 * 2.116936, rel=1e-6)
    assert math.isnan(st.sd_upper(1.0, 1))


def test_tost_power_agrees_with_a_simulation() -> None:
    rng = np.random.default_rng(7)
    n, sd, margin = 10, 1.0, 1.0
    x = rng.normal(0.0, sd, (40_000, n))
    se = x.std(axis=1, ddof=1) / math.sqrt(n)
    crit = stats.t.ppf(0.95, n - 1)
    both = ((x.mean(1) + margin) / se > crit) & ((x.mean(1) - margin) / se < -crit)
    assert st.tost_power(n, sd, margin) == pytest.approx(both.mean(), abs=0.015)
    # Sizes: the first n at or above 80% power, and none when the mean is outside the margin.
    need = st.runs_for_tost(sd, margin)
    assert st.tost_power(need, sd, margin) >= 0.8 > st.tost_power(need - 1, sd, margin)
    assert st.runs_for_tost(sd, margin, mean=1.5) is None


def _run(kind: str, seed: int, value: float, r2: float = 0.99, orth: float = 0.05) -> dict:
    return {"run": f"{kind}/lam0.01_seed{seed}", "kind": kind, "seed": seed,
            "log_ratio_mean": value, "r2_hz": r2, "orth_err_whitened": orth}  # fmt: skip


def _plan(ou: list[float], traj: list[float], match: list[float], **ou_kw) -> dict:
    runs = [_run("ou", s, v, **ou_kw) for s, v in enumerate(ou)]
    runs += [_run("traj", s, v) for s, v in enumerate(traj)]
    runs += [_run("trajmatch", s, v) for s, v in enumerate(match)]
    return {"runs": runs}


def test_stage_two_sizes_each_claim_from_its_runs() -> None:
    ou, traj, match = [0.00, 0.01, 0.02], [0.10, 0.12, 0.14], [0.03, 0.05, 0.07]
    sizing = stage_two(_plan(ou, traj, match))
    oracle = sizing["claims"]["reacher_ou_plans_like_oracle"]
    assert oracle["sd"] == pytest.approx(0.01) and oracle["sd_from"] == "identified OU runs"
    need = st.runs_for_tost(st.sd_upper(0.01, 3), MARGIN)
    assert oracle["identified_runs_needed"] == need
    assert oracle["runs_needed"] == math.ceil(need / (2 / 3))
    worse = sizing["claims"]["reacher_traj_plans_worse"]
    pooled = math.sqrt((0.01**2 + 0.02**2) / 2)
    assert worse["sd"] == pytest.approx(pooled)
    assert worse["runs_needed"] == st.runs_for_power(st.sd_upper(pooled, 5), MARGIN)
    kinds = sizing["kinds"]
    want_ou = max(3, oracle["runs_needed"], worse["runs_needed"],
                  sizing["claims"]["reacher_gap_not_coverage"]["runs_needed"])  # fmt: skip
    assert kinds["ou"]["need"] == min(want_ou, RULE.cap)
    assert kinds["ou"]["add_seeds"] == list(range(3, kinds["ou"]["need"]))
    assert kinds["traj"]["need"] == max(3, worse["runs_needed"])


def test_a_wide_spread_is_capped_and_said_so() -> None:
    sizing = stage_two(_plan([0.0, 0.3, -0.3], [0.5, 0.9, 0.1], [0.2, -0.2, 0.6]))
    assert all(k["need"] == RULE.cap and k["above_cap"] for k in sizing["kinds"].values())
    assert sizing["claims"]["reacher_traj_plans_worse"]["above_cap"]


def test_unidentified_ou_runs_size_from_all_ou_runs(tmp_path, capsys) -> None:
    plan = _plan([0.0, 0.01, 0.02], [0.1, 0.12, 0.14], [0.0, 0.02, 0.04], r2=0.5)
    oracle = stage_two(plan)["claims"]["reacher_ou_plans_like_oracle"]
    assert oracle["sd_from"] == "all OU runs" and oracle["identified"] == "0 of 3"
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan))
    assert main([str(path)]) == 0
    assert "reacher_ou_plans_like_oracle" in capsys.readouterr().out
    assert json.loads((tmp_path / "sizing.json").read_text())["rule"]["date"] == "2026-12-06"
    # Sized once: a second call leaves the file as it is.
    before = (tmp_path / "sizing.json").read_text()
    assert main([str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "sized once" in err[0]
    assert (tmp_path / "sizing.json").read_text() == before
    (tmp_path / "sizing.json").unlink()
    (tmp_path / "bad.json").write_text("[1]")
    assert main([str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.json" in err[0]


def test_stage_one_is_sized_from_its_own_seeds_only() -> None:
    ou, traj, match = [0.00, 0.01, 0.02], [0.10, 0.12, 0.14], [0.03, 0.05, 0.07]
    plan = _plan(ou, traj, match)
    alone = size_stage_one(plan, (0, 1, 2))
    assert alone is not None and alone["stage_one_seeds"] == [0, 1, 2]
    assert alone["kinds"] == stage_two(plan)["kinds"]
    # Later runs (stage two's seeds, however far off) do not move the sizes.
    later = {"runs": plan["runs"] + [_run("ou", 3, 5.0), _run("traj", 3, -5.0)]}
    assert size_stage_one(later, (0, 1, 2))["claims"] == alone["claims"]
    # A kind without all of stage one's seeds planned is not sized.
    assert size_stage_one({"runs": plan["runs"][1:]}, (0, 1, 2)) is None


def _sized_plan(tmp_path) -> tuple[object, Path]:
    """The overnight budget's Reacher sizes and an OUT whose grid plan is stage one."""
    from lejepa_id.sweeps.paper import OVERNIGHT, reacher_sizes

    sizes = reacher_sizes(OVERNIGHT.parts["reacher"])
    runs = tmp_path / "reacher"
    runs.mkdir()
    plan = _plan([0.00, 0.01, 0.02], [0.10, 0.12, 0.14], [0.03, 0.05, 0.07])
    (runs / "plan.json").write_text(json.dumps(plan))
    return sizes, runs


def test_stage_two_is_sized_once_and_trains_each_kinds_added_seeds(tmp_path, monkeypatch) -> None:
    from lejepa_id.cli import paper as cli
    from lejepa_id.sweeps.paper import stage_two_seeds

    sizes, runs = _sized_plan(tmp_path)
    assert sizes.stage_two and sizes.seeds == (0, 1, 2)
    swept, rendered, planned = [], [], []
    monkeypatch.setattr(cli, "_render", lambda datasets, data, args: rendered.append(datasets))
    monkeypatch.setattr(cli, "_sweep", lambda cfg, sets, out, args: swept.append(sets) or [])
    monkeypatch.setattr(cli, "_plan_and_draw", lambda *a, **k: planned.append(a[0]))
    args = SimpleNamespace(device=None, no_progress=True)
    data = tmp_path / "data" / "reacher"
    assert cli._stage_two(sizes, data, tmp_path, args) == []
    sizing = json.loads((runs / "sizing.json").read_text())
    added = stage_two_seeds(sizes, runs)
    assert added == {k: tuple(v["add_seeds"]) for k, v in sizing["kinds"].items() if v["add_seeds"]}
    assert added["ou"] == tuple(range(3, sizing["kinds"]["ou"]["need"]))
    # One sweep a kind with added seeds: that kind alone, on its seeds' own datasets.
    assert len(swept) == len(rendered) == len(added) and planned == [runs]
    for (kind, seeds), sets, datasets in zip(added.items(), swept, rendered):
        base = sizes.grid_labels()[kind]
        assert sorted(datasets) == sorted(f"{base}_s{s}" for s in seeds)
        assert all(
            spec["seed"] == int(label.rsplit("_s", 1)[1]) for label, spec in datasets.items()
        )
        assert f"seeds={json.dumps(list(seeds))}" in sets
        assert f"runs={json.dumps({kind: {'data': str(data / f'{base}_s{{seed}}')}})}" in sets
    # A damaged sizing stops with one line naming it, and is left as it is.
    good = (runs / "sizing.json").read_text()
    (runs / "sizing.json").write_text('{"kinds": 3}')
    with pytest.raises(UsageError, match="sizing.json: not a sizing written by paper"):
        cli._stage_two(sizes, data, tmp_path, args)
    assert (runs / "sizing.json").read_text() == '{"kinds": 3}'
    (runs / "sizing.json").write_text(good)
    # A later plan (stage two's runs in it) does not rewrite the sizes.
    before = (runs / "sizing.json").read_text()
    (runs / "plan.json").write_text(json.dumps(_plan([0.0, 0.5, -0.5, 0.9], [0.1] * 3, [0.0] * 3)))
    cli._stage_two(sizes, data, tmp_path, args)
    assert (runs / "sizing.json").read_text() == before


def test_the_dry_run_counts_stage_two_once_sized(tmp_path) -> None:
    from lejepa_id.cli.paper import _stage_two_note, reacher_todo

    sizes, runs = _sized_plan(tmp_path)
    todo, total, _ = reacher_todo(sizes, tmp_path)
    assert (todo, total) == (9, 9)
    assert "adds up to 21 runs" in _stage_two_note(sizes, tmp_path)
    (runs / "sizing.json").write_text(json.dumps(size_stage_one(json.loads(
        (runs / "plan.json").read_text()), (0, 1, 2))))  # fmt: skip
    extra = sum(len(v) for v in stage_two_seeds_of(runs).values())
    assert extra > 0
    assert reacher_todo(sizes, tmp_path)[:2] == (9 + extra, 9 + extra)
    assert "included" in _stage_two_note(sizes, tmp_path)
    # The projection budget.json records beside the measured time counts them too.
    from lejepa_id.sweeps.committed import load_table, project_budget
    from lejepa_id.sweeps.paper import OVERNIGHT

    table = load_table()
    alone = project_budget(OVERNIGHT, ["reacher"], table)["reacher"]
    both = project_budget(OVERNIGHT, ["reacher"], table, out=tmp_path)["reacher"]
    assert (alone.stacks, both.stacks) == (9, 9 + extra) and both.mid > alone.mid


def stage_two_seeds_of(runs: Path) -> dict[str, list[int]]:
    kinds = json.loads((runs / "sizing.json").read_text())["kinds"]
    return {k: v["add_seeds"] for k, v in kinds.items() if v["add_seeds"]}
