"""The report as a reader meets it: a summary line per experiment, the date, version and
commands, claims with a verdict first and those not measured folded, training curves,
rounded numbers, and no sideways scroll at 1280 px in headless Chromium."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pandas as pd
import pytest
from analysis_fakes import metrics, write_run
from headless import chromium, run_chromium

from lejepa_id import __version__
from lejepa_id.analysis.report import experiment_summaries, mean_cell, rounded, write_report
from lejepa_id.analysis.table import collect
from lejepa_id.cli.main import main
from lejepa_id.config.run import RunConfig

# A run name with no place to break: it must not push the page wider than the window.
LONG = "spiral_lejepa_with_a_very_long_name_that_has_no_spaces_at_all_to_wrap_on_x" * 2


def _curves(seed: int) -> dict:
    steps = [0, 500, 1000, 2000]
    return {
        "step": steps,
        "loss": [1.0 / (1 + s / 300) + 0.01 * seed for s in steps],
        "r2_hz": [0.5, 0.9, 0.97, 0.99 - 0.001 * seed],
        "grid_r2_hz": [None, None, None, 0.98],  # final only: NaN before
    }


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Two experiments: ``2d`` (curves, an unrounded metric, a very long run name) and
    ``scaling`` (one diverged run, no curves)."""
    root = tmp_path_factory.mktemp("report")
    for seed in (0, 1):
        for run, mode in (("spiral_lejepa", "lejepa"), (LONG, "whiten")):
            cfg = RunConfig(mode=mode, seed=seed, steps=2000)
            values = metrics(0.98 - 0.001 * seed) | {"epsilon": 0.00197143 + 1e-5 * seed}
            write_run(root, "2d", run, f"{run}-seed{seed}", cfg, values, curves=_curves(seed))
        for dim in (2, 4):
            cfg = RunConfig(mixing="coupling", encoder="matched", dim=dim, seed=seed)
            write_run(root, "scaling", "lejepa", f"lejepa-dim{dim}-seed{seed}", cfg,
                      metrics(0.999, dim))  # fmt: skip
    cfg = RunConfig(mode="whiten", lr=1e3)
    write_run(root, "scaling", "whiten", "whiten-dim2-seed9", cfg, {}, status="diverged")
    # What `lejepa-id sweep --set steps=2000 --set seeds=[0,1]` records in sweep.json.
    manifest = json.loads((root / "2d" / "sweep.json").read_text())
    manifest |= {"overrides": {"steps": 2000}, "axes": {"seeds": [0, 1]}}
    (root / "2d" / "sweep.json").write_text(json.dumps(manifest))
    return root


@pytest.fixture(scope="module")
def page(folder: Path) -> str:
    assert main(["report", str(folder)]) == 0
    return (folder / "report.html").read_text()


def test_a_summary_line_per_experiment(folder: Path, page: str) -> None:
    report = write_report(folder, folder / "again.html")
    lines = {e["experiment"]: e for e in experiment_summaries(
        collect(folder).frame, report.claims, None)}  # fmt: skip
    assert set(lines) == {"2d", "scaling"}
    assert lines["2d"]["runs"] == "4 runs (4 finished)"
    assert lines["2d"]["budget"] == "2,000 steps, 2 seeds, 2 settings"
    assert lines["scaling"]["runs"] == "5 runs (4 finished, 1 diverged)"
    # Verdict counts: only judged claims count against an experiment.
    assert "not measured" not in lines["2d"]["claims"]
    assert re.search(r"\d+ pass", lines["2d"]["claims"])
    assert "<b>2d</b>: 4 runs (4 finished); 2,000 steps, 2 seeds, 2 settings; claims" in page


def test_the_date_version_and_commands(folder: Path, page: str) -> None:
    assert re.search(rf"Written \d{{4}}-\d\d-\d\d \d\d:\d\d UTC by lejepa-id {__version__}", page)
    sweep = (
        f"lejepa-id sweep configs/2d.yaml --out {folder} --set 'steps=2000' --set 'seeds=[0, 1]'"
    )
    assert html.escape(sweep) in page
    assert f"lejepa-id sweep configs/scaling.yaml --out {folder}\n" in page
    assert f"lejepa-id report {folder}\n" in page or f"lejepa-id report {folder}<" in page


def test_claims_with_a_verdict_come_first_and_not_measured_fold(page: str) -> None:
    fold = page.index("<details class='missing'>")
    judged = re.findall(r'<td class="(pass|fail|not-shown)">', page[:fold])
    assert judged  # the alignment gap and the bound are judged on these runs
    assert '<td class="not-measured">' not in page[:fold]
    assert page.count('<td class="not-measured">') >= 3  # e.g. the beyond-the-paper claims
    assert page.index("<h2>Claims</h2>") < page.index("<h2>Training curves</h2>")


def test_training_curves_are_inline_svg_per_experiment(page: str) -> None:
    section = page[page.index("<h2>Training curves</h2>") : page.index("<h2>Runs</h2>")]
    # One figure (2d has curves; scaling's runs have none), inline, two panels.
    assert section.count("<svg") == 1 and "<figcaption>2d: 4 runs" in section
    assert "training loss" in section and "R²(h → z)" in section


def test_numbers_are_rounded(page: str) -> None:
    text = re.sub(r"<svg.*?</svg>|data:image/png;base64,[^\"]+", "", page, flags=re.S)
    assert "0.00197143" not in text and "0.0019714" not in text
    # No number anywhere with more than seven significant digits.
    assert not re.findall(r"\b0\.0*[1-9]\d{7,}|\b[1-9]\.\d{7,}", text)
    assert mean_cell(pd.Series([0.98425, 0.98455])) == "0.9844"  # std 2e-4: 4 places
    assert mean_cell(pd.Series([0.00197143])) == "0.00197"  # one seed: 3 significant
    assert mean_cell(pd.Series([0.5, 0.5])) == "0.500"
    assert mean_cell(pd.Series([float("nan")])) == ""
    assert rounded({"a": [0.123456, 2], "b": 1e-9 / 3}) == {"a": [0.123, 2], "b": 3.33e-10}


def test_no_sideways_scroll_at_1280_px_in_chromium(folder: Path, page: str, tmp_path) -> None:
    binary = chromium()
    url = (folder / "report.html").as_uri()
    dom = run_chromium(binary, tmp_path / "p1", "--window-size=1280,2000", "--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    width = re.search(r'data-scroll-width="(\d+)"', dom.stdout)
    window = re.search(r'data-window-width="(\d+)"', dom.stdout)
    assert width is not None and window is not None, dom.stdout[:500]
    assert int(window.group(1)) == 1280
    assert int(width.group(1)) <= 1280, f"the page is {width.group(1)} px wide at 1280 px"
    shot = tmp_path / "shot.png"
    res = run_chromium(binary, tmp_path / "p2", "--window-size=1280,2000",
                       f"--screenshot={shot}", url)  # fmt: skip
    assert res.returncode == 0 and shot.exists(), res.stderr[-2000:]
    pixels = mpimg.imread(shot)[..., :3]
    assert pixels.shape[:2] == (2000, 1280)
    assert float(np.mean(pixels.min(axis=-1) < 0.9)) > 0.02  # a page was drawn, not blank
