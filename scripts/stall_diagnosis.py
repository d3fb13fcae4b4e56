"""Why a run stalls: each initialization's objective value, its code, its world, and the
loss along the straight line from a stalled start's weights to an identified one's.

    python scripts/stall_diagnosis.py RUN [--against OTHER_RUN ...] [--out DIR]

RUN is a best-of-K run folder (``init_weights.safetensors`` holds every initialization);
``--against`` adds the kept encoders of other runs on the same world (the whitening run,
say), each scored by RUN's objective. Written to DIR: ``diagnosis.json`` (every number)
and, when RUN has a stalled and an identified initialization, ``slice.png``/``.pdf``.

The objective is averaged over ``--batches`` fresh training batches (the training batch
size, fresh SIGReg directions each), the same batches for every encoder, so differences
between encoders are not noise of the draw. An initialization stalls when its R²(h -> z)
is at or below ``--floor`` (0.999, the stall claims' floor).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

import torch

from lejepa_id.config.run import RunConfig, make_run_config
from lejepa_id.linalg import r2
from lejepa_id.metrics.evaluation import EvalSet
from lejepa_id.metrics.reference import orthogonality_error
from lejepa_id.objectives import build_objective
from lejepa_id.records.io import atomic_write_json, load_tensors, read_json
from lejepa_id.runtime import generator
from lejepa_id.training.saving import load_encoder
from lejepa_id.worlds.build import world_for

CPU = torch.device("cpu")


def refuse(message: str) -> None:
    """Bad input: one line on stderr, exit status 2, nothing written."""
    print(message, file=sys.stderr)
    raise SystemExit(2)


def run_config(folder: Path) -> RunConfig:
    stored = read_json(folder / "result.json")["config"]
    # A record lists every key, those of components it did not use as null.
    return make_run_config({k: v for k, v in stored.items() if v is not None}, str(folder))


def init_weights(folder: Path) -> list[dict[str, torch.Tensor]]:
    """Every initialization's weights, in init order (one entry for a single-init run)."""
    path = folder / "init_weights.safetensors"
    if not path.is_file():
        return [load_tensors(folder / "weights.safetensors")]
    every = load_tensors(path)
    inits: dict[int, dict[str, torch.Tensor]] = {}
    for key, value in every.items():
        head, name = key.split(".", 1)
        inits.setdefault(int(head.removeprefix("init")), {})[name] = value
    return [inits[k] for k in sorted(inits)]


class Bench:
    """RUN's objective on fixed training batches and its world's evaluation set."""

    def __init__(self, config: RunConfig, batches: int, seed: int = 7) -> None:
        self.config, self.world = config, world_for(config)
        self.objective = build_objective(config.mode, **config.objective_params)
        self.per_run = {k: torch.tensor([float(getattr(self.objective, k))])
                        for k in self.objective.per_run}  # fmt: skip
        gen = generator(CPU, seed, 11)
        self.x, self.draws = [], []
        for _ in range(batches):
            z = self.world.sample_latents(config.batch, gen)
            self.x.append(self.world.render(self.world.sample_views(z, config.views, gen)))
            draw = self.objective.draw(config.code_size, gen, 1)
            self.draws.append(None if draw is None else draw[0].unsqueeze(0))
        self.eval = EvalSet.draw(self.world, config.eval_size, generator(CPU, config.eval_seed, 3))

    @torch.no_grad()
    def score(self, weights: dict[str, torch.Tensor]) -> dict[str, Any]:
        enc = load_encoder(self.config, weights).eval()
        total: dict[str, float] = {}
        for x, draw in zip(self.x, self.draws):
            h = enc(x.reshape(1, -1, x.shape[-1])).reshape(1, *x.shape[:2], -1)
            loss, terms = self.objective.loss(h, draw, **self.per_run)
            for key, value in {"loss": loss, **terms}.items():
                total[key] = total.get(key, 0.0) + float(value[0]) / len(self.x)
        h = enc(self.eval.x.unsqueeze(0))[0].double()
        z = self.eval.z.double()
        centred = (h - h.mean(0)) / h.std(0)
        cov = torch.linalg.eigvalsh(torch.cov(h.T)).flip(0)
        return {
            **total,
            "r2_hz": float(r2(h, z)),
            "orth_err": float(orthogonality_error(z, h)),
            "code_cov_eigenvalues": [float(v) for v in cov],
            "max_abs_excess_kurtosis": float(((centred**4).mean(0) - 3).abs().max()),
        }


def mixing_conditioning(bench: Bench, samples: int = 256) -> dict[str, float]:
    """log10 of the mixing Jacobian's condition number over evaluation latents."""
    z = bench.eval.z[:samples]
    mix = bench.world.mixing
    conds = []
    for point in z:
        jac = torch.autograd.functional.jacobian(lambda v: mix(v.unsqueeze(0))[0], point)
        s = torch.linalg.svdvals(jac.double())
        conds.append(math.log10(float(s[0] / s[-1])))
    conds.sort()
    return {"log10_cond_median": conds[len(conds) // 2], "log10_cond_max": conds[-1]}


def line(bench: Bench, a: dict[str, torch.Tensor], b: dict[str, torch.Tensor],
         ts: list[float]) -> list[dict[str, float]]:  # fmt: skip
    """The objective and R² at (1 - t) a + t b: t = 0 is a, t = 1 is b."""
    out = []
    for t in ts:
        mixed = {k: (1 - t) * a[k] + t * b[k] for k in a}
        s = bench.score(mixed)
        out.append({"t": t, "loss": s["loss"], "r2_hz": s["r2_hz"]})
    return out


def plot_slice(points: list[dict[str, float]], out: Path, title: str) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 3.4))
    t = [p["t"] for p in points]
    ax.plot(t, [p["loss"] for p in points], color="tab:blue", marker=".")
    ax.set_xlabel("t: weights (1 - t) stalled + t identified")
    ax.set_ylabel("training objective", color="tab:blue")
    twin = ax.twinx()
    twin.plot(t, [p["r2_hz"] for p in points], color="tab:red", marker=".")
    twin.set_ylabel("R²(h → z)", color="tab:red")
    for x in (0, 1):
        ax.axvline(x, color="0.7", lw=0.8)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    paths = [out / "slice.png", out / "slice.pdf"]
    for p in paths:
        fig.savefig(p, dpi=150)
    plt.close(fig)
    return paths


def diagnose(run: Path, against: list[Path], out: Path, batches: int, floor: float,
             points: int) -> dict[str, Any]:  # fmt: skip
    config = run_config(run)
    bench = Bench(config, batches)
    inits = init_weights(run)
    scores = [bench.score(w) for w in inits]
    doc: dict[str, Any] = {
        "run": str(run),
        "world": {
            "mixing": config.mixing,
            "dim": config.dim,
            "seed": config.seed,
            "coupling_draw": config.coupling_draw,
            "r2_xz": float(r2(bench.eval.x, bench.eval.z)),
            **mixing_conditioning(bench),
        },  # fmt: skip
        "objective": config.mode,
        "batches": batches,
        "floor": floor,
        "inits": [{"init": k, "stalled": s["r2_hz"] <= floor, **s} for k, s in enumerate(scores)],
        "against": [],
    }
    for other in against:
        cfg = run_config(other)
        if (cfg.mixing, cfg.dim, cfg.seed, cfg.coupling_draw) != (
            config.mixing, config.dim, config.seed, config.coupling_draw
        ):  # fmt: skip
            refuse(f"{other} is not on {run}'s world (mixing, dim, seed, coupling_draw)")
        weights = load_tensors(other / "weights.safetensors")
        # Another objective's code scored by this one; only encoder keys carry over.
        doc["against"].append({"run": str(other), "mode": cfg.mode, **bench.score(weights)})
    stalled = [k for k, s in enumerate(scores) if s["r2_hz"] <= floor]
    identified = [k for k, s in enumerate(scores) if s["r2_hz"] > floor]
    out.mkdir(parents=True, exist_ok=True)
    if stalled and identified:
        a = min(stalled, key=lambda k: scores[k]["loss"])
        b = min(identified, key=lambda k: scores[k]["loss"])
        ts = [-0.25 + 1.5 * i / (points - 1) for i in range(points)]
        doc["slice"] = {"from_init": a, "to_init": b, "points": line(bench, inits[a], inits[b], ts)}
        title = f"{config.mode}, coupling N = {config.dim}, seed {config.seed}: init {a} → {b}"
        doc["figures"] = [str(p) for p in plot_slice(doc["slice"]["points"], out, title)]
    atomic_write_json(out / "diagnosis.json", doc)
    return doc


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run", type=Path, help="a best-of-K run folder")
    p.add_argument("--against", type=Path, nargs="*", default=[], help="runs on the same world")
    p.add_argument("--out", type=Path, help="default: RUN/diagnosis")
    p.add_argument("--batches", type=int, default=64, help="training batches averaged")
    p.add_argument("--floor", type=float, default=0.999)
    p.add_argument("--points", type=int, default=31, help="points on the slice")
    args = p.parse_args(argv)
    if not (args.run / "result.json").is_file():
        refuse(f"{args.run}: no result.json (not a finished run folder)")
    doc = diagnose(args.run, args.against, args.out or args.run / "diagnosis",
                   args.batches, args.floor, args.points)  # fmt: skip
    for s in doc["inits"]:
        print(f"init {s['init']}: loss {s['loss']:.5f} R² {s['r2_hz']:.6f}"
              f"{' (stalled)' if s['stalled'] else ''}")  # fmt: skip
    for s in doc["against"]:
        print(f"{s['mode']} code {s['run']}: loss {s['loss']:.5f} R² {s['r2_hz']:.6f}")


if __name__ == "__main__":
    main()
