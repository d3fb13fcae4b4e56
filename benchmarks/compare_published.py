"""Where this code's 2d training differs from the published code's, measured.

    python benchmarks/compare_published.py steps --published DIR --run spiral_lejepa --seed 1337
    python benchmarks/compare_published.py eval  --published DIR --run spiral_lejepa --seed 1337
    python benchmarks/compare_published.py final --published DIR --runs spiral_lejepa \\
        --seeds 1337 1338 1339 --out benchmarks/results/parity-2d-cpu.json [--exact] [--perturb]
    python benchmarks/compare_published.py reference --published DIR RUN.pt ... --out REF.json

``--published`` is the ``experiments/`` folder of a checkout of the published code (the one
holding ``run.py`` and its ``lejepa_id/`` package). Its package has the same import name as
this one, so ``steps`` and ``eval`` load it under another name from that folder; ``final``
runs its ``run.py`` as it is, in a fresh process.

- ``steps``: both codes start from the same initial weights (the published initialization,
  copied into this code's stacked encoder) and take the same batches and SIGReg directions
  (the published draws, fed to this code's :class:`~lejepa_id.training.engine.Engine`). After
  the steps given by ``--at`` it prints the largest difference in loss, gradients and
  weights. Float32 rounding alone makes the two drift apart slowly; a real difference in
  the step (schedule, weight decay, a loss term) shows at the first step.
- ``eval``: one trained encoder scored by both codes' metrics on the same evaluation set,
  and this code's spread of R^2(h -> z) over independent evaluation sets of the paper's
  size: how much of a difference between two final numbers the evaluation set alone makes.
- ``final``: whole runs of both codes (same run, seeds, steps, device), each scored three
  ways: by its own code as it reports it, and both encoders on one common yardstick (a
  large evaluation set drawn once, the same for both codes and every seed) so that the
  evaluation sets' draws drop out. Both run side by side, one thread each. Writes a JSON
  of every number with the device (resumed: finished pairs are kept). Two variants, each
  recorded in the JSON: ``--exact`` trains this code with its reference paths (SIGReg by
  its defining formula, AdamW's per-tensor loop), which decides whether the fast paths
  bias a whole run; ``--perturb`` is the control, the published run from initial weights
  perturbed by one float32 rounding, whose distance from the unperturbed published run is
  what rounding chaos alone does over 20,000 steps.
- ``reference``: published 2d runs' ``.pt`` files scored on this code's own evaluation
  set, written as the same-device reference that the ``published_2d`` claim reads.

A benchmark, not a test: it reads the published code from a path the user gives.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import functools
import importlib
import importlib.util
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import torch
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))  # this checkout's package, not another install

from lejepa_id.config.experiments import load_experiment  # noqa: E402
from lejepa_id.config.run import RunConfig  # noqa: E402
from lejepa_id.encoders.stacked import build_encoder  # noqa: E402
from lejepa_id.metrics.evaluation import EvalSet, Scorer  # noqa: E402
from lejepa_id.objectives import build_objective  # noqa: E402
from lejepa_id.records.io import load_tensors  # noqa: E402
from lejepa_id.runtime.seeds import generator  # noqa: E402
from lejepa_id.training.engine import Engine, Schedule  # noqa: E402
from lejepa_id.worlds.build import world_for  # noqa: E402

PUBLISHED_NAME = "published_lejepa_id"
OURS = "import sys; from lejepa_id.cli.main import main; sys.exit(main())"
# This code with its reference paths: SIGReg by its defining formula and AdamW's
# per-tensor loop (the default paths are the multiple-angle recurrence and fused AdamW).
OURS_EXACT = """
import functools, sys, torch
import lejepa_id.objectives.lejepa as lejepa
import lejepa_id.training.engine as engine
lejepa.sigreg = functools.partial(lejepa.sigreg, fast=False)
def per_tensor(self, weight_decay, device):
    return torch.optim.AdamW(self.params, lr=self.schedule.lr, weight_decay=weight_decay,
                             foreach=False)
engine.Engine._optimizer = per_tensor
from lejepa_id.cli.main import main
sys.exit(main())
"""
# The control: the published run.py as it is, from initial weights perturbed by one float32
# rounding (relative 2^-24, random signs, from a generator of its own so that the run's
# stream of draws is untouched). Its distance from the unperturbed run is what rounding
# alone does to a whole run.
PUBLISHED_PERTURBED = """
import runpy, sys, torch
sys.path.insert(0, sys.argv[1])
import run
build = run.build_encoder
def perturbed(*args, **kwargs):
    encoder = build(*args, **kwargs)
    gen = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for p in encoder.parameters():
            sign = torch.randint(0, 2, p.shape, generator=gen) * 2 - 1
            p.mul_(1 + sign.to(p.dtype) * 2.0**-24)
    return encoder
run.build_encoder = perturbed
sys.argv = [sys.argv[1] + "/run.py", *sys.argv[2:]]
run.main()
"""


def load_published(experiments: Path) -> dict[str, ModuleType]:
    """The published package's modules, imported under :data:`PUBLISHED_NAME`."""
    pkg = experiments / "lejepa_id"
    if not (pkg / "engine.py").is_file():
        sys.exit(f"--published {experiments}: no lejepa_id/engine.py there")
    if PUBLISHED_NAME not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            PUBLISHED_NAME, pkg / "__init__.py", submodule_search_locations=[str(pkg)]
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[PUBLISHED_NAME] = module
        spec.loader.exec_module(module)
    names = ("models", "losses", "data", "engine", "metrics", "mixing")
    return {n: importlib.import_module(f"{PUBLISHED_NAME}.{n}") for n in names}


def our_config(run: str, seed: int, sets: list[str]) -> RunConfig:
    exp = load_experiment(REPO / "configs" / "2d.yaml", sets, only=run)
    (spec,) = dataclasses.replace(exp, axes={**exp.axes, "seeds": [seed]}).expand()
    return spec.config


def published_spec(experiments: Path, run: str) -> dict[str, Any]:
    cfg = yaml.safe_load((experiments / "configs" / "2d.yaml").read_text())
    return {**cfg, **cfg["runs"][run]}


def published_encoder(pub: dict[str, ModuleType], spec: dict[str, Any], seed: int):
    """The published run's encoder and mixing, initialized exactly as its run.py does."""
    torch.manual_seed(seed)
    layers = spec.get("n_layers", 4)
    if spec["mixing"] in pub["mixing"].MIXINGS_2D:
        mix = pub["mixing"].MIXINGS_2D[spec["mixing"]]
    else:
        mix = pub["mixing"].make_coupling_mixing(2, n_layers=layers, seed=seed, device="cpu")
    if spec["encoder"] == "mlp":
        enc = pub["models"].make_mlp_encoder(2, hidden=spec.get("hidden", 256), device="cpu")
    else:
        enc = pub["models"].make_matched_encoder(2, layers, seed=seed + 77777, device="cpu")
    return enc, mix


def to_our_weights(state: dict[str, torch.Tensor], encoder: str) -> dict[str, torch.Tensor]:
    """A published encoder's state dict as this code's stacked one (one member).

    nn.Linear keeps (out, in) weights; a StackedLinear keeps (in, out) and a (1, out) bias.
    """
    if encoder == "matched":
        mats = [state[k] for k in sorted(state, key=lambda k: int(k.split(".")[-1]))]
        return {"weight": torch.stack(mats).unsqueeze(0).clone()}
    linear = sorted({int(k.split(".")[0]) for k in state})
    out = {}
    for i, idx in enumerate(linear):
        out[f"layers.{i}.weight"] = state[f"{idx}.weight"].T.unsqueeze(0).clone()
        out[f"layers.{i}.bias"] = state[f"{idx}.bias"].view(1, 1, -1).clone()
    return out


def our_encoder(config: RunConfig, weights: dict[str, torch.Tensor]) -> torch.nn.Module:
    enc = build_encoder(
        config.encoder, config.obs_size, [0], config.code_size,
        hidden=config.hidden, depth=config.depth, layers=config.layers,
    )  # fmt: skip
    enc.load_state_dict(weights)
    return enc


class Feed:
    """Hands the engine one prepared item per ``next()`` (a data source or draw stream)."""

    def __init__(self) -> None:
        self.item: Any = None

    def next(self) -> Any:
        return self.item


def largest(a: torch.Tensor, b: torch.Tensor) -> tuple[float, float]:
    """Largest absolute difference, and that relative to the largest magnitude."""
    a, b = a.detach().double(), b.detach().double()
    diff = float((a - b).abs().max())
    return diff, diff / max(float(b.abs().max()), 1e-30)


def cmd_steps(args: argparse.Namespace) -> None:
    """Same start, same batches: the first step at which the two codes part names the cause."""
    pub = load_published(args.published)
    spec = published_spec(args.published, args.run)
    config = our_config(args.run, args.seed, args.set)
    steps = args.steps or config.steps
    enc_p, mix = published_encoder(pub, spec, args.seed)
    enc_o = our_encoder(config, to_our_weights(enc_p.state_dict(), config.encoder))
    sigreg_p = pub["losses"].SIGReg()
    opt_p = torch.optim.AdamW(enc_p.parameters(), lr=config.lr)
    if args.exact:
        # The reference paths: SIGReg by its defining formula, AdamW's per-tensor loop.
        import lejepa_id.objectives.lejepa as lejepa_module

        lejepa_module.sigreg = functools.partial(lejepa_module.sigreg, fast=False)
    objective = build_objective(config.mode, **config.objective_params)
    lam = float(spec["lamb"])
    data, draws = Feed(), Feed()
    engine = Engine(
        enc_o,
        lambda X: enc_o(X.reshape(1, -1, X.shape[-1])).reshape(*X.shape[:3], -1),
        data,
        objective,
        draws,  # type: ignore[arg-type]
        Schedule(config.lr, steps),
        weight_decay=config.weight_decay,
        per_run={k: torch.tensor([lam]) for k in objective.per_run},
        device=torch.device("cpu"),
        members=1,
    )
    if args.exact:
        engine.opt = torch.optim.AdamW(
            engine.params, lr=config.lr, weight_decay=config.weight_decay, foreach=False
        )
    # Control: the published step itself from weights perturbed by one float32 rounding
    # (relative 2^-24, random signs): how fast rounding alone drifts apart on this run.
    enc_c = copy.deepcopy(enc_p)
    with torch.no_grad():
        gen = torch.Generator().manual_seed(0)
        for p in enc_c.parameters():
            sign = torch.randint(0, 2, p.shape, generator=gen) * 2 - 1
            p.mul_(1 + sign * 2.0**-24)
    opt_c = torch.optim.AdamW(enc_c.parameters(), lr=config.lr)
    torch.manual_seed(args.seed + 1)  # the batches' stream; any seed, the same for both
    B, rho = int(spec["batch_size"]), float(spec["rho"])
    names_p = [n for n, _ in enc_p.named_parameters()]
    at = sorted(set(args.at))
    print(f"{args.run} seed {args.seed}: {steps} steps of schedule, comparing after {at}")
    print("relative differences (largest over entries / largest magnitude):")
    head = ("step", "loss", "grad", "weight")
    print(" ".join(f"{h:>9s}" for h in head) + "   control:     loss    weight")

    def published_step(enc, opt, x, lr):
        for g in opt.param_groups:
            g["lr"] = lr
        h = enc(x.flatten(0, 1)).reshape(2, B, 2)
        align = pub["losses"].alignment_loss(h)
        if spec["mode"] == "lejepa":
            state = torch.get_rng_state()
            reg = sigreg_p(h)
            torch.set_rng_state(state)  # every trajectory gets the same directions
        else:
            reg = pub["losses"].whitening_loss(h)
        loss = lam * reg + (1 - lam) * align
        opt.zero_grad()
        loss.backward()
        grads = [p.grad.detach().clone() for p in enc.parameters()]
        opt.step()
        return loss.detach(), grads

    for step in range(max(at)):
        lr = pub["engine"].warmup_cosine_lr(step, steps, config.lr)
        z = pub["data"].sample_latents(B, 2, device="cpu")
        views = pub["data"].ou_augment(z, rho)  # (2, B, 2)
        x = mix(views)
        state = torch.get_rng_state()
        directions = torch.nn.functional.normalize(torch.randn(2, sigreg_p.n_slices), dim=0)
        torch.set_rng_state(state)
        loss_p, grads_p = published_step(enc_p, opt_p, x, lr)
        loss_c, _ = published_step(enc_c, opt_c, x, lr)
        if spec["mode"] == "lejepa":
            torch.randn(2, sigreg_p.n_slices)  # the stream moves on as in the published run
        data.item = x.unsqueeze(0)
        draws.item = directions.unsqueeze(0) if spec["mode"] == "lejepa" else None
        loss_o, _ = engine.step(step)
        if step + 1 in at:
            mapped = lambda m: to_our_weights(m, config.encoder)  # noqa: E731
            weights_p = mapped(enc_p.state_dict())
            weights_c = mapped(enc_c.state_dict())
            gp = mapped(dict(zip(names_p, grads_p)))
            params = list(enc_o.named_parameters())
            g_rel = max(largest(p.grad[0], gp[n][0])[1] for n, p in params)
            w_rel = max(largest(p[0], weights_p[n][0])[1] for n, p in params)
            c_rel = max(largest(weights_c[n][0], weights_p[n][0])[1] for n, _ in params)
            l_rel = largest(loss_o[0], loss_p)[1]
            lc_rel = largest(loss_c, loss_p)[1]
            print(
                f"{step + 1:9d} {l_rel:9.2e} {g_rel:9.2e} {w_rel:9.2e}            "
                f"{lc_rel:9.2e} {c_rel:9.2e}",
                flush=True,
            )


def score(config: RunConfig, enc: torch.nn.Module, evalset: EvalSet) -> dict[str, float]:
    world = world_for(config)
    scorer = Scorer(
        evalset.z.unsqueeze(0),
        torch.tensor([world.bound_rho()], dtype=torch.float64),
        world.correlations().unsqueeze(0),
        [world.law.is_gaussian],
    )
    with torch.no_grad():
        h = enc(evalset.x.unsqueeze(0))
        hp = enc(evalset.x_prime.unsqueeze(0))
    return {k: float(v[0]) for k, v in scorer.score(h, hp).items()}


def yardstick(config: RunConfig, samples: int, seed: int) -> EvalSet:
    """One evaluation set, the same for both codes and every seed."""
    return EvalSet.draw(world_for(config), samples, generator(torch.device("cpu"), seed, 9))


def published_evalset(pub: dict[str, ModuleType], config: RunConfig, run: str, seed: int,
                      experiments: Path) -> EvalSet:  # fmt: skip
    """The evaluation set the published run.py draws for this run and seed (after the
    mixing and the encoder's initialization, from the same global stream)."""
    spec = published_spec(experiments, run)
    published_encoder(pub, spec, seed)
    z = pub["data"].sample_latents(int(spec.get("num_eval", 10_000)), 2, device="cpu")
    world = world_for(config)
    zp = world.sample_views(z, 1, torch.Generator().manual_seed(seed))[0]
    return EvalSet(z, zp, world.render(z), world.render(zp))


def cmd_eval(args: argparse.Namespace) -> None:
    """One encoder, both metric codes, and the spread due to the evaluation set's draw."""
    pub = load_published(args.published)
    config = our_config(args.run, args.seed, args.set)
    if args.weights:
        saved = load_tensors(args.weights)
        enc = our_encoder(config, {k: v.unsqueeze(0) for k, v in saved.items()})
        source = str(args.weights)
    elif args.published_pt:
        record = torch.load(args.published_pt, map_location="cpu", weights_only=False)
        enc = our_encoder(config, to_our_weights(record["model_state_dict"], config.encoder))
        source = f"{args.published_pt} (its own R^2(h -> z) {record['r2_hz']:.5f})"
    else:  # an untrained but nonlinear encoder still exercises every metric
        spec = published_spec(args.published, args.run)
        enc_p, _ = published_encoder(pub, spec, args.seed)
        enc = our_encoder(config, to_our_weights(enc_p.state_dict(), config.encoder))
        source = "the published initialization"
    print(f"encoder: {source}")
    world = world_for(config)
    ev = EvalSet.draw(world, config.eval_size, generator(torch.device("cpu"), config.eval_seed, 3))
    ours = score(config, enc, ev)
    with torch.no_grad():
        h, hp = enc(ev.x.unsqueeze(0))[0], enc(ev.x_prime.unsqueeze(0))[0]
    theirs = pub["metrics"].compute_all_metrics(ev.z, ev.x, h, hp, world.bound_rho(), 2)
    print("same encoder, this code's evaluation set: this code's metric against the published one")
    for k in ("r2_hz", "r2_zh", "orth_err", "epsilon", "delta", "procrustes_mse"):
        if k in ours and k in theirs:
            print(f"  {k:16s} {ours[k]: .8f} {theirs[k]: .8f}  diff {ours[k] - theirs[k]: .2e}")
    own = score(config, enc, published_evalset(pub, config, args.run, args.seed, args.published))
    print(f"R^2(h -> z) on this code's evaluation set (eval_seed {config.eval_seed}): "
          f"{ours['r2_hz']:.5f}; on the published run's own for seed {args.seed}: "
          f"{own['r2_hz']:.5f}")  # fmt: skip
    values = [
        score(config, enc, yardstick(config, config.eval_size, 100 + i))["r2_hz"]
        for i in range(args.sets)
    ]
    big = score(config, enc, yardstick(config, 1_000_000, 2027))["r2_hz"]
    print(
        f"R^2(h -> z) over {args.sets} independent evaluation sets of {config.eval_size}: "
        f"mean {statistics.mean(values):.5f} SD {statistics.stdev(values):.5f} "
        f"min {min(values):.5f} max {max(values):.5f}; on 1,000,000 latents {big:.5f}"
    )


def one_thread() -> dict[str, str]:
    # Both codes side by side, one thread each: on a shared machine two threads per process
    # only add waiting, and the numbers do not depend on it.
    return {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "PYTHONPATH": str(REPO / "src")}  # fmt: skip


def start_published(
    experiments: Path, run: str, seed: int, steps: int, work: Path, perturb: bool = False
):
    cfg = yaml.safe_load((experiments / "configs" / "2d.yaml").read_text())
    cfg.update(steps=steps, out=str(work / "published"))
    path = work / f"published-{steps}.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    if perturb:
        cmd = [sys.executable, "-c", PUBLISHED_PERTURBED, str(experiments), "--config", str(path)]
    else:
        cmd = [sys.executable, str(experiments / "run.py"), "--config", str(path)]
    log = (work / "published.log").open("w")
    proc = subprocess.Popen([*cmd, "--run", run, "--seed", str(seed)], cwd=work, env=one_thread(),
                            stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
    return proc, work / "published" / f"{run}_seed={seed}.pt"


def start_ours(run: str, seed: int, steps: int, work: Path, sets: list[str], exact: bool = False):
    code = OURS_EXACT if exact else OURS
    cmd = [sys.executable, "-c", code, "run", str(REPO / "configs" / "2d.yaml"), "--run", run]
    cmd += ["--seed", str(seed), "--set", f"steps={steps}", *sum((["--set", s] for s in sets), [])]
    log = (work / "ours.log").open("w")
    proc = subprocess.Popen([*cmd, "--out", str(work / "ours"), "--no-progress", "--threads", "1"],
                            env=one_thread(), stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
    return proc, work / "ours" / "2d" / f"{run}-seed{seed}"


def finish(proc: subprocess.Popen, what: str) -> float:
    start = time.perf_counter()
    if proc.wait() != 0:
        sys.exit(f"{what} failed with exit status {proc.returncode}")
    return time.perf_counter() - start


def cmd_final(args: argparse.Namespace) -> None:
    """Whole runs of both codes, each scored by itself and on one common yardstick."""
    rows: list[dict[str, Any]] = []
    out = args.out
    variant = variant_of(args)
    if out is not None and out.exists():
        previous = json.loads(out.read_text())
        if previous.get("variant", VARIANT_DEFAULT) != variant:
            sys.exit(f"{out} holds runs of another variant ({previous.get('variant')}); "
                     f"give another --out for {variant}")  # fmt: skip
        rows = previous["rows"]  # resume: keep finished pairs
    done = {(r["run"], r["seed"]) for r in rows}
    for run in args.runs:
        config = our_config(run, args.seeds[0], args.set)  # the yardstick does not depend on it
        stick = yardstick(config, args.yardstick, 2027)
        for seed in args.seeds:
            if (run, seed) in done:
                continue
            steps = args.steps or config.steps
            with tempfile.TemporaryDirectory(prefix="compare_published-") as tmp:
                work = Path(tmp) if args.keep is None else args.keep / f"{run}-seed{seed}"
                work.mkdir(parents=True, exist_ok=True)
                t0 = time.perf_counter()
                proc_p, pt = start_published(
                    args.published, run, seed, steps, work, perturb=args.perturb
                )
                proc_o, ours_dir = start_ours(run, seed, steps, work, args.set, exact=args.exact)
                finish(proc_o, "ours")
                t_o = time.perf_counter() - t0
                finish(proc_p, "published run.py")
                t_p = time.perf_counter() - t0
                record = torch.load(pt, map_location="cpu", weights_only=False)
                mine = json.loads((ours_dir / "result.json").read_text())
                cfg = our_config(run, seed, args.set)
                enc_p = our_encoder(cfg, to_our_weights(record["model_state_dict"], cfg.encoder))
                weights = load_tensors(ours_dir / "weights.safetensors")
                enc_o = our_encoder(cfg, {k: v.unsqueeze(0) for k, v in weights.items()})
                sp, so = score(cfg, enc_p, stick), score(cfg, enc_o, stick)
            row = {
                "run": run, "seed": seed, "steps": steps,
                "published_own": {k: record[k] for k in ("r2_hz", "r2_zh", "orth_err")},
                "ours_own": {k: mine["metrics"][k] for k in ("r2_hz", "r2_zh", "orth_err")},
                "published_yardstick": {k: sp[k] for k in ("r2_hz", "r2_zh", "orth_err")},
                "ours_yardstick": {k: so[k] for k in ("r2_hz", "r2_zh", "orth_err")},
                "wall_s": {"published": t_p, "ours": t_o},
            }  # fmt: skip
            rows.append(row)
            print(
                f"{run} seed {seed}: own R^2 published {row['published_own']['r2_hz']:.5f} "
                f"ours {row['ours_own']['r2_hz']:.5f} | yardstick published "
                f"{sp['r2_hz']:.5f} ours {so['r2_hz']:.5f}",
                flush=True,
            )
            if out is not None:
                write(out, rows, args)
    summarise(rows)


def cmd_reference(args: argparse.Namespace) -> None:
    """Published 2d runs scored on this code's own evaluation set: the same-device reference
    the ``published_2d`` claim compares with (its runs are scored on that set too, so the
    evaluation set's draw drops out of the comparison)."""
    values = []
    for pt in args.pt:
        record = torch.load(pt, map_location="cpu", weights_only=False)
        run = record["run_name"]
        config = our_config(run, int(record["seed"]), args.set)
        if int(record["steps"]) != config.steps:
            sys.exit(f"{pt}: {record['steps']} steps, the 2d config has {config.steps}")
        enc = our_encoder(config, to_our_weights(record["model_state_dict"], config.encoder))
        ev = EvalSet.draw(
            world_for(config), config.eval_size, generator(torch.device("cpu"), config.eval_seed, 3)
        )
        mixing = "nvp" if record["mixing"] in ("nvp", "coupling") else record["mixing"]
        values.append(
            {
                "mixing": mixing,
                "mode": record["mode"],
                "seed": int(record["seed"]),
                "steps": int(record["steps"]),
                "r2_hz": score(config, enc, ev)["r2_hz"],
                "r2_hz_own_evaluation_set": float(record["r2_hz"]),
            }
        )
        print(f"{pt.name}: {values[-1]['r2_hz']:.5f} here, {record['r2_hz']:.5f} on its own set")
    # Entries already in OUT for other (mixing, mode, seed) are kept: references grow seed
    # by seed, and a .pt scored again replaces its own entry.
    key = ("mixing", "mode", "seed")
    mine = {tuple(v[k] for k in key) for v in values}
    if args.out.is_file():
        kept = [v for v in json.loads(args.out.read_text())["values"]
                if tuple(v[k] for k in key) not in mine]  # fmt: skip
        values = sorted(kept + values, key=lambda v: tuple(v[k] for k in key))
    doc = {
        "device": "cpu",
        "source": "the published run.py on this machine kind (2 CPU cores), its encoders "
        "scored on this code's evaluation set (eval_seed 2026, 10,000 latents) by "
        "benchmarks/compare_published.py reference",
        "torch": torch.__version__,
        "values": values,
    }
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n")
    tmp.replace(args.out)
    print(f"wrote {args.out}")


VARIANT_DEFAULT = {"ours": "fast paths", "published": "as published"}


def variant_of(args: argparse.Namespace) -> dict[str, str]:
    return {
        "ours": "reference paths" if args.exact else "fast paths",
        "published": "initial weights perturbed by 2^-24" if args.perturb else "as published",
    }


def write(out: Path, rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    doc = {
        "device": f"cpu ({os.cpu_count()} cores, {platform.processor() or platform.machine()})",
        "torch": torch.__version__,
        "variant": variant_of(args),
        "yardstick": {"samples": args.yardstick, "seed": 2027},
        "rows": rows,
    }
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=1))
    tmp.replace(out)


def summarise(rows: list[dict[str, Any]]) -> None:
    print(f"\n{'run':16s} {'scored by':22s} {'published':>20s} {'ours':>20s}  diff / SD")
    for run in dict.fromkeys(r["run"] for r in rows):
        rs = [r for r in rows if r["run"] == run]
        for kind in ("own", "yardstick"):
            p = [r[f"published_{kind}"]["r2_hz"] for r in rs]
            o = [r[f"ours_{kind}"]["r2_hz"] for r in rs]
            sd = statistics.stdev(p + o) if len(rs) > 1 else math.nan
            diff = statistics.mean(o) - statistics.mean(p)
            print(
                f"{run:16s} {kind + f' ({len(rs)} seeds)':22s} "
                f"{statistics.mean(p):10.5f} +- {statistics.stdev(p) if len(p) > 1 else 0:.5f} "
                f"{statistics.mean(o):10.5f} +- {statistics.stdev(o) if len(o) > 1 else 0:.5f}"
                f"  {diff:+.5f} / {sd:.5f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name in ("steps", "eval", "final", "reference"):
        p = sub.add_parser(name)
        p.add_argument("--published", required=True, type=Path, help="checkout's experiments/")
        p.add_argument("--set", action="append", default=[], help="our config key=value")
    s = sub.choices["steps"]
    s.add_argument("--run", default="spiral_lejepa")
    s.add_argument("--seed", type=int, default=1337)
    s.add_argument("--steps", type=int, help="schedule length (default: the config's)")
    s.add_argument("--at", type=int, nargs="+", default=[1, 10, 100, 1000])
    s.add_argument("--exact", action="store_true", help="our reference SIGReg and AdamW paths")
    e = sub.choices["eval"]
    e.add_argument("--run", default="spiral_lejepa")
    e.add_argument("--seed", type=int, default=1337)
    e.add_argument("--weights", type=Path, help="a run's weights.safetensors")
    e.add_argument("--published-pt", type=Path, help="a published 2d run's .pt")
    e.add_argument("--sets", type=int, default=20, help="independent evaluation sets")
    f = sub.choices["final"]
    f.add_argument("--runs", nargs="+", default=["spiral_lejepa"])
    f.add_argument("--seeds", type=int, nargs="+", default=[1337])
    f.add_argument("--steps", type=int, help="default: the config's 20,000")
    f.add_argument("--yardstick", type=int, default=1_000_000, help="common evaluation set")
    f.add_argument("--out", type=Path, help="JSON of every number (resumed if it exists)")
    f.add_argument("--keep", type=Path, help="keep both codes' run folders under this folder")
    f.add_argument("--exact", action="store_true", help="our reference SIGReg and AdamW paths")
    f.add_argument(
        "--perturb",
        action="store_true",
        help="the control: the published run from initial weights perturbed by one rounding",
    )
    r = sub.choices["reference"]
    r.add_argument("pt", type=Path, nargs="+", help="published 2d runs' .pt files")
    r.add_argument(
        "--out", type=Path, required=True, help="the reference JSON (other entries kept)"
    )
    args = parser.parse_args()
    args.published = args.published.resolve()
    commands = {"steps": cmd_steps, "eval": cmd_eval, "final": cmd_final}
    commands["reference"] = cmd_reference
    commands[args.cmd](args)


if __name__ == "__main__":
    main()
