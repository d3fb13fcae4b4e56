"""End to end on a tiny real sweep: sweep -> aggregate -> figures -> report, then the report
opened in headless Chromium (images must decode). Without Chromium: skip, or fail on CI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
from headless import chromium, run_chromium

from lejepa_id.cli.main import main

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
TINY = [
    "--set",
    "steps=10",
    "--set",
    "eval_size=300",
    "--set",
    "scatter=2000",
    "--set",
    "hidden=32",
    "--set",
    "num_directions=16",
    "--set",
    "eval_every=5",
    "--set",
    "eval_every_early=5",
    "--set",
    "early_until=5",
    "--set",
    "runs=[spiral_lejepa, spiral_whiten, nvp_lejepa]",
    "--set",
    "seeds=[1337]",
    "--device",
    "cpu",
    "--no-progress",
    "--jobs",
    "1",
]


def test_tiny_sweep_to_report_renders_in_chromium(tmp_path: Path) -> None:
    out = tmp_path / "results"
    assert main(["sweep", str(CONFIGS / "2d.yaml"), "--out", str(out), *TINY]) == 0
    assert main(["aggregate", str(out)]) == 0
    assert (out / "runs.parquet").exists()
    assert main(["figures", str(out)]) == 0
    assert (out / "figures" / "2d_panels.png").exists()
    assert (out / "figures" / "2d_panels.pdf").exists()
    for name in ("bound", "bound_decomposition", "scatter_losses_r2"):
        assert (out / "figures" / f"{name}.pdf").exists(), name
    assert main(["report", str(out)]) == 0
    claims = {c["id"]: c for c in json.loads((out / "claims.json").read_text())["claims"]}
    # 3 Gaussian lejepa/whiten runs: all counted; no alpha or N sweep: not measured.
    bound = claims["theorem3_bound"]["values"]
    assert bound["n_informative"] + bound["n_vacuous"] + bound["n_collapsed"] == 3
    assert claims["gaussian_peak"]["verdict"] == claims["scaling"]["verdict"] == "not measured"
    page = out / "report.html"
    n_images = page.read_text().count("<img ")
    assert n_images >= 2

    binary = chromium()
    dom = run_chromium(binary, tmp_path / "profile1", "--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    loaded = re.search(r'data-images-loaded="(\d+)"', dom.stdout)
    assert loaded is not None, dom.stdout[:500]
    assert int(loaded.group(1)) == n_images
    shot = tmp_path / "shot.png"
    res = run_chromium(
        binary,
        tmp_path / "profile2",
        f"--screenshot={shot}",
        "--window-size=1200,2400",
        page.as_uri(),
    )
    assert res.returncode == 0 and shot.exists(), res.stderr[-2000:]
    pixels = mpimg.imread(shot)[..., :3]
    # Not blank: a rendered page with scatter plots has many non-white pixels.
    assert float(np.mean(pixels.min(axis=-1) < 0.9)) > 0.02
