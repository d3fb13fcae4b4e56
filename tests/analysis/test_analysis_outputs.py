"""aggregate, figures and report on fabricated results with known answers."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pandas as pd
from analysis_fakes import metrics, write_run

from lejepa_id.analysis.figures import make_figures
from lejepa_id.analysis.report import with_runs, write_report
from lejepa_id.analysis.scaling import paper_table, scaling_table
from lejepa_id.analysis.table import collect, write_table
from lejepa_id.cli.main import main
from lejepa_id.config.run import RunConfig


def test_table_has_one_row_per_run_and_skips_corrupt_files(results: Path, tmp_path: Path) -> None:
    table = write_table(results, tmp_path)
    assert [p.name for p in table.skipped] == ["result.json"]
    assert table.skipped[0].parent.name == "lejepa-dim2-seed7"
    frame = table.frame
    assert len(frame) == 16 + 18 + 4 + 8 + 1
    assert (frame["status"] == "diverged").sum() == 1
    assert set(frame["run"]) >= {"spiral_lejepa", "lejepa", "whiten", "infonce"}
    for name in ("runs.csv", "runs.parquet"):
        assert (tmp_path / name).exists()
    back = pd.read_parquet(tmp_path / "runs.parquet")
    assert len(back) == len(frame) and "r2_hz" in back.columns and "alpha" in back.columns
    assert len(pd.read_csv(tmp_path / "runs.csv")) == len(frame)


def test_each_initialization_of_a_best_of_k_run_gets_its_columns(tmp_path: Path) -> None:
    cfg = RunConfig(mixing="coupling", encoder="matched", dim=4, inits=3, seed=1)
    write_run(tmp_path, "scaling", "lejepa", "lejepa-dim4-seed1", cfg, metrics(0.99999, dim=4))
    path = tmp_path / "scaling" / "lejepa-dim4-seed1" / "result.json"
    record = json.loads(path.read_text())
    record["init_final_metrics"] = [
        {"r2_hz": 0.99999, "orth_err": 0.002, "loss_last100": 0.0489, "diverged": False},
        {"r2_hz": 0.871, "orth_err": 0.61, "loss_last100": 0.0859, "diverged": False},
        {"r2_hz": None, "orth_err": 0.7, "loss_last100": 0.0902, "diverged": False},
    ]
    path.write_text(json.dumps(record))
    (old,) = collect(tmp_path).frame.to_dict("records")
    assert old["inits_trained"] == 3
    assert [old[f"init{k}_r2_hz"] for k in range(2)] == [0.99999, 0.871]
    assert pd.isna(old["init2_r2_hz"])  # a NaN stored as null reads back as NaN
    assert [old[f"init{k}_loss_last100"] for k in range(3)] == [0.0489, 0.0859, 0.0902]
    assert old["init1_orth_err"] == 0.61
    del record["init_final_metrics"]  # a record written before per-init values
    path.write_text(json.dumps(record))
    assert "inits_trained" not in collect(tmp_path).frame.columns


def test_a_reacher_grid_is_tabulated_one_level_deeper(tmp_path: Path) -> None:
    # A Reacher grid OUT/<name>/<label>/lam<lam>_seed<seed>/: a finished run and a crashed one.
    grid = tmp_path / "rgrid"
    record = {
        "config": {"lam": 0.01, "seed": 3, "epochs": 7},
        "status": "finished",
        "metrics": {"r2_hz": 0.5},
        "losses": {"loss": 1.25},
        "kind": "ou",
        "label": "ou_short",
    }
    (grid / "ou_short" / "lam0.01_seed3").mkdir(parents=True)
    (grid / "ou_short" / "lam0.01_seed3" / "result.json").write_text(json.dumps(record))
    failed = {"run_id": "traj/lam0.1_seed0", "run": "traj", "status": "failed", "config": {}}
    (grid / "traj" / "lam0.1_seed0").mkdir(parents=True)
    (grid / "traj" / "lam0.1_seed0" / "error.json").write_text(json.dumps(failed))
    frame = collect(grid).frame
    assert list(frame["run_id"]) == ["ou_short/lam0.01_seed3", "traj/lam0.1_seed0"]
    assert list(frame["run"]) == ["ou_short", "traj"] and set(frame["experiment"]) == {"rgrid"}
    assert list(frame["status"]) == ["finished", "failed"]
    row = frame.iloc[0]
    assert (row["kind"], row["epochs"], row["seed"]) == ("ou", 7, 3)
    assert (row["r2_hz"], row["final_loss"]) == (0.5, 1.25)


def test_cli_aggregate_names_the_corrupt_file(results: Path, tmp_path: Path, capsys) -> None:
    assert main(["aggregate", str(results), "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "lejepa-dim2-seed7" in err and "skipped" in err
    assert main(["aggregate", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_scaling_table_matches_the_paper_format(results: Path) -> None:
    frame = collect(results).frame
    table = scaling_table(frame[frame["status"] == "finished"], "scaling")
    assert list(table["N"]) == [2, 4, 8]
    # Rounded by the seeds' spread: the std to one significant digit, the mean to its place.
    # A std below 10⁻⁴ in parentheses, in the mean's last digit: 0.9999895 ± 0.0000007.
    assert table.loc[0, "SIGReg"] == "0.9999895(7)"
    assert table.loc[0, "SIGReg (paper)"] == "0.9999980(3)"
    assert len(paper_table()) == 10


def test_the_paper_values_stand_only_beside_runs_of_its_world(results: Path) -> None:
    # The paper's table is of coupling L = 4 with the matched encoder on Gaussian
    # latents: a sweep over N of another world (a plugin mixing, L = 8) gets no paper
    # column, and no column of an objective it did not run.
    from lejepa_id.analysis.scaling import in_paper_world, objective_table, world_text

    frame = collect(results).frame
    rows = frame[(frame["status"] == "finished") & (frame["experiment"] == "scaling")]
    assert in_paper_world(rows)
    shear = rows.assign(mixing="shear")
    deeper = rows.assign(layers=8)
    for other in (shear, deeper, rows[rows["mode"] != "whiten"].assign(encoder="mlp")):
        assert not in_paper_world(other)
        table = scaling_table(other, "scaling")
        assert not [c for c in table.columns if "paper" in c], table.columns
        assert not [c for c in objective_table(other, "lejepa").columns if "paper" in c]
    assert "VICReg" not in scaling_table(rows[rows["mode"] != "whiten"].assign(law="laplace"),
                                         "scaling").columns  # fmt: skip
    assert world_text(shear) == "mixing shear"
    assert not in_paper_world(rows.drop(columns=["law"]))


FIGURES = {
    "gennorm_r2_vs_alpha",
    "gennorm_orth_vs_alpha",
    "ablation_spiral",
    "grid_heatmap_r2_hz",
    "grid_heatmap_orth_err",
    "bound",
    "bound_decomposition",
    "scaling_r2_vs_n",
    "scatter_losses_r2",
}
TABLES = {"tab_ablation", "tab_scaling_lejepa", "tab_scaling_whiten", "tab_scaling_infonce"}


def test_figures_writes_every_paper_figure_and_table(results: Path, tmp_path: Path) -> None:
    assert main(["figures", str(results), "--out", str(tmp_path)]) == 0
    index = json.loads((tmp_path / "figures_index.json").read_text())
    assert {e["name"] for e in index["figures"]} == FIGURES
    for name in FIGURES:
        for ext in ("png", "pdf"):
            assert (tmp_path / f"{name}.{ext}").stat().st_size > 1000, name
    assert {t["name"] for t in index["tables"]} == TABLES
    for name in TABLES:
        assert "\\begin{tabular}" in (tmp_path / f"{name}.tex").read_text()
    assert (tmp_path / "scaling_table.md").exists()


def test_ablation_table_compares_laws_with_welch(results: Path, tmp_path: Path) -> None:
    make_figures(results, tmp_path, formats=("png",))
    lines = (tmp_path / "tab_ablation.md").read_text().splitlines()
    assert lines[0] == "| mixing | objective | latent law | seeds | grid R²(h→z) | p vs Gaussian |"
    spiral = [row for row in lines if row.startswith("| spiral | SIGReg")]
    # One experiment (gennorm), one value per seed. Gaussian: alpha = 2 (0.990, 0.989),
    # the 2d runs' Gaussian seeds belong to another experiment; Laplace: alpha = 1 (0.980,
    # 0.979); gennorm: per seed the mean of alpha = 0.5 and 8 (0.970, 0.969).
    assert spiral == [
        "| spiral | SIGReg | Gaussian | 2 | 0.9895 ± 0.0007 | – |",
        "| spiral | SIGReg | Laplace | 2 | 0.9795 ± 0.0007 | 0.005 (G higher) |",
        "| spiral | SIGReg | gennorm α∉{1,2} | 2 | 0.9695 ± 0.0007 | 0.0012 (G higher) |",
    ]
    # The LaTeX leaves a repeated mixing and objective blank: rows read as groups.
    assert "\n &  & Laplace & 2 &" in (tmp_path / "tab_ablation.tex").read_text()


def test_report_claims_json_and_html_say_the_same(results: Path) -> None:
    report = write_report(results)
    verdicts = {c.id: c.verdict for c in report.claims}
    assert verdicts == {
        "alignment_gap": "pass",
        "gaussian_peak": "pass",
        "theorem3_bound": "pass",
        "scaling": "not shown",  # largest N is 8, not 1024
        "scaling_reproduces_table": "fail",  # fabricated values, not the paper's
        "sigreg_stall_rate": "not measured",  # no start of any run recorded
        "stall_is_optimization": "not measured",
        "larger_lambda_removes_stall": "not measured",
        "published_2d": "not shown",  # the published setting, no same-device reference
        "anisotropic_boundary": "not measured",  # no beyond-the-paper runs
        "anisotropic_r2": "not measured",
        "code_size": "not measured",
        "whitened_optimum_reached": "not measured",
        "action_lqr": "not measured",
    }
    data = json.loads(report.claims_path.read_text())
    assert [c["id"] for c in data["claims"]] == list(verdicts)
    bound = next(c for c in data["claims"] if c["id"] == "theorem3_bound")
    # Scaling (Gaussian, lejepa/whiten), 2d, grid and gennorm alpha = 2 lejepa runs.
    v = bound["values"]
    assert v["n_informative"] + v["n_vacuous"] + v["n_collapsed"] == 12 + 4 + 8 + 2
    # Uncounted: scaling InfoNCE, gennorm lejepa at alpha != 2, every gennorm InfoNCE run.
    assert v["outside_scope"]["n"] == 6 + 6 + 8
    # Every run is counted somewhere: the diverged one too.
    assert bound["counts"]["total"] == sum(n for k, n in bound["counts"].items() if k != "total")
    assert bound["counts"]["diverged"] == 1
    page = report.path.read_text()
    for claim in data["claims"]:
        for key in ("id", "metric", "filter", "statistic", "verdict"):
            assert html.escape(claim[key]) in page, key
    assert page.count("data:image/png;base64,") == len(FIGURES)
    assert "lejepa-dim2-seed7" in page  # the skipped file is named


def test_html_tables_have_one_header_a_law_column_and_blanks(results: Path) -> None:
    page = write_report(results).path.read_text()
    tables = re.findall(r"<table[^>]*>(.*?)</table>", page, flags=re.S)
    assert len(tables) >= 5  # judged claims, claims not measured, runs, metrics, scaling
    for table in tables:
        assert table.count("<thead>") == 1 and table.count("<tr>", 0, table.index("</thead>")) == 1
        assert "<th>" not in table[table.index("<tbody>") :]
    summary = next(t for t in tables if "<th>law</th>" in t)
    header = re.findall(r"<th>(.*?)</th>", summary)
    rows = [re.findall(r"<td>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", summary)[1:]]
    col = {name: i for i, name in enumerate(header)}
    for row in rows:
        law, objective = row[col["law"]], row[col["objective"]]
        assert (row[col["α"]] == "") == (law != "gennorm")
        assert (row[col["σ"]] == "") == (objective != "InfoNCE")
        assert (row[col["λ"]] == "") == (objective == "InfoNCE")
    assert any(r[col["law"]] == "gaussian" for r in rows)


def test_partial_gennorm_with_one_run_name(tmp_path: Path) -> None:
    """Only part of one experiment: every command works and draws what fits."""
    for alpha in (1.0, 2.0, 4.0):
        for seed in (0, 1):
            cfg = RunConfig(law="gennorm", alpha=alpha, seed=seed)
            run_id = f"spiral_lejepa-alpha{alpha:g}-seed{seed}"
            r2 = 0.98 - 0.01 * abs(alpha - 2) - 0.001 * seed
            write_run(tmp_path, "gennorm", "spiral_lejepa", run_id, cfg, metrics(r2, grid_r2=r2))
    for command in ("aggregate", "figures", "report"):
        assert main([command, str(tmp_path)]) == 0, command
    names = {
        e["name"]
        for e in json.loads((tmp_path / "figures" / "figures_index.json").read_text())["figures"]
    }
    assert {"gennorm_r2_vs_alpha", "gennorm_orth_vs_alpha", "ablation_spiral", "bound"} <= names
    claims = {c["id"]: c for c in json.loads((tmp_path / "claims.json").read_text())["claims"]}
    assert claims["gaussian_peak"]["verdict"] == "pass"
    assert claims["scaling"]["verdict"] == "not measured"
    bound = claims["theorem3_bound"]
    assert bound["values"]["n_informative"] + bound["values"]["n_vacuous"] == 2
    assert bound["counts"]["total"] == 6 and bound["counts"]["judged"] == 2


def test_report_with_no_data_says_not_measured(tmp_path: Path) -> None:
    report = write_report(tmp_path)
    assert {c.verdict for c in report.claims} == {"not measured"}
    assert report.path.exists()


def test_report_includes_reacher_figures_when_present(tmp_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figs = tmp_path / "reacher" / "figures"
    figs.mkdir(parents=True)
    fig, ax = plt.subplots(figsize=(1, 1))
    ax.plot([0, 1])
    fig.savefig(figs / "reacher_ratio_box.png")
    plt.close(fig)
    index = {
        "figures": [
            {
                "name": "reacher_ratio_box",
                "caption": "cost ratio J/J*",
                "png": "reacher_ratio_box.png",
            }
        ]
    }
    (figs / "figures_index.json").write_text(json.dumps(index))
    page = write_report(tmp_path).path.read_text()
    assert "Reacher" in page and "cost ratio J/J*" in page
    assert page.count("data:image/png;base64,") == 1


def test_ablation_replicates_are_seeds_of_one_setting_never_other_experiments() -> None:
    import pytest
    from analysis_fakes import runs_frame

    from lejepa_id.analysis.ablation import ablation_runs, ablation_table

    base = {"law": "gennorm", "grid_r2_hz": 0.26}
    frame = runs_frame(
        [
            # A grid run and a gennorm run, both seed 0: one seed twice, not n = 2.
            {"experiment": "grid", "law": "gaussian", "seed": 0, "grid_r2_hz": 0.25},
            base | {"experiment": "gennorm", "alpha": 2.0, "seed": 0, "grid_r2_hz": 0.27},
            base | {"experiment": "gennorm", "alpha": 1.0, "seed": 0},
            # Two alphas of one seed are one replicate of the pooled class (their mean).
            base | {"experiment": "gennorm", "alpha": 0.5, "seed": 0, "grid_r2_hz": 0.2},
            base | {"experiment": "gennorm", "alpha": 8.0, "seed": 0, "grid_r2_hz": 0.4},
        ]
    )
    rows = ablation_runs(frame)
    assert set(rows["experiment"]) == {"gennorm"}
    counts = rows.groupby("law_class").size().to_dict()
    assert counts == {"gaussian": 1, "laplace": 1, "gennorm": 1}
    pooled = rows.loc[rows["law_class"] == "gennorm", "grid_r2_hz"].item()
    assert pooled == pytest.approx(0.3)
    table = ablation_table(rows).set_index("latent law")
    assert table.loc["Gaussian", "grid R²(h→z)"] == "0.2700"  # one seed: no ± to show
    assert table.loc["Gaussian", "seeds"] == "1"


def test_report_with_judges_another_folders_runs_beside_its_own(
    results: Path, tmp_path: Path, capsys
) -> None:
    # An empty folder judged with the fabricated results beside it gives their verdicts.
    own = {c.id: c.verdict for c in write_report(results, out=tmp_path / "own.html").claims}
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["report", str(empty), "--with", str(results)]) == 0
    stored = json.loads((empty / "claims.json").read_text())["claims"]
    assert {c["id"]: c["verdict"] for c in stored} == own
    assert "--with" in (empty / "report.html").read_text()
    # Alone, the empty folder measures nothing.
    alone = {c.id: c.verdict for c in write_report(empty, out=tmp_path / "alone.html").claims}
    assert set(alone.values()) <= {"not measured", "not shown"}
    assert alone != own
    # A --with that is no folder: one line, exit 2, nothing written.
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    capsys.readouterr()
    assert main(["report", str(fresh), "--with", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--with" in err[0] and "missing" in err[0]
    assert list(fresh.iterdir()) == []


def test_report_with_counts_a_repeated_run_once(results: Path, tmp_path: Path) -> None:
    # The planted cheat: the same folder named again, and a copy of it elsewhere, must
    # not double the seeds a claim's test sees.
    frame = collect(results).frame
    copy = tmp_path / "copy"
    shutil.copytree(results, copy)
    combined, notes = with_runs(frame, [results, copy])
    assert len(combined) == len(frame)
    assert len(notes) == 2 and all("counted once" in n for n in notes)
    own = write_report(results, out=tmp_path / "own.html").claims
    doubled = write_report(results, out=tmp_path / "doubled.html", with_dirs=[copy]).claims
    assert [c.values for c in doubled] == [c.values for c in own]
    assert "repeat runs already taken" in (tmp_path / "doubled.html").read_text()
    # A repeat is found whatever else its folder holds: beside an InfoNCE run its unset
    # sigma reads NaN, alone it reads None.
    lone, mixed = tmp_path / "lone", tmp_path / "mixed"
    cfg = RunConfig(law="gennorm", alpha=2.0, mode="lejepa", seed=5)
    for root in (lone, mixed):
        write_run(
            root, "gennorm", "spiral_lejepa", "spiral_lejepa-alpha2-seed5", cfg, metrics(0.98)
        )
    nce = RunConfig(law="gennorm", alpha=2.0, mode="infonce", seed=5, sigma=0.3)
    write_run(mixed, "gennorm", "spiral_infonce", "spiral_infonce-alpha2-seed5", nce, metrics(0.9))
    combined, notes = with_runs(collect(mixed).frame, [lone])
    assert len(combined) == 2 and len(notes) == 1
    # A run of another seed is a new run and is added.
    extra = tmp_path / "extra"
    cfg = RunConfig(law="gennorm", alpha=2.0, mode="lejepa", seed=7)
    write_run(extra, "gennorm", "spiral_lejepa", "spiral_lejepa-alpha2-seed7", cfg, metrics(0.98))
    combined, notes = with_runs(frame, [extra])
    assert len(combined) == len(frame) + 1 and notes == []
