"""The training engine (docs/model.md, section 6): one loop for one run or a stack of runs.

:func:`train` trains every run of a compatible group at once. Each run (and each of its
``inits`` initializations) is a *member* of a stacked encoder; members draw their data,
SIGReg directions and initial weights from their own seeds, so a member follows exactly
the trajectory it would follow alone (AdamW is elementwise). A single run is a group of
one. A member whose loss turns NaN or infinite stops contributing to the update and is
recorded as diverged at that step; the others continue.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import os
import sys
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, overload

import numpy as np
import torch
from tqdm.auto import tqdm

from lejepa_id.config.run import RunConfig
from lejepa_id.encoders.stacked import build_encoder
from lejepa_id.errors import UsageError
from lejepa_id.metrics.evaluation import EvalSet, Scorer
from lejepa_id.metrics.reference import grid_metrics
from lejepa_id.objectives import build_objective, objective_class
from lejepa_id.records.io import atomic_write_bytes
from lejepa_id.records.layout import run_dir
from lejepa_id.records.loggers import Logger, LoggerHub, Member, make_loggers
from lejepa_id.records.result import RunResult, append_curve_row
from lejepa_id.runtime import derive_seed, generator, resolve_device
from lejepa_id.training.engine import (
    CHUNK,
    DrawStream,
    Engine,
    GraphedEngine,
    Schedule,
    run_loop,
)
from lejepa_id.training.threads import encoder_work, resolve_threads, torch_threads
from lejepa_id.worlds import World, action_pairs
from lejepa_id.worlds.build import check_world_matches, recorded_mixing, world_for
from lejepa_id.worlds.transitions import transition_class

# Purposes of the seeds derived from a run's seed; fixed forever for reproducibility.
_DATA, _INIT, _EVAL, _DIRECTIONS, _SCATTER = 1, 2, 3, 4, 5
# Saved weights of the objective's own parameters (an action predictor) carry this prefix.
OBJECTIVE_PREFIX = "objective."
# Keys that must agree for runs to share one stacked model and one optimizer, besides
# the objective's hyperparameters that are not per run (see group_key).
GROUP_KEYS = (
    "dim",
    "obs_size",
    "code_size",
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
    "eval_size",
    "eval_every",
    "eval_every_early",
    "early_until",
    "device",
    "transition",
)


def _shared_params(mode: str) -> list[str]:
    cls = objective_class(mode)
    return [f.name for f in dataclasses.fields(cls) if f.name not in cls.per_run]


def group_key(config: RunConfig) -> tuple[Any, ...]:
    """What runs must share to be trained as one stack: :data:`GROUP_KEYS`, the keys their
    transition lists in ``stack_keys`` (sizes of what it hands the objective), and their
    objective's hyperparameters, except its ``per_run`` ones (such as lam)."""
    params = tuple(getattr(config, k) for k in _shared_params(config.mode))
    shaped = tuple(getattr(config, k) for k in transition_class(config.transition).stack_keys)
    return tuple(getattr(config, k) for k in GROUP_KEYS) + shaped + params


class DataStream:
    """Positive pairs of one world from its own generator, drawn ``CHUNK`` steps at a time.

    In an action world the views are (z_t, z_{t+1}) and the chunk's extras hold the
    actions taken, ``{"actions": (CHUNK, B, k)}``, which the engine hands to the objective.

    Shape:
        next_chunk() -> (CHUNK, V, B, D) observations of B latents in V views per step,
        and the extras.
    """

    def __init__(self, world: World, config: RunConfig, device: torch.device) -> None:
        self.world, self.config = world, config
        self.gen = generator(device, config.seed, _DATA)

    def next_chunk(self) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        c = self.config
        z = self.world.sample_latents(CHUNK * c.batch, self.gen)
        if self.world.transition.action_size():
            views, actions = action_pairs(self.world, z, self.gen)
            x = self.world.render(views).reshape(c.views, CHUNK, c.batch, -1)
            return x.transpose(0, 1), {"actions": actions.reshape(CHUNK, c.batch, -1)}
        x = self.world.render(self.world.sample_views(z, c.views, self.gen))
        return x.reshape(c.views, CHUNK, c.batch, -1).transpose(0, 1), {}


CHECKPOINT_DIR = ".checkpoints"
CHECKPOINT_VAR = "LEJEPA_ID_CHECKPOINT_EVERY"
CHECKPOINT_EVERY = 1000
"""Steps between two checkpoints of a run that has a checkpoint file (rounded up to a
multiple of CHUNK, so a checkpoint never holds a half-used chunk of data)."""


def checkpoint_interval(env: Mapping[str, str] | None = None) -> int:
    """Steps between checkpoints, from ``LEJEPA_ID_CHECKPOINT_EVERY`` (0: never)."""
    raw = (os.environ if env is None else env).get(CHECKPOINT_VAR, str(CHECKPOINT_EVERY))
    try:
        every = int(raw)
    except ValueError:
        every = -1
    if every < 0 or raw.strip() != str(every):
        raise UsageError(f"{CHECKPOINT_VAR}={raw!r} must be a whole number of steps >= 0")
    return -(-every // CHUNK) * CHUNK


STEP_VAR = "LEJEPA_ID_STEP"
STEP_PATHS = ("auto", "eager", "static", "graph")


def step_engine(
    device: torch.device, env: Mapping[str, str] | None = None
) -> Callable[..., Engine]:
    """The step a synthetic run takes, from ``LEJEPA_ID_STEP``: ``eager`` the reference
    :class:`~lejepa_id.training.engine.Engine`; ``static`` its device-only program run
    eagerly (:class:`~lejepa_id.training.engine.GraphedEngine` without capture); ``graph``
    that program captured as a CUDA graph (CUDA only); ``auto`` (default) ``graph`` on
    CUDA, ``eager`` elsewhere. Bad values raise UsageError."""
    value = (os.environ if env is None else env).get(STEP_VAR, "auto").strip().lower() or "auto"
    if value not in STEP_PATHS:
        raise UsageError(f"{STEP_VAR}={value!r} is not one of {', '.join(STEP_PATHS)}")
    if value == "graph" and device.type != "cuda":
        raise UsageError(f"{STEP_VAR}=graph needs a CUDA device, got {device.type}")
    if value == "auto":
        value = "graph" if device.type == "cuda" else "eager"
    if value == "eager":
        return Engine
    return functools.partial(GraphedEngine, capture=value == "graph")


def _check_group(configs: Sequence[RunConfig]) -> None:
    first = configs[0]
    for c in configs[1:]:
        if group_key(c) != group_key(first):
            keys = (*GROUP_KEYS, *_shared_params(first.mode))
            diff = [k for k in keys if getattr(c, k) != getattr(first, k)]
            raise UsageError(f"runs of one group must share {', '.join(diff)}")


@overload
def train(
    configs: RunConfig,
    worlds: World | Sequence[World] | None = None,
    progress: bool = True,
    names: Sequence[str] | None = None,
    on_eval: Callable[[int, list[dict[str, float]]], None] | None = None,
    threads: int | str | None = None,
    loggers: Sequence[Logger] | None = None,
    checkpoint: str | Path | None = None,
) -> RunResult: ...


@overload
def train(
    configs: Sequence[RunConfig],
    worlds: World | Sequence[World] | None = None,
    progress: bool = True,
    names: Sequence[str] | None = None,
    on_eval: Callable[[int, list[dict[str, float]]], None] | None = None,
    threads: int | str | None = None,
    loggers: Sequence[Logger] | None = None,
    checkpoint: str | Path | None = None,
) -> list[RunResult]: ...


def train(
    configs: RunConfig | Sequence[RunConfig],
    worlds: World | Sequence[World] | None = None,
    progress: bool = True,
    names: Sequence[str] | None = None,
    on_eval: Callable[[int, list[dict[str, float]]], None] | None = None,
    threads: int | str | None = None,
    loggers: Sequence[Logger] | None = None,
    checkpoint: str | Path | None = None,
) -> RunResult | list[RunResult]:
    """Train one run, or a group of runs sharing an architecture, to completion.

    Args:
        configs: one RunConfig (returns one RunResult) or a sequence (returns a list).
        worlds: optional worlds to use instead of the configs' named ones, e.g. with a
            user-supplied mixing: ``train(cfg, World.make(my_fn, dim=2))``.
        progress: show a progress bar with steps/s, loss and R^2(h -> z).
        names: labels for the progress bar and results.
        on_eval: called after each evaluation with (step, one metrics dict per member:
            per run, or per run and init when ``inits`` > 1).
        loggers: trackers fed at every evaluation with each live member's metrics and
            learning rate (:mod:`lejepa_id.records.loggers`), e.g.
            ``loggers=[CSVLogger("runs/mine")]``; closed when training ends.
        threads: CPU threads for torch while training: a count, or ``auto``/None to
            follow ``LEJEPA_ID_THREADS``, ``OMP_NUM_THREADS``, else the model size
            (see :mod:`lejepa_id.training.threads`). Restored afterwards.
        checkpoint: a file for the group's training state, written atomically every
            ``LEJEPA_ID_CHECKPOINT_EVERY`` steps (default :data:`CHECKPOINT_EVERY`) and
            removed when training ends. If it exists and holds these configs, training
            continues from it with exactly the numbers of an uninterrupted run (the same
            thread count assumed); a file of other configs is ignored and replaced.
    """
    single = isinstance(configs, RunConfig)
    cfgs: list[RunConfig] = [configs] if isinstance(configs, RunConfig) else list(configs)
    if not cfgs or not all(isinstance(c, RunConfig) for c in cfgs):
        raise UsageError(f"train() needs a RunConfig or a non-empty list of them, got {configs!r}")
    cfgs = [c.validate(custom_world=worlds is not None) for c in cfgs]
    _check_group(cfgs)
    if names is not None and len(names) != len(cfgs):
        raise UsageError(f"train() got {len(names)} names for {len(cfgs)} configs")
    cfgs, wlds = _worlds(cfgs, worlds)
    c0 = cfgs[0]
    members = sum(c.effective_inits for c in cfgs)
    work = members * encoder_work(c0)
    with torch_threads(resolve_threads(work, threads)) as n:
        # The interval is read (and a bad one refused) before any work is done.
        saver = None if checkpoint is None else Checkpoint(Path(checkpoint), checkpoint_interval())
        trainer = _Trainer(cfgs, wlds, names or [""] * len(cfgs), progress, on_eval)
        results = trainer.run(LoggerHub(loggers or []), saver)
    for res, cfg, world in zip(results, cfgs, wlds):
        res.threads = n
        if worlds is not None:
            res.mixing = recorded_mixing(cfg, world)
            if res.mixing != cfg.mixing:
                # One truth: the result's config names the world it was trained on.
                res.config = dataclasses.replace(cfg, mixing=res.mixing)
    return results[0] if single else results


def _worlds(
    cfgs: list[RunConfig], worlds: World | Sequence[World] | None
) -> tuple[list[RunConfig], list[World]]:
    """The configs' own worlds, or the supplied ones after checking they match (a config
    that leaves obs_dim unset takes the supplied world's, so its record is complete)."""
    if worlds is None:
        return cfgs, [world_for(c) for c in cfgs]
    if isinstance(worlds, World):
        wlds = [worlds]
    elif isinstance(worlds, str) or not isinstance(worlds, Sequence):
        raise UsageError(
            f"worlds={worlds!r} must be a World or a list of them (World.make(...)); "
            "a named world is chosen by the config's mixing key"
        )
    else:
        wlds = list(worlds)
    bad = [w for w in wlds if not isinstance(w, World)]
    if bad:
        raise UsageError(f"worlds must be World objects (World.make(...)), got {bad[0]!r}")
    wlds = [w.checked() for w in wlds]
    if len(wlds) != len(cfgs):
        raise UsageError(f"train() got {len(wlds)} worlds for {len(cfgs)} configs")
    for c, w in zip(cfgs, wlds):
        check_world_matches(c, w)
    sizes = {w.obs_dim for w in wlds}
    if len(sizes) > 1:
        raise UsageError(f"worlds of one group must share the observation size, got {sizes}")
    D = wlds[0].obs_dim
    cfgs = [c if c.obs_size == D else RunConfig(**{**c.to_dict(), "obs_dim": D}) for c in cfgs]
    c0 = cfgs[0]
    if c0.encoder == "matched" and not D == c0.code_size == c0.dim:
        raise UsageError(
            f"the matched encoder needs observations and codes of dim={c0.dim}, got D={D}"
        )
    return cfgs, wlds


class Checkpoint:
    """One group's checkpoint file: saved atomically every ``every`` steps (0: never),
    read back only if it holds the same configs and names."""

    def __init__(self, path: Path, every: int) -> None:
        self.path, self.every = path, every

    def due(self, done: int, steps: int) -> bool:
        return self.every > 0 and done % self.every == 0 and done < steps

    def save(self, state: dict) -> None:
        buffer = io.BytesIO()
        torch.save(state, buffer)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path, buffer.getvalue())

    def load(self, cfgs: Sequence[RunConfig], names: Sequence[str]) -> dict | None:
        if not self.path.is_file():
            return None
        try:
            state = torch.load(self.path, map_location="cpu", weights_only=True)
        except Exception:  # noqa: BLE001 - an unreadable checkpoint means: start again
            return None
        if not isinstance(state, dict):
            return None
        same = state.get("configs") == [c.to_dict() for c in cfgs]
        return state if same and state.get("names") == list(names) else None

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)


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
        self._build_model()
        self._build_engine()
        self._build_evaluation()
        R = len(self.members)
        self.curves: list[dict[str, list[float]]] = [{} for _ in range(R)]
        self.recent_loss = torch.zeros(R, device=self.device)
        self.recent_count = 0
        self.last_terms: dict[str, torch.Tensor] = {}
        self.last_loss = torch.zeros(R, device=self.device)

    def _build_model(self) -> None:
        """The stacked encoder (one member per run and init), the objective and its state."""
        cfgs, c0 = self.cfgs, self.c0
        init_seeds = [derive_seed(cfgs[r].seed, _INIT, k) for r, k in self.members]
        self.encoder = build_encoder(
            c0.encoder,
            self.worlds[0].obs_dim,
            init_seeds,
            c0.code_size,
            hidden=c0.hidden,
            depth=c0.depth,
            layers=c0.layers,
        ).to(self.device)
        self.objective = build_objective(c0.mode, **c0.objective_params)
        self.module = self.objective.module(c0, len(self.members))
        if self.module is not None:
            self.module.to(self.device)
        self.per_run = {
            k: torch.tensor([getattr(cfgs[r], k) for r, _ in self.members], device=self.device)
            for k in self.objective.per_run
        }

    def _build_engine(self) -> None:
        """Data streams, random directions, schedule and the shared training step."""
        cfgs, worlds, c0 = self.cfgs, self.worlds, self.c0
        for w in worlds:
            w.mixing.to(self.device)
        self.streams = [DataStream(w, c, self.device) for w, c in zip(worlds, cfgs)]
        self._at = CHUNK  # no chunk drawn yet
        self._chunk = torch.empty(0)
        self._chunk_extras: dict[str, torch.Tensor] = {}
        dir_gens = [generator(self.device, cfgs[r].seed, _DIRECTIONS, k) for r, k in self.members]
        self.schedule = Schedule(c0.lr, c0.steps)
        # A host sync per step is free on the CPU but stalls a GPU's queue: there the
        # divergence bookkeeping stays on the device and is read at evaluations.
        self.sync_each_step = self.device.type == "cpu"
        self.engine = step_engine(self.device)(
            self.encoder,
            self._encode,
            self,
            self.objective,
            DrawStream(self.objective, c0.code_size, dir_gens),
            self.schedule,
            weight_decay=c0.weight_decay,
            per_run=self.per_run,
            device=self.device,
            members=len(self.members),
            sync_each_step=self.sync_each_step,
            module=self.module,
        )

    def _build_evaluation(self) -> None:
        """The fixed evaluation sets, stacked per member, and their scorer."""
        cfgs, worlds, c0 = self.cfgs, self.worlds, self.c0
        # Theorem 3 is stated for one rho and m = n; elsewhere its bound is NaN (null).
        rho = torch.tensor(
            [
                worlds[r].bound_rho() if c0.code_size == c0.dim else float("nan")
                for r, _ in self.members
            ],
            dtype=torch.float64,
        )
        self.evalsets = [
            EvalSet.draw(w, c.eval_size, generator(self.device, c.eval_seed, _EVAL))
            for w, c in zip(worlds, cfgs)
        ]
        self.scorer = Scorer(
            torch.stack([self.evalsets[r].z for r, _ in self.members]),
            rho.to(self.device),
            torch.stack([worlds[r].correlations() for r, _ in self.members]).to(self.device),
            # The Hermite-product predictions are for coordinate-wise channels; an action
            # world's A mixes the coordinates, so they do not apply there.
            [
                worlds[r].law.is_gaussian and not worlds[r].transition.action_size()
                for r, _ in self.members
            ],
        )
        self.x_eval = torch.stack([self.evalsets[r].x for r, _ in self.members])
        self.x_eval_prime = torch.stack([self.evalsets[r].x_prime for r, _ in self.members])
        self.baselines = [e.baseline() for e in self.evalsets]

    def next(self) -> torch.Tensor | tuple[torch.Tensor, dict[str, torch.Tensor]]:
        """The data source of :attr:`engine`: views into the members' current chunk, so a
        step costs no copy. Shape: -> (R, V, B, D), and in an action world the actions
        {"actions": (R, B, k)}."""
        if self._at >= CHUNK:
            self._refill()
        i, self._at = self._at, self._at + 1
        x = self._chunk[i]
        return (x, {k: v[i] for k, v in self._chunk_extras.items()}) if self._chunk_extras else x

    def _refill(self) -> None:
        """The next CHUNK steps of every member, stacked once: (CHUNK, R, V, B, D)."""
        chunks = [s.next_chunk() for s in self.streams]
        keys = set(chunks[0][1])
        if any(set(extras) != keys for _, extras in chunks):
            raise ValueError("a group mixes action worlds with worlds without actions")
        self._chunk = torch.stack([chunks[r][0] for r, _ in self.members], dim=1)
        self._chunk_extras = {
            k: torch.stack([chunks[r][1][k] for r, _ in self.members], dim=1) for k in keys
        }
        self._at = 0

    def _encode(self, X: torch.Tensor) -> torch.Tensor:
        """Shape: (R, V, B, D) -> (R, V, B, m)."""
        R, V, B, D = X.shape
        return self.encoder(X.reshape(R, V * B, D)).reshape(R, V, B, -1)

    @property
    def alive(self) -> torch.Tensor:
        return self.engine.alive

    def record_step(self, step: int, loss: torch.Tensor, terms: dict[str, torch.Tensor]) -> None:
        """Keep the last step's losses and the mean loss over the last 100 steps."""
        self.last_loss, self.last_terms = loss, terms
        if step >= self.c0.steps - 100:
            self.recent_loss += loss
            self.recent_count += 1

    @torch.inference_mode()
    def evaluate(self, step: int) -> list[dict[str, float]]:
        self.encoder.eval()
        # Diverged members may hold non-finite codes; they are not reported, but must not
        # break the batched linear algebra of the others.
        h = torch.nan_to_num(self.encoder(self.x_eval), 0.0, 0.0, 0.0)
        h_prime = torch.nan_to_num(self.encoder(self.x_eval_prime), 0.0, 0.0, 0.0)
        scores = self.scorer.score(h, h_prime, final=step == self.c0.steps)
        # The grid scores are final metrics: computing them only at the last evaluation
        # saves a third of each evaluation's cost.
        grids = [(self.evalsets[r].z_grid, self.evalsets[r].x_grid) for r, _ in self.members]
        if self.c0.dim == 2 and step == self.c0.steps:
            # EvalSet.draw makes the grids of every 2D world.
            zg = torch.stack([z for z, _ in grids if z is not None])
            xg = torch.stack([x for _, x in grids if x is not None])
            scores.update(grid_metrics(zg, self.encoder(xg)))
        if step == self.c0.steps:
            scores.update(self._objective_scores(h))
        self.encoder.train()
        per_member = []
        for i in range(len(self.members)):
            row = {k: float(v[i]) for k, v in scores.items()}
            row["loss"] = float(self.last_loss[i])
            row.update({k: float(v[i]) for k, v in self.last_terms.items()})
            per_member.append(row)
            if self.alive[i]:
                append_curve_row(
                    self.curves[i], {"step": step, "lr": self.schedule.at(step), **row}
                )
        return per_member

    def log_members(self) -> list[Member]:
        """Who the loggers hear of: one entry per member, named like its run."""
        return [
            Member(
                run=self.names[r] or f"run{r}",
                init=k,
                inits=self.cfgs[r].effective_inits,
                config=self.cfgs[r].to_dict(),
            )
            for r, k in self.members
        ]

    def state_dict(self, done: int, elapsed: float, rows: list[dict[str, float]]) -> dict:
        """The group's training state after ``done`` steps, at a chunk boundary."""
        return {
            "format": 1,
            "configs": [c.to_dict() for c in self.cfgs],
            "names": self.names,
            "done": done,
            "elapsed_s": elapsed,
            "encoder": self.encoder.state_dict(),
            "module": None if self.module is None else self.module.state_dict(),
            "engine": self.engine.state_dict(),
            "data_generators": [s.gen.get_state() for s in self.streams],
            "draw_generators": [g.get_state() for g in self.engine.draws.generators],
            "curves": self.curves,
            "recent_loss": self.recent_loss.cpu(),
            "recent_count": self.recent_count,
            "last_loss": self.last_loss.cpu(),
            "last_terms": {k: v.cpu() for k, v in self.last_terms.items()},
            "last_rows": rows,
        }

    def load_state_dict(self, state: dict) -> tuple[int, float, list[dict[str, float]]]:
        """Continue from :meth:`state_dict`'s output; returns (done, elapsed, rows)."""
        self.encoder.load_state_dict(state["encoder"])
        if self.module is not None:
            self.module.load_state_dict(state["module"])
        self.engine.load_state_dict(state["engine"])
        for stream, gen_state in zip(self.streams, state["data_generators"]):
            stream.gen.set_state(gen_state)
        for gen, gen_state in zip(self.engine.draws.generators, state["draw_generators"]):
            gen.set_state(gen_state)
        self.curves = state["curves"]
        self.recent_loss = state["recent_loss"].to(self.device)
        self.recent_count = state["recent_count"]
        self.last_loss = state["last_loss"].to(self.device)
        self.last_terms = {k: v.to(self.device) for k, v in state["last_terms"].items()}
        return state["done"], state["elapsed_s"], state["last_rows"]

    def run(self, hub: Logger, saver: Checkpoint | None = None) -> list[RunResult]:
        c0 = self.c0
        members = self.log_members()
        start = time.perf_counter()
        last_rows: list[dict[str, float]] = []
        first, before = 0, 0.0
        label = self.names[0] if len(self.cfgs) == 1 else f"{len(self.cfgs)} runs"
        state = saver.load(self.cfgs, self.names) if saver is not None else None
        if state is not None and saver is not None:
            first, before, last_rows = self.load_state_dict(state)
            note = f"{label or 'train'}: continuing from step {first} ({saver.path})"
            print(note, file=sys.stderr)
        bar = tqdm(
            initial=first,
            total=c0.steps,
            disable=not self.progress,
            desc=label or "train",
            unit="step",
            dynamic_ncols=True,
        )

        def after_step(step: int, loss: torch.Tensor, terms: dict[str, torch.Tensor]) -> None:
            self.record_step(step, loss, terms)
            bar.update(1)

        def at_eval(done: int) -> None:
            nonlocal last_rows
            last_rows = self.evaluate(done)
            if self.on_eval is not None:
                self.on_eval(done, last_rows)
            alive = self.alive.tolist()
            lr = self.schedule.at(done)
            for member, row, a in zip(members, last_rows, alive):
                if a:  # the same rows as the curves: a diverged member's stop
                    hub.log(member, done, {"lr": lr, **row})
            live = [r for r, a in zip(last_rows, alive) if a]
            if live:
                bar.set_postfix(
                    loss=f"{np.mean([r['loss'] for r in live]):.4g}",
                    r2_hz=f"{np.mean([r['r2_hz'] for r in live]):.4f}",
                )

        def after_evaluation(done: int) -> None:
            if saver is not None and saver.due(done, c0.steps):
                elapsed = before + time.perf_counter() - start
                saver.save(self.state_dict(done, elapsed, last_rows))

        for member in members:
            hub.start(member)
        try:
            with bar:
                done = run_loop(
                    self.engine,
                    c0.steps,
                    set(c0.eval_steps()),
                    at_eval,
                    after_step,
                    start=first,
                    on_done=after_evaluation,
                )
        finally:
            hub.close()
        wall = before + time.perf_counter() - start
        results = self._results(last_rows, wall, done)
        if saver is not None:
            saver.remove()
        return results

    def _results(self, rows, wall: float, steps_done: int) -> list[RunResult]:
        final_loss = (self.recent_loss / max(self.recent_count, 1)).tolist()
        diverged_at = self.engine.diverged_steps()
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

    def _objective_scores(self, h: torch.Tensor) -> dict[str, torch.Tensor]:
        """The objective's own final scores per member (its ``final_scores``)."""
        state = {} if self.module is None else self.module.state_dict()
        W = {k: v.detach().double().cpu().numpy() for k, v in state.items()}
        rows = []
        for i, (r, _) in enumerate(self.members):
            own = {k: v[i] for k, v in W.items()} if self.module is not None else None
            z = self.evalsets[r].z.double().cpu().numpy()
            hi = h[i].double().cpu().numpy()
            rows.append(self.objective.final_scores(own, z, hi, self.worlds[r]))
        if not rows[0]:
            return {}
        return {k: torch.tensor([row[k] for row in rows], dtype=torch.float64) for k in rows[0]}

    def _member_weights(self, i: int) -> dict[str, torch.Tensor]:
        out = {k: v[i].detach().cpu().clone() for k, v in self.encoder.state_dict().items()}
        if self.module is not None:
            for k, v in self.module.state_dict().items():
                out[OBJECTIVE_PREFIX + k] = v[i].detach().cpu().clone()
        return out

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
    enc = build_encoder(
        config.encoder,
        config.obs_size,
        [0],
        config.code_size,
        hidden=config.hidden,
        depth=config.depth,
        layers=config.layers,
    )
    if not isinstance(weights, dict) or not all(
        isinstance(v, torch.Tensor) for v in weights.values()
    ):
        raise UsageError("load_encoder needs the run's weights: a dict of tensors")
    state = {k: v.unsqueeze(0) for k, v in weights.items() if not k.startswith(OBJECTIVE_PREFIX)}
    try:
        enc.load_state_dict(state)
    except RuntimeError as exc:
        # torch lists every missing, unexpected and mis-shaped key over many lines.
        first = str(exc).splitlines()[0].rstrip(":")
        raise UsageError(
            f"these weights are not a {config.encoder} encoder's for this config "
            f"(dim={config.dim}, hidden={config.hidden}, depth={config.depth}): {first}"
        ) from None
    return enc


def train_and_save(
    specs: Sequence[Any],
    out: str | Path,
    progress: bool = True,
    on_eval: Callable[[int, list[dict[str, float]]], None] | None = None,
    keep: Collection[str] = (),
    root: str | Path | None = None,
    loggers: Sequence[str] = (),
) -> list[RunResult]:
    """Train a compatible group of expanded runs (specs with ``config``, ``run_id`` and
    ``experiment``) together and save each run's result under
    ``out/<experiment>/<run_id>/`` (or ``root/<run_id>/`` when the experiment's folder is
    given), except those of the run ids in ``keep`` (already saved by an interrupted
    sweep).

    ``loggers`` names trackers (``csv``, ``tensorboard``, ``wandb``) that write into each
    run's folder; the runs in ``keep`` are not logged again. The group's checkpoint lives
    in ``<folder>/.checkpoints/`` (named by its run ids), so an interrupted group trained
    again continues from it."""
    # A group is one experiment's runs (the sweep planner never mixes experiments).
    folder = Path(root) if root else Path(out) / specs[0].experiment
    hubs = [LoggerHub(make_loggers(loggers, folder), skip=keep)] if loggers else []
    ids = [s.run_id for s in specs]
    digest = hashlib.sha256("\n".join(ids).encode()).hexdigest()[:16]
    results = train(
        [s.config for s in specs],
        progress=progress,
        names=ids,
        on_eval=on_eval,
        loggers=hubs,
        checkpoint=folder / CHECKPOINT_DIR / f"{digest}.pt",
    )
    for spec, res in zip(specs, results):
        res.name = spec.run_id
        if spec.run_id not in keep:
            res.save(
                Path(root) / spec.run_id if root else run_dir(out, spec.experiment, spec.run_id)
            )
    return results
