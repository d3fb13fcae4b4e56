"""The record check: what RunResult.save writes passes it, and every edit fails it."""

from __future__ import annotations

import json
import math

import pytest
import torch

from lejepa_id.config.run import RunConfig
from lejepa_id.records.result import RunResult
from lejepa_id.records.validate import metric_kind, metrics_schema, record_problem


@pytest.mark.parametrize(
    "value, kind",
    [(0.5, "number"), (3, "number"), (None, "nan"), (math.nan, "nan"), (math.inf, "inf"),
     ("-inf", "-inf"), ("0.5", None), (True, None), ([[1.0, 0.1], [0.1, 1.0]], "array"),
     ([], None), (["a"], None), ({"a": 1}, None)],
)  # fmt: skip
def test_metric_kinds(value, kind):
    assert metric_kind(value) == kind


def _saved(tmp_path, metrics):
    res = RunResult(config=RunConfig(seed=3), metrics=metrics, weights={"w": torch.ones(2)})
    res.save(tmp_path)
    return json.loads((tmp_path / "result.json").read_text())


def test_saved_record_passes_and_records_hashes_and_schema(tmp_path):
    data = _saved(tmp_path, {"r2_hz": 0.9, "epsilon": math.nan, "bound": math.inf})
    assert data["metrics_schema"] == {"r2_hz": "number", "epsilon": "nan", "bound": "inf"}
    assert set(data["files"]) == {"weights.safetensors"}
    assert record_problem(data, tmp_path) is None
    assert record_problem(data, tmp_path, resume=True) is None


@pytest.mark.parametrize(
    "edit, reason",
    [
        (lambda d: d["metrics"].update(r2_hz=None), "written as number"),
        (lambda d: d["metrics"].update(epsilon=0.1), "written as nan"),
        (lambda d: d["metrics"].update(r2_hz="high"), "not a number"),
        (lambda d: d["metrics"].pop("bound"), "do not match their schema"),
        (lambda d: d["config"].update(dim="abc"), "config dim='abc'"),
        (lambda d: d["config"].clear(), "no config"),
        (lambda d: d["config"].pop("seed"), "lacks 'seed'"),
        (lambda d: d.update(status="done"), "status 'done'"),
        (lambda d: d.update(metrics={}, metrics_schema={}), "without metrics"),
        (lambda d: d["files"].update({"weights.safetensors": "0" * 64}), "sha256"),
    ],
)
def test_every_edit_is_named(tmp_path, edit, reason):
    data = _saved(tmp_path, {"r2_hz": 0.9, "epsilon": math.nan, "bound": math.inf})
    edit(data)
    problem = record_problem(data, tmp_path)
    assert problem is not None and reason in problem and "\n" not in problem


def test_legacy_record_is_accepted_but_resume_needs_its_weights(tmp_path):
    data = _saved(tmp_path, {"r2_hz": None})
    del data["files"], data["metrics_schema"]
    (tmp_path / "weights.safetensors").unlink()
    assert record_problem(data, tmp_path) is None
    assert "weights.safetensors is missing" in record_problem(data, tmp_path, resume=True)


def test_schema_of_what_json_gives_back():
    assert metrics_schema({"a": None, "b": "inf", "c": 1.0}) == {
        "a": "nan", "b": "inf", "c": "number"
    }  # fmt: skip
