"""Atomic writes and safe loading."""

from __future__ import annotations

import json
import os

import pytest
import torch

from lejepa_id.records.io import atomic_write_json, load_tensors, read_json, save_tensors


def test_json_round_trip_with_non_finite_numbers(tmp_path):
    path = tmp_path / "sub" / "r.json"
    atomic_write_json(path, {"a": float("nan"), "b": float("inf"), "t": torch.tensor([1.5])})
    assert read_json(path) == {"a": None, "b": "inf", "t": [1.5]}
    assert oct(path.stat().st_mode & 0o777) == oct(0o666 & ~_umask())
    assert [p.name for p in path.parent.iterdir()] == ["r.json"]  # no temporary left


def _umask() -> int:
    u = os.umask(0)
    os.umask(u)
    return u


def test_failed_write_leaves_the_old_file_intact(tmp_path):
    path = tmp_path / "r.json"
    atomic_write_json(path, {"ok": 1})
    with pytest.raises(TypeError):
        atomic_write_json(path, {"bad": object()})
    assert json.loads(path.read_text()) == {"ok": 1}
    assert len(list(tmp_path.iterdir())) == 1


def test_tensors_round_trip_without_pickle(tmp_path):
    w = {"layer.weight": torch.randn(3, 4)}
    save_tensors(tmp_path / "w.safetensors", w)
    assert torch.equal(load_tensors(tmp_path / "w.safetensors")["layer.weight"], w["layer.weight"])
    (tmp_path / "evil.safetensors").write_bytes(b"\x80\x04pickled")
    with pytest.raises(Exception):  # noqa: B017 - any refusal will do, but never unpickling
        load_tensors(tmp_path / "evil.safetensors")


@pytest.mark.parametrize(
    "text, reason", [("{oops", "not valid JSON"), ("[1, 2]", "not a list"), (b"\xff", "not valid")]
)
def test_input_json_that_is_not_an_object_is_a_one_line_usage_error(tmp_path, text, reason):
    from lejepa_id.errors import UsageError
    from lejepa_id.records.io import read_json_mapping

    path = tmp_path / "plan.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(UsageError, match=reason) as exc:
        read_json_mapping(path, "plan")
    assert "plan.json" in str(exc.value) and "\n" not in str(exc.value)


def test_writes_follow_a_symlinked_folder_and_replace_a_symlinked_file(tmp_path, capsys):
    from pathlib import Path

    from lejepa_id.cli.main import main

    real, elsewhere = tmp_path / "real", tmp_path / "elsewhere.csv"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    config = str(Path(__file__).parents[1] / "configs" / "2d.yaml")
    argv = ["run", config, "--run", "spiral_lejepa", "--seed", "0", "--out",
            str(tmp_path / "link"), "--no-progress", "--set", "steps=4", "--set",
            "eval_size=200", "--set", "hidden=8", "--set", "scatter=0"]  # fmt: skip
    assert main(argv) == 0
    # The folder link is followed: the run lies in its target.
    assert (real / "2d" / "spiral_lejepa-seed0" / "result.json").is_file()
    # A file link is replaced by the new file (written beside it and renamed over the
    # link): what the link pointed to is never written through.
    elsewhere.write_text("not ours\n")
    (real / "2d" / "runs.csv").symlink_to(elsewhere)
    assert main(["aggregate", str(tmp_path / "link" / "2d")]) == 0
    table = real / "2d" / "runs.csv"
    assert not table.is_symlink() and "spiral_lejepa-seed0" in table.read_text()
    assert elsewhere.read_text() == "not ours\n"
