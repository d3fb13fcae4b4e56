"""The CUDA path: the numbers the CPU gives where they must agree, and the code that only
runs on a GPU (stacked groups on one device, the sweep's GPU groups, the Reacher bf16 and
channels-last layouts, the published coupling draw on CUDA). Skipped without a CUDA
device; ``benchmarks/gpu_session.sh`` runs this file on one."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch
from test_training import TINY as CPU_TINY
from test_training import _BreaksAfter

from lejepa_id import RunConfig, World, train
from lejepa_id.cli.main import main
from lejepa_id.objectives import alignment, infonce, sigreg, whitening
from lejepa_id.worlds import cuda_worlds
from lejepa_id.worlds.mixings import coupling_weights

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")

TINY = {**CPU_TINY, "device": "cuda"}


def test_published_loss_values_on_cuda(reference):
    arrays, values = reference
    H, A = torch.from_numpy(arrays["H"]).cuda(), torch.from_numpy(arrays["A"]).cuda()
    ref = values["losses_on_H"]
    assert alignment(H).item() == pytest.approx(ref["alignment"], rel=1e-12)
    assert whitening(H).item() == pytest.approx(ref["whitening"], rel=1e-12)
    assert infonce(H, 0.5).item() == pytest.approx(ref["infonce_sigma_0.5"], rel=1e-12)
    want = ref["sigreg_fixed_directions_A"]
    assert sigreg(H, A).item() == pytest.approx(want, rel=1e-12)
    assert sigreg(H, A, fast=False).item() == pytest.approx(want, rel=1e-12)


def test_fast_sigreg_value_and_gradient_on_cuda_equal_the_cpu_ones(gen):
    H = torch.randn(3, 2, 128, 8, dtype=torch.float64, generator=gen)
    D = torch.nn.functional.normalize(torch.randn(3, 8, 64, dtype=torch.float64), dim=-2)
    values, grads = [], []
    for device in ("cpu", "cuda"):
        h = H.detach().to(device).requires_grad_()
        v = sigreg(h, D.to(device))
        v.sum().backward()
        values.append(v.detach().cpu())
        grads.append(h.grad.cpu())
    torch.testing.assert_close(values[1], values[0], rtol=1e-12, atol=0)
    torch.testing.assert_close(grads[1], grads[0], rtol=1e-10, atol=1e-14)


def test_same_seed_same_numbers_on_cuda():
    a = train(RunConfig(**TINY, seed=3), progress=False)
    b = train(RunConfig(**TINY, seed=3), progress=False)
    assert a.status == "finished" and a.device.startswith("cuda")
    assert a.curves == b.curves and a.metrics == b.metrics
    for k in a.weights:
        assert torch.equal(a.weights[k], b.weights[k]), k


@pytest.mark.parametrize("mode", ["lejepa", "whiten", "infonce"])
def test_batched_group_on_cuda_equals_runs_trained_one_by_one(mode):
    cfgs = [
        RunConfig(**TINY, mode=mode, seed=s, lam=lam, rho=rho, law="gennorm", alpha=a)
        for s, lam, rho, a in [(0, 1e-3, 0.9, 2.0), (1, 0.3, 0.5, 1.0), (2, 0.5, 0.95, 4.0)]
    ]
    together = train(cfgs, progress=False)
    for cfg, res in zip(cfgs, together):
        alone = train(cfg, progress=False)
        keys = list(alone.weights)
        if mode != "lejepa":
            # whiten and infonce do not see a common shift of the codes, so the output
            # bias's gradient is rounding noise that AdamW scales to full steps; batched
            # and single CUDA kernels round differently (measured on an H200 with
            # benchmarks/group_drift.py: 8e-3 after one step for infonce, only there).
            keys = [k for k in keys if k != keys[-1] or not k.endswith("bias")]
        for k in keys:
            assert torch.allclose(res.weights[k], alone.weights[k], rtol=1e-4, atol=1e-5), k
        if mode == "lejepa":  # some metrics (uncentered Procrustes) follow the bias
            for k, v in alone.metrics.items():
                assert res.metrics[k] == pytest.approx(v, rel=1e-4, abs=1e-5, nan_ok=True), k


@pytest.mark.parametrize("path", ["graph", "eager"])
def test_divergence_on_cuda_is_recorded_with_its_step_and_spares_the_group(path, monkeypatch):
    # The CUDA graph (the default) keeps the flags on the device: same record as eager.
    monkeypatch.setenv("LEJEPA_ID_STEP", path)
    bad = World.make(_BreaksAfter(1 + 3 + 2), dim=2, rho=0.9)
    good = World.make("spiral", dim=2, rho=0.9)
    cfgs = [RunConfig(**TINY, seed=0, rho=0.9), RunConfig(**TINY, seed=1, rho=0.9)]
    res_bad, res_good = train(cfgs, worlds=[bad, good], progress=False)
    assert (res_bad.status, res_bad.diverged_step) == ("diverged", 33)
    assert res_good.status == "finished" and math.isfinite(res_good.metrics["r2_hz"])


def test_sweep_on_cuda_trains_groups_and_resumes(tmp_path, capsys):
    config = Path(__file__).parents[1] / "configs" / "2d.yaml"
    args = ["sweep", str(config), "--out", str(tmp_path), "--device", "cuda", "--jobs", "2"]
    args += ["--no-progress", "--set", "steps=40", "--set", "eval_size=500", "--set", "hidden=32"]
    args += ["--set", "num_directions=32", "--set", "seeds=[0,1]", "--set", "scatter=0"]
    assert main(args) == 0
    results = sorted(tmp_path.glob("2d/*/result.json"))
    assert len(results) == 16
    stored = [json.loads(p.read_text()) for p in results]
    assert {r["status"] for r in stored} == {"finished"}
    assert {r["device"].split(":")[0] for r in stored} == {"cuda"}
    capsys.readouterr()
    assert main(args) == 0
    assert "16 already done" in capsys.readouterr().out


def test_published_coupling_draw_on_cuda_is_a_scaled_orthogonal_world():
    for dim in (4, 64):
        W = coupling_weights(dim, 4, 0, draw="published", device="cuda")
        assert W.device.type == "cuda" and W.shape == (4, dim // 2, dim // 2)
        Q = W.double() / 2
        eye = torch.eye(dim // 2, dtype=torch.float64, device="cuda")
        torch.testing.assert_close(Q @ Q.transpose(-1, -2), eye.expand_as(Q), atol=1e-5, rtol=0)
        again = coupling_weights(dim, 4, 0, draw="published", device="cuda")
        assert torch.equal(W, again)
        cpu = coupling_weights(dim, 4, 0, draw="published", device="cpu")
        # CUDA's random stream is not the CPU's: these are different worlds.
        assert (W.cpu() - cpu).abs().max() > 0.1


def test_reacher_training_on_cuda_in_each_layout(tmp_path):
    import lejepa_id.reacher.training as rt
    from lejepa_id.reacher.datasets import FrameData

    def frames(n: int, views: int, seed: int, kind: str) -> FrameData:
        rng = np.random.default_rng(seed)
        pixels = rng.integers(0, 256, (n, views, 16, 16, 3), dtype=np.uint8)
        angles = rng.uniform(-np.pi, np.pi, (n, views, 2))
        ident = {"kind": kind, "size": 16, "look": "fast", "target": "big"}
        meta = {"identity": ident, "norm": {"mean": [0.5] * 3, "std": [0.25] * 3}}
        return FrameData(pixels, angles, meta, Path(f"/nowhere/{kind}"))

    data, gallery = frames(64, 2, 0, "ou"), frames(50, 1, 1, "eval")
    outputs = {}
    for bf16, channels_last in [(False, False), (False, True), (True, True)]:
        cfg = rt.TrainConfig(
            epochs=2, batch=16, fit_n=40, device="cuda", bf16=bf16, channels_last=channels_last
        )
        model, nhwc = rt._model(cfg, torch.device("cuda"))
        x = rt.FrameNormalizer(data.meta["norm"], torch.device("cuda"), nhwc)(
            torch.from_numpy(data.frames[:16, 0]).cuda()
        )
        with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16, enabled=bf16):
            outputs[(bf16, channels_last)] = model(x).float()
        res = rt.train_run(data, gallery, cfg, tmp_path / f"{bf16}{channels_last}", False)
        assert res.status == "finished" and np.isfinite(res.metrics["r2_hz"])
    # The same initial encoder: float32 in either layout agrees to float32 rounding (no
    # TF32), and bfloat16 to its 8-bit mantissa.
    ref = outputs[(False, False)]
    torch.testing.assert_close(outputs[(False, True)], ref, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(outputs[(True, True)], ref, rtol=0, atol=0.05 * ref.abs().max())


def test_the_cuda_draw_gives_the_recorded_worlds():
    info = cuda_worlds.manifest()
    for n in (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024):
        for seed in range(5):
            drawn = coupling_weights(n, 4, seed, draw="published_cuda", device="cuda").cpu()
            if n <= 256:
                want = cuda_worlds.recorded_world(n, 4, seed)
                torch.testing.assert_close(drawn, want, rtol=0, atol=1e-6)
            if torch.__version__ == info["torch"]:  # the same QR code: the same bytes
                digest = hashlib.sha256(drawn.numpy().tobytes()).hexdigest()
                assert digest == info["sha256"][cuda_worlds.world_key(n, seed)]


@pytest.mark.parametrize("mode", ["lejepa", "whiten", "infonce"])
def test_the_cuda_graph_step_equals_the_eager_step_within_float32_rounding(mode, monkeypatch):
    # The graph runs AdamW capturable with a float32 learning rate (the eager step passes
    # a Python float): the two agree to float32 rounding, compounded over the run.
    cfg = RunConfig(**TINY, mode=mode, seed=4)
    monkeypatch.setenv("LEJEPA_ID_STEP", "eager")
    eager = train(cfg, progress=False)
    monkeypatch.setenv("LEJEPA_ID_STEP", "graph")
    graph = train(cfg, progress=False)
    again = train(cfg, progress=False)
    for k, v in eager.weights.items():
        assert torch.allclose(graph.weights[k], v, rtol=1e-4, atol=1e-5), k
        assert torch.equal(graph.weights[k], again.weights[k]), k  # deterministic per seed
    assert graph.metrics["r2_hz"] == pytest.approx(eager.metrics["r2_hz"], abs=1e-4)
