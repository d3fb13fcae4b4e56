"""The benchmark scripts' own settings are valid configurations (they are not run here:
their numbers are measurements, not tests)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from lejepa_id.config.experiments import load_experiment

ROOT = Path(__file__).parents[1]


def _module(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _published_mlp():
    """The published 2d encoder's layout: Linear, GELU, ..., Linear, (out, in) weights."""
    import torch

    torch.manual_seed(0)
    layers = [torch.nn.Linear(2, 256), torch.nn.GELU()]
    for _ in range(3):
        layers += [torch.nn.Linear(256, 256), torch.nn.GELU()]
    layers.append(torch.nn.Linear(256, 2))
    return torch.nn.Sequential(*layers)


@pytest.mark.parametrize("dim", [2, 64, 1024])
def test_sweep_benchmark_settings_validate_at_every_scaling_dimension(dim):
    sets = _module("bench_sweeps").quiet_evaluation(300, [f"dim={dim}"])
    exp = load_experiment(ROOT / "configs" / "scaling.yaml", ["steps=300", *sets])
    cfg = exp.run_config("lejepa")
    assert cfg.dim == dim and cfg.eval_size == max(2000, 4 * dim)
    assert cfg.eval_every == 300


def test_the_operator_count_knows_the_products_of_a_2d_step():
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        launches = _module("bench_launches")
        engine = launches.build("2d", 1, "cpu", "eager").engine
        ops = launches.count_ops(engine, 0, 16)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    # The mlp 2 -> 256 -> 256 -> 256 -> 256 -> 2: five biased products forward; backward
    # five weight gradients and four input gradients (the data need none); SIGReg's
    # projection of the codes forward and its gradient: 11 plain products per step.
    assert ops["aten.baddbmm"] == 5 * 16
    assert ops["aten.bmm"] == 11 * 16
    assert ops["aten._fused_adamw_"] == 16  # one optimizer kernel per step


def test_the_parity_benchmark_maps_a_torch_mlp_onto_the_stacked_encoder_exactly():
    """compare_published.py copies a published nn.Sequential encoder (Linear, GELU, ...,
    Linear: (out, in) weights) into this code's stacked one; the two must then compute the
    same function, or every side-by-side number it prints compares different encoders."""
    import torch

    from lejepa_id.config.run import RunConfig

    compare = _module("compare_published")
    reference = _published_mlp()
    config = RunConfig(mixing="spiral", encoder="mlp").validate()
    ours = compare.our_encoder(config, compare.to_our_weights(reference.state_dict(), "mlp"))
    x = torch.randn(1000, 2)
    with torch.no_grad():
        assert torch.allclose(ours(x.unsqueeze(0))[0], reference(x), rtol=0, atol=1e-6)


def test_the_parity_benchmark_maps_coupling_matrices_in_layer_order():
    import torch

    from lejepa_id.config.run import RunConfig

    compare = _module("compare_published")
    mats = [torch.randn(1, 1) for _ in range(12)]
    # A ParameterList's keys sort as strings ("Ws.10" before "Ws.2"); layer order is numeric.
    state = {f"Ws.{i}": m for i, m in enumerate(mats)}
    weights = compare.to_our_weights(state, "matched")
    config = RunConfig(mixing="coupling", encoder="matched", layers=12).validate()
    enc = compare.our_encoder(config, weights)
    assert torch.equal(enc.weight[0], torch.stack(mats))


def test_the_parity_benchmarks_exact_variant_switches_to_the_reference_paths(monkeypatch):
    """``final --exact`` must train with SIGReg's defining formula and AdamW's per-tensor
    loop, or its whole-run comparison says nothing about the fast paths."""
    import functools

    import torch

    import lejepa_id.objectives.lejepa as lejepa
    import lejepa_id.training.engine as engine

    compare = _module("compare_published")
    # Let monkeypatch restore both after the snippet patches them.
    monkeypatch.setattr(lejepa, "sigreg", lejepa.sigreg)
    monkeypatch.setattr(engine.Engine, "_optimizer", engine.Engine._optimizer)
    patches = compare.OURS_EXACT.split("from lejepa_id.cli.main")[0]
    exec(patches, {})
    assert isinstance(lejepa.sigreg, functools.partial)
    assert lejepa.sigreg.keywords == {"fast": False}
    linear = torch.nn.Linear(2, 2)
    holder = type("E", (), {"params": list(linear.parameters())})()
    holder.schedule = type("S", (), {"lr": 1e-3})()
    opt = engine.Engine._optimizer(holder, 0.01, torch.device("cpu"))
    assert opt.defaults["foreach"] is False and not opt.defaults["fused"]
    assert opt.defaults["weight_decay"] == 0.01


def test_the_parity_benchmarks_control_perturbs_only_the_initial_weights(tmp_path):
    """``final --perturb`` runs the published run.py with every initial weight moved by at
    most one float32 rounding, and leaves the run's own stream of draws untouched."""
    import subprocess
    import sys

    compare = _module("compare_published")
    (tmp_path / "run.py").write_text(
        "import sys, torch\n"
        "def build_encoder(*a, **k):\n"
        "    torch.manual_seed(0)\n"
        "    return torch.nn.Linear(50, 40)\n"
        "def main():\n"
        "    enc = build_encoder()\n"
        "    torch.save({'w': enc.weight.detach(), 'draw': torch.randn(3), 'argv': sys.argv},\n"
        "               sys.argv[-1])\n"
    )
    plain, perturbed = tmp_path / "plain.pt", tmp_path / "perturbed.pt"
    code = "import sys; sys.argv = ['run.py', sys.argv[1]]; import run; run.main()"
    subprocess.run([sys.executable, "-c", code, str(plain)], cwd=tmp_path, check=True)
    cmd = [sys.executable, "-c", compare.PUBLISHED_PERTURBED, str(tmp_path), str(perturbed)]
    subprocess.run(cmd, cwd=tmp_path, check=True)
    import torch

    a, b = torch.load(plain), torch.load(perturbed)
    rel = ((b["w"] - a["w"]) / a["w"]).abs()
    assert rel.max() <= 2.0**-23  # at most one rounding
    assert (rel > 0).float().mean() > 0.3  # most entries moved (1 + 2^-24 rounds to 1)
    assert torch.equal(a["draw"], b["draw"])  # the stream after the build is the same
    assert b["argv"][1:] == [str(perturbed)]


def test_the_stall_control_records_every_start_of_the_published_best_of_k(tmp_path):
    """The published run.py keeps only its best start; the control's wrapper must record
    each start's result as run_single returned it, and pass the result on unchanged."""
    import json
    import subprocess
    import sys

    stall = _module("published_stall")
    (tmp_path / "run.py").write_text(
        "import json, sys\n"
        "def run_single(spec, device):\n"
        "    s = spec['seed']\n"
        "    return {'r2_hz': 1 - 1 / s, 'r2_zh': 0.5, 'orth_err': s / 10,\n"
        "            'final_loss': 1 / s}, None\n"
        "def main():\n"
        "    kept = [run_single({'seed': s}, 'cpu')[0] for s in (1, 1001, 2001)]\n"
        "    json.dump({'argv': sys.argv, 'kept': kept}, open('kept.json', 'w'))\n"
    )
    starts = tmp_path / "starts.jsonl"
    cmd = [sys.executable, "-c", stall.PUBLISHED_EVERY_START, str(tmp_path), str(starts)]
    subprocess.run([*cmd, "--config", "c.yaml"], cwd=tmp_path, check=True)
    rows = [json.loads(line) for line in starts.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [1, 1001, 2001]
    assert rows[1] == {"seed": 1001, "r2_hz": 1 - 1 / 1001, "r2_zh": 0.5,
                       "orth_err": 100.1, "final_loss": 1 / 1001}  # fmt: skip
    kept = json.loads((tmp_path / "kept.json").read_text())
    assert kept["argv"][1:] == ["--config", "c.yaml"]
    assert kept["kept"][2]["final_loss"] == 1 / 2001


def test_the_reference_grows_seed_by_seed(tmp_path):
    """compare_published.py reference keeps the entries OUT already holds for other seeds
    and replaces the one a .pt scores again, so a same-device reference can be extended as
    published runs finish without rerunning the earlier ones."""
    import argparse
    import json

    import torch

    compare = _module("compare_published")
    state = _published_mlp().state_dict()
    pt = tmp_path / "spiral_lejepa-1338.pt"
    record = {"run_name": "spiral_lejepa", "seed": 1338, "steps": 20000, "mixing": "spiral",
              "mode": "lejepa", "r2_hz": 0.5, "model_state_dict": state}  # fmt: skip
    torch.save(record, pt)
    out = tmp_path / "reference.json"
    old = [{"mixing": "spiral", "mode": "lejepa", "seed": s, "r2_hz": v}
           for s, v in ((1337, 0.98), (1338, 0.1))]  # fmt: skip
    out.write_text(json.dumps({"device": "cpu", "values": old}))
    compare.cmd_reference(argparse.Namespace(pt=[pt], set=[], out=out))
    values = json.loads(out.read_text())["values"]
    assert [(v["seed"], v["r2_hz"] == 0.98) for v in values] == [(1337, True), (1338, False)]
    scored = values[1]
    assert scored["r2_hz_own_evaluation_set"] == 0.5 and scored["r2_hz"] != 0.1


def test_large_n_benchmark_projects_a_full_run_from_its_two_timings():
    row = _module("bench_large_n").measure(4, "whiten", 8, "1")
    # The paper's schedule: every 100 steps up to 1,000, then every 500 up to 20,000.
    assert row["full_run_evals"] == 10 + 38
    assert row["step_s"] > 0 and row["eval_s"] >= 0
    assert row["full_run_s"] == 20_000 * row["step_s"] + 48 * row["eval_s"]


def test_the_projection_check_is_what_the_committed_overnight_folder_gives():
    """benchmarks/results/projection-check-overnight.json and docs/overnight.md's table
    are recomputed from the committed runs and budget.json: a run, a time or a cell that
    changed without the check being run again fails here."""
    import json

    from lejepa_id.sweeps.paper import format_duration

    committed = json.loads(
        (ROOT / "benchmarks" / "results" / "projection-check-overnight.json").read_text()
    )
    fresh = _module("projection_check").check(ROOT / "results" / "paper-overnight")
    assert fresh == committed["rows"]
    assert {r["experiment"] for r in fresh} >= {"2d", "scaling", "reacher", "codedim_x2"}
    doc = (ROOT / "docs" / "overnight.md").read_text()
    for r in fresh:
        proj, own, meas = r["projected_s"], r["own_paces_s"], r["measured_s"]
        cells = [format_duration(v) for v in (proj, own, meas)]
        cells += [f"{meas / proj:.2f}", f"{meas / own:.2f}"]
        assert f"| {r['experiment']} | " + " | ".join(cells) + " |" in doc, r["experiment"]
