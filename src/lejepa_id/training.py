"""The training engine (SPEC.md section 6): one loop for one run or a stack of runs.

:func:`train` trains every run of a compatible group at once. Each run (and each of its
``inits`` initializations) is a *member* of a stacked encoder; members draw their data,
SIGReg directions and initial weights from their own seeds, so a member follows exactly
the trajectory it would follow alone (AdamW is elementwise). A single run is a group of
one. A member whose loss turns NaN or infinite stops contributing to the update and is
recorded as diverged at that step; the others continue.
"""

from __future__ import annotations

import math
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tqdm.auto import tqdm

from lejepa_id.config import RunConfig
from lejepa_id.encoders import build_encoder
from lejepa_id.errors import UsageError
from lejepa_id.evaluation import EvalSet, Scorer
from lejepa_id.io import atomic_write_json, save_tensors
from lejepa_id.metrics import grid_metrics
from lejepa_id.objectives import objective, random_directions
from lejepa_id.threads import encoder_work, resolve_threads, torch_threads
from lejepa_id.worlds import World

# Purposes of the seeds derived from a run's seed; fixed forever for reproducibility.
_DATA, _INIT, _EVAL, _DIRECTIONS, _SCATTER = 1, 2, 3, 4, 5
# Steps of data drawn at once; fixed so a run's stream never depends on its group.
_CHUNK = 16
# Keys that must agree for runs to share one stacked model and one optimizer.
GROUP_KEYS = (
    "dim",
    "encoder",
    "hidden",
    "depth",
    "layers",
    "views",
    "mode",
    "steps",
    "batch",
    "lr",
    "weight_decay",
    "num_directions",
    "knots",
    "t_max",
    "sigma",
    "eval_size",
    "eval_every",
    "eval_every_early",
    "early_until",
    "device",
)


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers (run seed, purpose, index), stable across platforms."""
    state = np.random.SeedSequence([int(p) % 2**63 for p in parts]).generate_state(2)
    return int(state[0]) << 31 ^ int(state[1])


def generator(device: torch.device, *parts: int) -> torch.Generator:
    return torch.Generator(device=device).manual_seed(derive_seed(*parts))


def resolve_device(name: str) -> torch.device:
    """``auto`` picks CUDA when present; asking for CUDA without one is a usage error."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise UsageError(f"device={name!r} but no CUDA device is available; use cpu or auto")
    return torch.device(name)


def lr_factor(step: int, steps: int) -> float:
    """Constant for the first half of training, then cosine decay to 0 over the second."""
    half = steps // 2
    if step < half:
        return 1.0
    return 0.5 * (1.0 + math.cos(math.pi * (step - half) / max(steps - half, 1)))


def make_world(config: RunConfig) -> World:
    """The world a config describes (named mixing seeded by the run).

    A ``published`` coupling draw happens on the run's device, as in the published code.
    """
    return World.make(
        config.mixing,
        config.dim,
        config.rho,
        config.law,
        config.alpha,
        config.layers,
        config.resolved_mixing_seed,
        config.coupling_draw,
        resolve_device(config.device),
    )


def software_versions() -> dict[str, str]:
    import lejepa_id

    return {
        "lejepa_id": lejepa_id.__version__,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "numba": _numba_version(),
        "cuda": str(torch.version.cuda),
    }


def _numba_version() -> str:
    try:
        import numba
    except ImportError:
        return "absent"
    return numba.__version__


class DataStream:
    """Positive pairs of one world from its own generator, drawn ``_CHUNK`` steps at a time.

    Shape:
        next() -> (V, B, N) observations of B latents in V OU views.
    """

    def __init__(self, world: World, config: RunConfig, device: torch.device) -> None:
        self.world, self.config = world, config
        self.gen = generator(device, config.seed, _DATA)
        self.buffer: list[torch.Tensor] = []

    def next(self) -> torch.Tensor:
        if not self.buffer:
            c = self.config
            z = self.world.sample_latents(_CHUNK * c.batch, self.gen)
            x = self.world.render(self.world.sample_views(z, c.views, self.gen))
            self.buffer = list(x.reshape(c.views, _CHUNK, c.batch, c.dim).unbind(1))[::-1]
        return self.buffer.pop()


@dataclass
class RunResult:
    """What a run produced: config, final metrics and losses, curves and weights."""

    config: RunConfig
    status: str = "finished"
    diverged_step: int | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    losses: dict[str, float] = field(default_factory=dict)
    curves: dict[str, list[float]] = field(default_factory=dict)
    wall_time_s: float = 0.0
    steps_per_s: float = 0.0
    threads: int = 0
    selected_init: int = 0
    init_final_losses: list[float] = field(default_factory=list)
    device: str = "cpu"
    versions: dict[str, str] = field(default_factory=software_versions)
    weights: dict[str, torch.Tensor] = field(default_factory=dict, repr=False)
    scatter: dict[str, torch.Tensor] | None = field(default=None, repr=False)
    name: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if k not in ("weights", "scatter")}
        out["seed"] = self.config.seed
        return out

    def save(self, directory: str | Path) -> Path:
        """Write weights (and scatter) first, result.json last: its presence marks a
        finished run. Each file is written atomically."""
        directory = Path(directory)
        save_tensors(directory / "weights.safetensors", self.weights)
        if self.scatter is not None:
            save_tensors(directory / "scatter.safetensors", self.scatter)
        atomic_write_json(directory / "result.json", self.to_dict())
        return directory / "result.json"


def _check_group(configs: Sequence[RunConfig]) -> None:
    first = configs[0]
    for c in configs[1:]:
        for key in GROUP_KEYS:
            if getattr(c, key) != getattr(first, key):
                raise ValueError(
                    f"runs of one group must share {key}: "
                    f"{getattr(first, key)!r} != {getattr(c, key)!r}"
                )


def train(
    configs: RunConfig | Sequence[RunConfig],
    worlds: World | Sequence[World] | None = None,
    progress: bool = True,
    names: Sequence[str] | None = None,
    on_eval: Callable[[int, list[dict[str, float]]], None] | None = None,
    threads: int | str | None = None,
) -> RunResult | list[RunResult]:
    """Train one run, or a group of runs sharing an architecture, to completion.

    Args:
        configs: one RunConfig (returns one RunResult) or a sequence (returns a list).
        worlds: optional worlds to use instead of the configs' named ones, e.g. with a
            user-supplied mixing: ``train(cfg, World.make(my_fn, dim=2))``.
        progress: show a progress bar with steps/s, loss and R^2(h -> z).
        names: labels for the progress bar and results.
        on_eval: called after each evaluation with (step, one metrics dict per run).
        threads: CPU threads for torch while training: a count, or ``auto``/None to
            follow ``LEJEPA_ID_THREADS``, ``OMP_NUM_THREADS``, else the model size
            (see :mod:`lejepa_id.threads`). Restored afterwards; never changes the weights.
    """
    single = isinstance(configs, RunConfig)
    cfgs = [configs] if single else list(configs)
    if not cfgs or not all(isinstance(c, RunConfig) for c in cfgs):
        raise UsageError(f"train() needs a RunConfig or a non-empty list of them, got {configs!r}")
    cfgs = [c.validate() for c in cfgs]
    _check_group(cfgs)
    if names is not None and len(names) != len(cfgs):
        raise UsageError(f"train() got {len(names)} names for {len(cfgs)} configs")
    if worlds is None:
        wlds = [make_world(c) for c in cfgs]
    else:
        wlds = [worlds] if isinstance(worlds, World) else list(worlds)
        if len(wlds) != len(cfgs):
            raise UsageError(f"train() got {len(wlds)} worlds for {len(cfgs)} configs")
        for c, w in zip(cfgs, wlds):
            if w.dim != c.dim:
                raise UsageError(f"dim={c.dim} does not match the supplied world's dim={w.dim}")
    c0 = cfgs[0]
    members = sum(c.effective_inits for c in cfgs)
    work = members * encoder_work(c0.encoder, c0.dim, c0.hidden, c0.depth, c0.layers)
    with torch_threads(resolve_threads(work, threads)) as n:
        results = _Trainer(cfgs, wlds, names or [""] * len(cfgs), progress, on_eval).run()
    for res in results:
        res.threads = n
    return results[0] if single else results


class _Trainer:
    """State of one group's training; :meth:`run` is the readable loop."""

    def __init__(self, cfgs, worlds, names, progress, on_eval) -> None:
        self.cfgs, self.worlds, self.names = cfgs, worlds, list(names)
        self.progress, self.on_eval = progress, on_eval
        c0 = cfgs[0]
        self.c0 = c0
        self.device = resolve_device(c0.device)
        # Members: (run index, init index).
        self.members = [(r, k) for r, c in enumerate(cfgs) for k in range(c.effective_inits)]
        R = len(self.members)
        init_seeds = [derive_seed(cfgs[r].seed, _INIT, k) for r, k in self.members]
        self.encoder = build_encoder(
            c0.encoder, c0.dim, init_seeds, c0.hidden, c0.depth, c0.layers
        ).to(self.device)
        fused = self.device.type in ("cuda", "cpu")
        self.opt = torch.optim.AdamW(
            self.encoder.parameters(), lr=c0.lr, weight_decay=c0.weight_decay, fused=fused
        )
        for w in worlds:
            w.mixing.to(self.device)
        self.streams = [DataStream(w, c, self.device) for w, c in zip(worlds, cfgs)]
        self.dir_gens = [
            generator(self.device, cfgs[r].seed, _DIRECTIONS, k) for r, k in self.members
        ]
        self.dir_buffers: list[list[torch.Tensor]] = [[] for _ in self.members]
        self.lam = torch.tensor([cfgs[r].lam for r, _ in self.members], device=self.device)
        rho = torch.tensor([cfgs[r].rho for r, _ in self.members], dtype=torch.float64)
        self.evalsets = [
            EvalSet.draw(w, c.eval_size, generator(self.device, c.eval_seed, _EVAL))
            for w, c in zip(worlds, cfgs)
        ]
        self.scorer = Scorer(
            torch.stack([self.evalsets[r].z for r, _ in self.members]), rho.to(self.device)
        )
        self.x_eval = torch.stack([self.evalsets[r].x for r, _ in self.members])
        self.x_eval_prime = torch.stack([self.evalsets[r].x_prime for r, _ in self.members])
        self.baselines = [e.baseline() for e in self.evalsets]
        self.alive = torch.ones(R, dtype=torch.bool, device=self.device)
        self.diverged_at = torch.full((R,), -1, dtype=torch.long, device=self.device)
        # A host sync per step is free on the CPU but stalls a GPU's queue: there the
        # divergence bookkeeping stays on the device and is read at evaluations.
        self.sync_each_step = self.device.type == "cpu"
        self.curves: list[dict[str, list[float]]] = [{} for _ in range(R)]
        self.recent_loss = torch.zeros(R, device=self.device)
        self.recent_count = 0
        self.last_terms: dict[str, torch.Tensor] = {}
        self.last_loss = torch.zeros(R, device=self.device)

    def batch(self) -> torch.Tensor:
        """Shape: -> (R, V, B, N)."""
        per_run = [s.next() for s in self.streams]
        return torch.stack([per_run[r] for r, _ in self.members])

    def directions(self) -> torch.Tensor | None:
        """Fresh SIGReg directions for each member, drawn ``_CHUNK`` steps at a time.

        Shape: -> (R, N, S)
        """
        if self.c0.mode != "lejepa":
            return None
        for gen, buffer in zip(self.dir_gens, self.dir_buffers):
            if not buffer:
                draw = random_directions(self.c0.dim, self.c0.num_directions, gen, (_CHUNK,))
                buffer.extend(draw.unbind(0)[::-1])
        return torch.stack([buffer.pop() for buffer in self.dir_buffers])

    def step(self, step: int) -> None:
        c0 = self.c0
        X = self.batch()
        R, V, B, N = X.shape
        H = self.encoder(X.reshape(R, V * B, N)).reshape(R, V, B, N)
        loss, terms = objective(
            H,
            c0.mode,
            self.lam,
            c0.sigma,
            None,
            c0.num_directions,
            c0.knots,
            c0.t_max,
            self.directions(),
        )
        finite = torch.isfinite(loss)
        self.diverged_at = torch.where(self.alive & ~finite, step + 1, self.diverged_at)
        self.alive = self.alive & finite
        # Diverged members contribute nothing; their slices of the stacked weights are
        # independent of the others' (batched products, elementwise AdamW).
        total = torch.where(self.alive, loss, torch.zeros_like(loss)).sum()
        for g in self.opt.param_groups:
            g["lr"] = c0.lr * lr_factor(step, c0.steps)
        self.opt.zero_grad(set_to_none=True)
        total.backward()
        if not self.sync_each_step or not bool(self.alive.all()):
            self._zero_dead_gradients()
        self.opt.step()
        self.last_loss, self.last_terms = loss.detach(), terms
        if step >= c0.steps - 100:
            self.recent_loss += loss.detach()
            self.recent_count += 1

    def _zero_dead_gradients(self) -> None:
        # NaN flows into a diverged member's slices through the masked loss (0 * NaN);
        # zeroing them keeps its weights finite. Its result is already fixed as diverged.
        for p in self.encoder.parameters():
            if p.grad is not None:
                dead = ~self.alive.view(-1, *([1] * (p.dim() - 1)))
                p.grad.masked_fill_(dead, 0.0)

    @torch.inference_mode()
    def evaluate(self, step: int) -> list[dict[str, float]]:
        self.encoder.eval()
        # Diverged members may hold non-finite codes; they are not reported, but must not
        # break the batched linear algebra of the others.
        h = torch.nan_to_num(self.encoder(self.x_eval), 0.0, 0.0, 0.0)
        h_prime = torch.nan_to_num(self.encoder(self.x_eval_prime), 0.0, 0.0, 0.0)
        scores = self.scorer.score(h, h_prime)
        # The grid scores are final metrics: computing them only at the last evaluation
        # saves a third of each evaluation's cost.
        if self.c0.dim == 2 and step == self.c0.steps:
            zg = torch.stack([self.evalsets[r].z_grid for r, _ in self.members])
            xg = torch.stack([self.evalsets[r].x_grid for r, _ in self.members])
            scores.update(grid_metrics(zg, self.encoder(xg)))
        self.encoder.train()
        per_member = []
        for i in range(len(self.members)):
            row = {k: float(v[i]) for k, v in scores.items()}
            row["loss"] = float(self.last_loss[i])
            row.update({k: float(v[i]) for k, v in self.last_terms.items()})
            per_member.append(row)
            if self.alive[i]:
                curve = self.curves[i]
                curve.setdefault("step", []).append(step)
                curve.setdefault("lr", []).append(self.c0.lr * lr_factor(step, self.c0.steps))
                for k, v in row.items():
                    curve.setdefault(k, []).append(v)
        return per_member

    def run(self) -> list[RunResult]:
        c0 = self.c0
        eval_steps = set(c0.eval_steps())
        start = time.perf_counter()
        last_rows: list[dict[str, float]] = []
        label = self.names[0] if len(self.cfgs) == 1 else f"{len(self.cfgs)} runs"
        bar = tqdm(
            total=c0.steps,
            disable=not self.progress,
            desc=label or "train",
            unit="step",
            dynamic_ncols=True,
        )
        with bar:
            for step in range(c0.steps):
                self.step(step)
                bar.update(1)
                if step + 1 in eval_steps:
                    last_rows = self.evaluate(step + 1)
                    if self.on_eval is not None:
                        self.on_eval(step + 1, last_rows)
                    live = [r for r, a in zip(last_rows, self.alive.tolist()) if a]
                    if live:
                        bar.set_postfix(
                            loss=f"{np.mean([r['loss'] for r in live]):.4g}",
                            r2_hz=f"{np.mean([r['r2_hz'] for r in live]):.4f}",
                        )
                if (self.sync_each_step or step + 1 in eval_steps) and not bool(self.alive.any()):
                    break
        wall = time.perf_counter() - start
        return self._results(last_rows, wall, step + 1)

    def _results(self, rows, wall: float, steps_done: int) -> list[RunResult]:
        final_loss = (self.recent_loss / max(self.recent_count, 1)).tolist()
        diverged_at = [None if s < 0 else s for s in self.diverged_at.tolist()]
        results = []
        for r, cfg in enumerate(self.cfgs):
            idx = [i for i, (rr, _) in enumerate(self.members) if rr == r]
            alive = [i for i in idx if diverged_at[i] is None]
            # Best of K: the lowest training loss averaged over the last 100 steps
            # (one step's loss is noisy: SIGReg draws fresh directions every step).
            pick = min(alive, key=lambda i: final_loss[i]) if alive else idx[0]
            res = RunResult(
                config=cfg,
                name=self.names[r],
                device=str(self.device),
                wall_time_s=wall,
                steps_per_s=steps_done / max(wall, 1e-9),
            )
            res.selected_init = self.members[pick][1]
            res.init_final_losses = [final_loss[i] for i in idx]
            res.curves = self.curves[pick]
            if not alive:
                res.status, res.diverged_step = "diverged", diverged_at[pick]
            if rows and alive:
                row = rows[pick]
                res.metrics = {
                    k: row[k] for k in row if k not in ("loss",) and k not in self.last_terms
                }
                res.metrics.update(self.baselines[r])
                res.losses = {
                    "loss": row["loss"],
                    "loss_last100": final_loss[pick],
                    **{k: row[k] for k in self.last_terms},
                }
            res.weights = self._member_weights(pick)
            if cfg.scatter and alive:
                res.scatter = self._scatter(r, pick, cfg)
            results.append(res)
        return results

    def _member_weights(self, i: int) -> dict[str, torch.Tensor]:
        return {k: v[i].detach().cpu().clone() for k, v in self.encoder.state_dict().items()}

    @torch.no_grad()
    def _scatter(self, r: int, i: int, cfg: RunConfig) -> dict[str, torch.Tensor]:
        world = self.worlds[r]
        z = world.sample_latents(cfg.scatter, generator(self.device, cfg.seed, _SCATTER))
        x = world.render(z)
        self.encoder.eval()
        stacked = x.unsqueeze(0).expand(len(self.members), -1, -1)
        h = self.encoder(stacked)[i]
        self.encoder.train()
        return {"z": z.float().cpu(), "x": x.float().cpu(), "h": h.float().cpu()}


def load_encoder(config: RunConfig, weights: dict[str, torch.Tensor]) -> torch.nn.Module:
    """Rebuild a trained single-run encoder from its config and saved weights."""
    enc = build_encoder(config.encoder, config.dim, [0], config.hidden, config.depth, config.layers)
    enc.load_state_dict({k: v.unsqueeze(0) for k, v in weights.items()})
    return enc
