"""`lejepa-id paper --budget smoke --beyond` end to end: every experiment, figure, table,
claim and both reports, then a dry run over the finished folder plans nothing.

The Reacher experiment needs MuJoCo rendering (the `reacher` extra and an OpenGL
backend). Without it the synthetic part still runs here; under CI, which installs it,
a missing renderer fails the test instead.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from lejepa_id.cli.main import main


def test_paper_smoke_end_to_end(tmp_path: Path, capsys, rendering_problem) -> None:
    problem = rendering_problem
    if problem is not None and os.environ.get("CI"):
        pytest.fail(f"CI must render the Reacher for the smoke budget: {problem}")
    only = [] if problem is None else ["--only", "2d", "gennorm", "scaling", "grid"]
    out = tmp_path / "paper"
    argv = ["paper", "--budget", "smoke", "--out", str(out), "--beyond", "--no-progress"]
    argv += ["--device", "cpu", *only]
    assert main(argv) == 0
    printed = capsys.readouterr().out

    # Every paper figure and LaTeX table the smoke data supports, in one folder.
    figures = {p.name for p in (out / "figures").iterdir()}
    for name in (
        "2d_panels",
        "gennorm_r2_vs_alpha",
        "ablation_spiral",
        "grid_heatmap_r2_hz",
        "bound",
        "scaling_r2_vs_n",
    ):
        assert f"{name}.png" in figures and f"{name}.pdf" in figures, name
    for table in ("tab_ablation.tex", "tab_scaling_lejepa.tex", "tab_scaling_infonce.tex"):
        assert table in figures
    assert (out / "runs.csv").is_file() and (out / "report.html").is_file()

    # The report and claims.json know the budget.
    budget = json.loads((out / "budget.json").read_text())
    assert budget["budget"] == "smoke"
    assert budget["experiments"]["2d"]["shortfalls"][0] == "steps 30 of 20,000"
    claims = {c["id"]: c for c in json.loads((out / "claims.json").read_text())["claims"]}
    assert claims["theorem3_bound"]["budget"].startswith("judged at the smoke budget")
    page = (out / "report.html").read_text()
    assert "<h2>Budget: smoke</h2>" in page and "30 of 20,000" in page

    if problem is None:
        reacher = out / "reacher"
        assert {"plan.json", "claims.json"} <= {p.name for p in reacher.iterdir()}
        assert (reacher / "figures" / "tab_reacher.tex").is_file()
        sweep_figures = {p.name for p in (reacher / "sweep" / "figures").iterdir()}
        assert {"reacher_r2_vs_rho.png", "reacher_r2_vs_delta.png"} <= sweep_figures
        assert "reacher: epochs 2 of 100" in claims["reacher_ou_plans_like_oracle"]["budget"]
        assert "reacher_r2_vs_rho" in page

    # The beyond families get their own folder and report.
    beyond = {
        c["id"]: c for c in json.loads((out / "beyond" / "claims.json").read_text())["claims"]
    }
    assert beyond["action_lqr"]["verdict"] != "not measured"
    assert (out / "beyond" / "figures" / "codedim_r2_vs_m.png").is_file()
    # Every beyond run trained again twice as long under the same id, and paired with it
    # (the convergence premise since v4).
    for family in ("anisotropic", "codedim", "action"):
        ids = sorted(p.name for p in (out / "beyond" / family).iterdir() if p.is_dir())
        long = sorted(p.name for p in (out / "beyond" / f"{family}_x2").iterdir() if p.is_dir())
        assert ids and long == ids, family
    per_run = beyond["action_lqr"]["values"]["per_run"]
    assert per_run and all(math.isfinite(e["loss_plateau_max"]) for e in per_run.values())
    assert "lejepa-id paper:" in printed

    # Everything is done: a dry run over the folder plans no run (and probes nothing).
    assert main([*argv, "--dry-run"]) == 0
    rows = capsys.readouterr().out.splitlines()
    grid = next(line for line in rows if line.startswith("grid "))
    assert grid.split()[1:3] == ["0/4", "0"]
