"""scripts/stall_properties.py on hand-made diagnoses: each row's counts, losses, barrier and
code shape are the diagnosis's own numbers, and a folder without diagnoses is refused."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def script(load_script):
    return load_script("stall_properties")


def _start(loss: float, stalled: bool, eig: list[float], kurt: float) -> dict:
    return {"loss": loss, "stalled": stalled, "code_cov_eigenvalues": eig,
            "max_abs_excess_kurtosis": kurt, "r2_hz": 0.9 if stalled else 1.0}  # fmt: skip


def _diagnosis(seed: int, starts: list[dict], slice_losses: list[tuple[float, float]] | None):
    doc = {
        "objective": "lejepa",
        "world": {
            "dim": 4,
            "seed": seed,
            "r2_xz": 0.7,
            "log10_cond_median": 1.0,
            "log10_cond_max": 2.5,
        },  # fmt: skip
        "inits": [{"init": k, **s} for k, s in enumerate(starts)],
    }
    if slice_losses is not None:
        points = [{"t": t, "loss": v, "r2_hz": 0.95} for t, v in slice_losses]
        doc["slice"] = {"from_init": 0, "to_init": 1, "points": points}
    return doc


def test_rows_carry_the_diagnoses_numbers(script, tmp_path):
    mixed = _diagnosis(
        3,
        [
            _start(0.08, True, [2.0, 1.0, 0.5, 0.5], 0.4),
            _start(0.05, False, [1.1, 1.0, 1.0, 1.0], 0.1),
            _start(0.09, True, [3.0, 1.0, 1.0, 1.0], 0.7),
        ],
        # The barrier counts only the segment between the two codes (0 <= t <= 1).
        [(-0.25, 0.5), (0.0, 0.08), (0.5, 0.11), (1.0, 0.05), (1.25, 0.3)],
    )
    clean = _diagnosis(0, [_start(0.05, False, [1.0, 1.0, 1.0, 0.5], 0.2)], None)
    for name, doc in (("a", mixed), ("b", clean)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "diagnosis.json").write_text(json.dumps(doc))
    rows = script.collect_rows(tmp_path)
    assert [r["seed"] for r in rows] == [0, 3]
    zero, three = rows
    assert (three["starts"], three["stalled_starts"]) == (3, 2)
    assert (three["stalled_loss"], three["identified_loss"]) == (0.08, 0.05)
    assert three["barrier"] == pytest.approx(0.11 - 0.08)
    assert three["stalled_cov_spread"] == pytest.approx(4.0)  # the worse of 4.0 and 3.0
    assert three["identified_cov_spread"] == pytest.approx(1.1)
    assert three["stalled_kurtosis"] == 0.7
    assert zero["stalled_loss"] is None and zero["barrier"] is None
    assert zero["identified_cov_spread"] == pytest.approx(2.0)
    text = script.markdown(rows)
    assert "| lejepa | 4 | 3 | 2 of 3 |" in text and "0.03000" in text


def test_a_folder_without_diagnoses_is_refused(script, tmp_path, capsys):
    out = tmp_path / "out" / "props"
    with pytest.raises(SystemExit) as stop:
        script.main([str(tmp_path), "--out", str(out)])
    assert stop.value.code == 2
    assert "no diagnosis.json" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
