"""scripts/reacher_identification.py on result files with known curves: settings are
grouped by what runs were trained on, the premise is the Reacher claims' own, the first
identified step is the one from which the premise holds to the end, and bad input is one
line, exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lejepa_id.analysis.claims.reacher_common import THRESHOLDS_V2


@pytest.fixture
def script(load_script):
    return load_script("reacher_identification")


def _run(root: Path, pairs: int, seed: int, r2: list[float], orth: list[float]) -> None:
    record = {
        "status": "finished",
        "kind": "ou",
        "config": {"lam": 0.01, "seed": seed, "epochs": len(r2), "batch": 256},
        "data": {"train_identity": {"kind": "ou", "n": pairs, "size": 32, "look": "fast"}},
        "identification": {
            "epoch": list(range(1, len(r2) + 1)),
            "step": [100 * e for e in range(1, len(r2) + 1)],
            "r2_hz": r2,
            "r2_h_sincos": [x - 0.01 for x in r2],
            "orth_err_whitened": orth,
        },
    }
    folder = root / f"ou{pairs}" / f"lam0.01_seed{seed}"
    folder.mkdir(parents=True)
    (folder / "result.json").write_text(json.dumps(record))


def test_settings_seeds_and_the_first_step_identified(script, tmp_path):
    runs = tmp_path / "runs"
    # Identified at step 200, lost at 300, regained from 400: identified from step 400.
    _run(runs, 5000, 0, [0.9, 0.96, 0.97, 0.98], [0.5, 0.15, 0.3, 0.1])
    _run(runs, 5000, 1, [0.5, 0.6, 0.7, 0.8], [1.0, 0.9, 0.8, 0.7])
    # R² above the threshold but orthogonality never within it: not identified.
    _run(runs, 20000, 0, [0.99, 0.99], [0.25, 0.21])
    out = tmp_path / "fig" / "ident"
    assert script.main([str(runs), "--out", str(out)]) == 0
    data = json.loads(out.with_suffix(".json").read_text())
    assert data["thresholds"] == {"r2": THRESHOLDS_V2["r2"], "orth": THRESHOLDS_V2["orth"]}
    rows = {r["setting"]: r for r in data["settings"]}
    small = rows["ou, 32 px fast, 5000 pairs, 4 epochs, batch 256, λ 0.01"]
    assert (small["identified"], small["of"]) == (1, 2)
    assert [s["identified_from_step"] for s in small["seeds"]] == [400, None]
    large = rows["ou, 32 px fast, 20000 pairs, 2 epochs, batch 256, λ 0.01"]
    assert (large["identified"], large["of"]) == (0, 1)
    for suffix in (".png", ".pdf", ".txt"):
        assert out.with_suffix(suffix).stat().st_size > 0
    assert "1 of 2 seeds identified" in out.with_suffix(".txt").read_text()


def test_runs_without_a_curve_are_one_line_and_nothing_written(script, tmp_path, capsys):
    folder = tmp_path / "old" / "lam0.01_seed0"
    folder.mkdir(parents=True)
    (folder / "result.json").write_text(json.dumps({"status": "finished", "config": {}}))
    out = tmp_path / "fig" / "ident"
    assert script.main([str(tmp_path / "old"), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "identify_every" in err[0]
    assert not out.parent.exists()
    assert script.main([str(tmp_path / "missing"), "--out", str(out)]) == 2
    assert "does not exist" in capsys.readouterr().err
