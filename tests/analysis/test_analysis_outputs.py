"""aggregate, figures and report on fabricated results with known answers."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pandas as pd
import pytest

from lejepa_id.analysis.figures import make_figures, paper_table, scaling_table
from lejepa_id.analysis.report import write_report
from lejepa_id.analysis.table import collect, write_table
from lejepa_id.cli import main
from lejepa_id.config import RunConfig
from lejepa_id.io import atomic_write_json


def _metrics(r2: float, dim: int, rho: float, bound: float, error: float) -> dict:
    trace = float(dim)
    return {
        "r2_hz": r2,
        "r2_zh": r2,
        "r2_xz": 0.75,
        "r2_zx": 0.7,
        "orth_err": 1 - r2,
        "orth_err_normalized": (1 - r2) / math.sqrt(dim),
        "epsilon": 0.01,
        "L_h": 2 * (1 - rho) * trace,
        "trace_cov": trace,
        "delta": 0.0,
        "D_bound": 0.0,
        "approx_bound": bound,
        "procrustes_mse": error,
        "procrustes_mse_centered": error,
    }


def _write(
    root: Path,
    experiment: str,
    run: str,
    run_id: str,
    cfg: RunConfig,
    metrics: dict,
    status: str = "finished",
) -> None:
    atomic_write_json(
        root / experiment / run_id / "result.json",
        {
            "config": dataclasses.asdict(cfg),
            "status": status,
            "metrics": metrics,
            "losses": {"loss": 0.1},
            "curves": {},
            "name": run_id,
            "seed": cfg.seed,
            "diverged_step": None if status == "finished" else 3,
        },
    )
    manifest = root / experiment / "sweep.json"
    data = (
        json.loads(manifest.read_text())
        if manifest.exists()
        else {"experiment": experiment, "run_ids": {}}
    )
    data["run_ids"][run_id] = run
    atomic_write_json(manifest, data)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    """A gennorm sweep peaking at alpha = 2, a scaling sweep with InfoNCE degrading."""
    root = tmp_path_factory.mktemp("results")
    for seed in (0, 1):
        for alpha in (0.5, 2.0, 8.0):
            for mode in ("lejepa", "infonce"):
                cfg = RunConfig(law="gennorm", alpha=alpha, mode=mode, seed=seed)
                r2 = 0.99 - 0.01 * abs(math.log2(alpha / 2)) - 0.001 * seed
                _write(
                    root,
                    "gennorm",
                    f"spiral_{mode}",
                    f"spiral_{mode}-alpha{alpha:g}-seed{seed}",
                    cfg,
                    _metrics(r2, 2, 0.95, 0.5, 0.1),
                )
        for dim in (2, 4, 8):
            for mode, r2 in (
                ("lejepa", 0.99999),
                ("whiten", 0.99998),
                ("infonce", 0.9 - dim / 100),
            ):
                cfg = RunConfig(mixing="coupling", encoder="matched", dim=dim, mode=mode, seed=seed)
                _write(
                    root,
                    "scaling",
                    mode,
                    f"{mode}-dim{dim}-seed{seed}",
                    cfg,
                    _metrics(r2 - 1e-6 * seed, dim, 0.95, 1e-3, 1e-4),
                )
    cfg = RunConfig(mode="whiten", lr=1e3)
    _write(root, "scaling", "whiten", "whiten-dim2-seed9", cfg, {}, status="diverged")
    bad = root / "scaling" / "lejepa-dim2-seed7" / "result.json"
    bad.parent.mkdir(parents=True)
    bad.write_text('{"config": {"dim": 2}, "status": "finis')  # truncated by hand
    # Reacher output of another format must be ignored, not reported as corrupt.
    (root / "reacher" / "runs" / "x").mkdir(parents=True)
    (root / "reacher" / "runs" / "x" / "result.json").write_text("{}")
    return root


def test_table_has_one_row_per_run_and_skips_corrupt_files(results: Path, tmp_path: Path) -> None:
    table = write_table(results, tmp_path)
    assert [p.name for p in table.skipped] == ["result.json"]
    assert table.skipped[0].parent.name == "lejepa-dim2-seed7"
    frame = table.frame
    assert len(frame) == 12 + 18 + 1
    assert (frame["status"] == "diverged").sum() == 1
    assert set(frame["run"]) >= {"spiral_lejepa", "lejepa", "whiten", "infonce"}
    for name in ("runs.csv", "runs.parquet"):
        assert (tmp_path / name).exists()
    back = pd.read_parquet(tmp_path / "runs.parquet")
    assert len(back) == len(frame) and "r2_hz" in back.columns and "alpha" in back.columns
    assert len(pd.read_csv(tmp_path / "runs.csv")) == len(frame)


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
    assert table.loc[0, "SIGReg"].startswith("0.999990 ± ")
    assert table.loc[0, "SIGReg (paper)"] == "0.999998 ± 3.4e-07"
    assert len(paper_table()) == 10


def test_figures_and_report(results: Path) -> None:
    made = make_figures(results, formats=("png",))
    names = {e["name"] for e in made.entries}
    assert {"gennorm_r2_vs_alpha", "scaling_r2_vs_n", "bound"} <= names
    for ext in ("md", "tex"):
        assert (results / "figures" / f"scaling_table.{ext}").exists()
    assert "\\begin{tabular}" in (results / "figures" / "scaling_table.tex").read_text()
    report = write_report(results)
    verdicts = {c.text.split(" ")[0]: c.verdict for c in report.claims}
    assert verdicts == {
        "Alignment": "pass",
        "R²(h": "pass",
        "Procrustes": "pass",
        "SIGReg": "partial",
    }
    page = report.path.read_text()
    assert page.count("data:image/png;base64,") >= 3
    assert "lejepa-dim2-seed7" in page  # the skipped file is named


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
