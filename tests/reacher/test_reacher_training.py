"""Reacher training on the shared engine and helpers: a diverged run is recorded (not
raised) and skipped on resume; device, seeds and result file come from the shared
modules. Frames here are random pixels, so no rendering is needed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import lejepa_id.reacher.training as rt
from lejepa_id.config.run import RunConfig
from lejepa_id.errors import UsageError
from lejepa_id.reacher.datasets import FrameData
from lejepa_id.records.io import load_tensors, read_json
from lejepa_id.records.result import RESULT_FILE, RunResult
from lejepa_id.runtime import check_device, derive_seed, resolve_device

SIZE = 16


def _frames(n: int, views: int, std: float, seed: int, kind: str) -> FrameData:
    rng = np.random.default_rng(seed)
    frames = rng.integers(0, 256, (n, views, SIZE, SIZE, 3), dtype=np.uint8)
    angles = rng.uniform(-np.pi, np.pi, (n, views, 2))
    ident = {"kind": kind, "size": SIZE, "look": "fast", "target": "big"}
    meta = {"identity": ident, "norm": {"mean": [0.5] * 3, "std": [std] * 3}}
    return FrameData(frames, angles, meta, Path(f"/nowhere/{kind}"))


def _cfg(**kw) -> rt.TrainConfig:
    return rt.TrainConfig(**{"epochs": 2, "batch": 16, "fit_n": 40, "device": "cpu", **kw})


def test_a_diverged_run_is_recorded_with_its_step(tmp_path):
    # A zero channel std makes every input infinite: the loss is NaN at the first step.
    bad = _frames(64, 2, 0.0, 0, "ou")
    res = rt.train_run(bad, _frames(50, 1, 0.25, 1, "eval"), _cfg(), tmp_path / "run", False)
    assert (res.status, res.diverged_step, res.metrics) == ("diverged", 1, {})
    stored = read_json(tmp_path / "run" / RESULT_FILE)
    assert stored["status"] == "diverged" and stored["diverged_step"] == 1
    assert stored["steps"] == 1 and stored["curves"]["epoch"] == [1]  # stopped at once
    assert not (tmp_path / "run" / "codes.safetensors").exists()  # nothing to plan with


def test_a_sweep_records_diverged_runs_and_skips_them_on_resume(tmp_path, capsys, monkeypatch):
    from lejepa_id.cli.reacher import print_runs
    from lejepa_id.reacher import datasets
    from lejepa_id.reacher import experiment as rx
    from lejepa_id.sweeps.runner import ExecutorOptions, run_experiment

    data, gallery = _frames(64, 2, 0.0, 0, "ou"), _frames(50, 1, 0.25, 1, "eval")
    by_path = {str(data.path): data, str(gallery.path): gallery}
    # The frames live in memory: the kind's loaders read them instead of a folder.
    monkeypatch.setattr(rx, "_load", lambda path, kind, loader: by_path[str(path)])
    monkeypatch.setattr(datasets, "load_angles", lambda path: (None, by_path[str(path)].meta))
    exp = rx.ReacherExperiment(
        name="grid",
        runs={"ou": {"data": str(data.path)}},
        eval=str(gallery.path),
        defaults={"epochs": 2, "batch": 16, "fit_n": 40, "device": "cpu"},
        axes={"lambs": [0.01, 0.1], "seeds": [0]},
    )
    root = tmp_path / "grid"
    first = run_experiment(exp, root, ExecutorOptions(jobs=1), progress=False)
    runs = [root / "ou" / "lam0.01_seed0", root / "ou" / "lam0.1_seed0"]
    assert set(first.statuses.values()) == {"diverged"}
    stamps = [(r / RESULT_FILE).stat().st_mtime_ns for r in runs]
    assert all(read_json(r / RESULT_FILE)["status"] == "diverged" for r in runs)
    again = run_experiment(exp, root, ExecutorOptions(jobs=1), progress=False)
    assert again.statuses == {}  # nothing trained again
    assert [(r / RESULT_FILE).stat().st_mtime_ns for r in runs] == stamps
    print_runs(runs)
    assert capsys.readouterr().out.count("diverged at step 1") == 2


def test_a_finite_run_scores_and_records_the_plain_cosine_schedule(tmp_path):
    data, gallery = _frames(64, 2, 0.25, 0, "ou"), _frames(50, 1, 0.25, 1, "eval")
    res = rt.train_run(data, gallery, _cfg(), tmp_path / "run", False)
    assert res.status == "finished" and res.diverged_step is None
    assert np.isfinite(res.metrics["r2_hz"]) and res.curves["epoch"] == [1, 2]
    stored = read_json(tmp_path / "run" / RESULT_FILE)
    assert stored["steps"] == 8 and stored["versions"]["lejepa_id"]  # 64 // 16 x 2 epochs
    assert set(stored["versions"]) >= {"torch", "numpy", "python"}
    assert stored["curves"]["step"] == [4, 8] and stored["steps_per_s"] > 0


def test_a_reacher_run_is_saved_as_the_shared_run_record(tmp_path):
    data, gallery = _frames(64, 2, 0.25, 0, "ou"), _frames(50, 1, 0.25, 1, "eval")
    res = rt.train_run(data, gallery, _cfg(), tmp_path / "ou" / "lam0.01_seed0", False)
    assert isinstance(res, RunResult) and res.name == "ou/lam0.01_seed0"
    stored = read_json(tmp_path / "ou" / "lam0.01_seed0" / RESULT_FILE)
    synthetic = RunResult(config=RunConfig()).to_dict()
    # files and metrics_schema are written by save() for every record (records/validate.py).
    extra = {"data", "kind", "label", "steps", "device_name", "files", "metrics_schema"}
    assert set(stored) - set(synthetic) == extra
    assert set(synthetic) <= set(stored)
    assert stored["config"] == _cfg().to_dict() and stored["seed"] == 0
    assert (stored["kind"], stored["label"]) == ("ou", "ou")
    # The final losses are the last epoch's means; the history is columns of one length.
    assert stored["losses"] == {k: stored["curves"][k][-1] for k in ("loss", "alignment", "sigreg")}
    assert {len(v) for v in stored["curves"].values()} == {2}
    assert set(stored["curves"]) == {"epoch", "step", "loss", "alignment", "sigreg", "images_per_s"}
    weights = load_tensors(tmp_path / "ou" / "lam0.01_seed0" / "weights.safetensors")
    assert set(weights) == set(res.weights) and set(weights) == set(
        rt._model(_cfg(), torch.device("cpu"))[0].state_dict()
    )


def test_device_errors_are_the_shared_ones():
    assert rt.resolve_device is resolve_device and not hasattr(rt, "cosine_lr")
    with pytest.raises(UsageError) as shared:
        check_device("tpu")
    with pytest.raises(UsageError) as reacher:
        _cfg(device="tpu").validate()
    assert (
        str(reacher.value)
        == str(shared.value)
        == ("device='tpu' is not one of auto, cpu, cuda, cuda:N")
    )
    if not torch.cuda.is_available():
        with pytest.raises(UsageError) as shared:
            resolve_device("cuda")
        with pytest.raises(UsageError) as reacher:
            data = _frames(32, 2, 0.25, 0, "ou")
            rt.train_run(data, _frames(20, 1, 0.25, 1, "eval"), _cfg(device="cuda"), "x", False)
        assert str(reacher.value) == str(shared.value)


def test_the_initialization_draws_from_the_derived_init_seed():
    from lejepa_id.encoders.cnn import CNNEncoder

    model, _ = rt._model(_cfg(seed=3), torch.device("cpu"))
    want = CNNEncoder(code_dim=2, seed=derive_seed(3, 2)).state_dict()
    other = CNNEncoder(code_dim=2, seed=3).state_dict()  # the old scheme's seed
    got = model.state_dict()
    assert all(torch.equal(got[k], want[k]) for k in want)
    assert not torch.equal(got["head.3.weight"], other["head.3.weight"])


def test_a_run_records_its_datasets_relative_to_its_folder(tmp_path):
    import shutil

    from lejepa_id.reacher.figures_stats import dataset_path

    root = tmp_path / "paper"
    ou, ev = _frames(8, 2, 0.25, 0, "ou"), _frames(8, 1, 0.25, 1, "eval")
    train = FrameData(ou.frames, ou.angles, ou.meta, root / "data" / "ou")
    gallery = FrameData(ev.frames, ev.angles, ev.meta, root / "data" / "eval")
    run = root / "reacher" / "ou" / "lam0.01_seed0"
    record = rt._data_record(train, gallery, run)
    assert record["train_from_run"] == "../../../data/ou"
    # The whole folder moves: the dataset is still found from the run's new place.
    (root / "data" / "ou").mkdir(parents=True)
    moved = tmp_path / "elsewhere"
    shutil.move(str(root), str(moved))
    found = Path(dataset_path(record, moved / "reacher" / "ou" / "lam0.01_seed0"))
    assert found.resolve() == (moved / "data" / "ou").resolve()
    # A record from before keeps its path as given.
    legacy = {"train": "data/reacher/ou"}
    assert dataset_path(legacy, moved / "reacher" / "ou" / "lam0.01_seed0") == "data/reacher/ou"


def _trained(tmp_path: Path, name: str, **kw) -> RunResult:
    data, gallery = _frames(64, 2, 0.25, 0, "ou"), _frames(50, 1, 0.25, 1, "eval")
    return rt.train_run(data, gallery, _cfg(**kw), tmp_path / name, False)


def test_the_default_path_gives_the_same_numbers_for_the_same_seed(tmp_path):
    first, again = _trained(tmp_path, "a"), _trained(tmp_path, "b")
    assert first.curves["loss"] == again.curves["loss"]
    assert all(torch.equal(v, again.weights[k]) for k, v in first.weights.items())
    assert first.metrics == again.metrics


def test_channels_last_matches_the_nchw_reference_to_float32_rounding(tmp_path):
    # The NHWC layout (default, on the CPU since 2026-12-02) runs other oneDNN kernels
    # than the NCHW reference. One step at initialization: codes and weight gradients
    # agree to float32 rounding (the biases of layers followed by BatchNorm excluded: their
    # gradient is zero in exact arithmetic, so what is left is either layout's rounding).
    frames = _frames(32, 1, 0.25, 0, "ou").frames[:, 0]
    grads, codes = {}, {}
    for layout in (True, False):
        model, nhwc = rt._model(_cfg(channels_last=layout), torch.device("cpu"))
        norm = rt.FrameNormalizer({"mean": [0.5] * 3, "std": [0.25] * 3}, "cpu", nhwc)
        codes[layout] = model(norm(frames))
        codes[layout].pow(2).sum().backward()
        grads[layout] = {k: p.grad for k, p in model.named_parameters()}
    noise = {
        f"{name}.{i}.bias"
        for name in ("features", "head")
        for i, nxt in enumerate(list(getattr(model, name))[1:])
        if isinstance(nxt, torch.nn.BatchNorm2d | torch.nn.BatchNorm1d)
    }
    assert len(noise) == 5  # four convolutions and the first linear layer
    scale = codes[False].abs().max()
    assert (codes[True] - codes[False]).abs().max() <= 1e-5 * scale
    for k, g in grads[False].items():
        if k not in noise:
            assert (grads[True][k] - g).abs().max() <= 1e-4 * g.abs().max(), k
    # Eight steps later (AdamW amplifies rounding in small gradients) the losses still
    # agree to 1e-4 relative.
    fast, ref = _trained(tmp_path, "nhwc"), _trained(tmp_path, "nchw", channels_last=False)
    assert np.allclose(fast.curves["loss"], ref.curves["loss"], rtol=1e-4, atol=0)


def test_bf16_on_the_cpu_runs_in_bfloat16_close_to_float32(tmp_path):
    # Autocast really is on (the losses differ beyond float32 rounding), and bfloat16's
    # 8-bit mantissa keeps the 8-step losses within 5% of the float32 reference.
    fast, ref = _trained(tmp_path, "bf16", bf16=True), _trained(tmp_path, "fp32")
    rel = np.abs(np.subtract(fast.curves["loss"], ref.curves["loss"])) / np.abs(ref.curves["loss"])
    assert rel.max() > 1e-4 and rel.max() < 0.05
    assert fast.status == "finished" and np.isfinite(fast.metrics["r2_hz"])


def test_identification_checks_leave_the_training_unchanged_and_end_at_the_final_scores(
    tmp_path,
):
    plain = _trained(tmp_path, "plain", epochs=4)
    checked = _trained(tmp_path, "checked", epochs=4, identify_every=1)
    assert "identification" not in plain.extra
    for k, v in plain.weights.items():
        assert torch.equal(v, checked.weights[k]), k

    def training(curves: dict) -> dict:
        return {k: v for k, v in curves.items() if k != "images_per_s"}

    assert training(plain.curves) == training(checked.curves)
    curve = checked.extra["identification"]
    per_epoch = plain.curves["step"][0]
    assert curve["epoch"] == [1, 2, 3, 4]
    assert curve["step"] == [per_epoch * e for e in (1, 2, 3, 4)]
    for key in rt.IDENTIFICATION_KEYS:
        assert curve[key][-1] == checked.metrics[key] == plain.metrics[key]
        assert len(set(curve[key])) > 1, key  # the encoder changed between checks
    assert checked.extra["identification_s"] > 0


def test_an_identification_check_scores_the_encoder_of_that_epoch(tmp_path, monkeypatch):
    """The point after epoch 1 is the scores of the weights after epoch 1 (snapshotted by
    the epoch callback), computed as the final metrics are."""
    models, snapshots = [], {}
    real_model = rt._model

    def keep(cfg, device):
        model, channels_last = real_model(cfg, device)
        models.append(model)
        return model, channels_last

    monkeypatch.setattr(rt, "_model", keep)

    def snapshot(epoch: int) -> None:
        snapshots[epoch] = {k: v.clone() for k, v in models[0].state_dict().items()}

    data, gallery = _frames(64, 2, 0.25, 0, "ou"), _frames(50, 1, 0.25, 1, "eval")
    cfg = _cfg(epochs=3, identify_every=1)
    res = rt.train_run(data, gallery, cfg, tmp_path / "run", False, on_epoch=snapshot)
    model, channels_last = real_model(cfg, torch.device("cpu"))
    model.load_state_dict(snapshots[1])
    normalize = rt.FrameNormalizer(data.meta["norm"], torch.device("cpu"), channels_last)
    fit = rt.fit_indices(len(data.frames), cfg.fit_n)
    scores = rt.encoder_scores(
        rt.encode(model, data.frames[fit, 0], normalize),
        torch.from_numpy(data.angles[fit, 0]),
        rt.encode(model, gallery.frames[:, 0], normalize),
        torch.from_numpy(gallery.angles[:, 0]),
    )
    curve = res.extra["identification"]
    assert curve["epoch"] == [1, 2, 3]
    for key in rt.IDENTIFICATION_KEYS:
        assert curve[key][0] == scores[key], key
    # Checks every 2 epochs of a 2-epoch run fall only on the last: the final scores.
    two = _trained(tmp_path, "two", epochs=2, identify_every=2)
    assert two.extra["identification"]["epoch"] == [2]
    with pytest.raises(UsageError, match="identify_every=-1"):
        rt.TrainConfig(identify_every=-1).validate()
