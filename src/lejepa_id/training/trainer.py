"""The synthetic trainer (docs/model.md, section 6): one loop for one run or a stack of runs.

:func:`train` trains every run of a compatible group at once (which runs are compatible:
:mod:`lejepa_id.training.stacking`). Each run (and each of its
``inits`` initializations) is a *member* of a stacked encoder; members draw their data,
SIGReg directions and initial weights from their own seeds, so a member follows exactly
the trajectory it would follow alone (AdamW is elementwise). A single run is a group of
one. A member whose loss turns NaN or infinite stops contributing to the update and is
recorded as diverged at that step; the others continue.
"""

from __future__ import annotations

import dataclasses
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import overload

import numpy as np
import torch
from tqdm.auto import tqdm

from lejepa_id.config.run import WORLD_SEED_STRIDE, RunConfig
from lejepa_id.encoders.stacked import build_encoder, shape_problem
from lejepa_id.errors import UsageError
from lejepa_id.metrics.evaluation import EvalSet, Scorer
from lejepa_id.metrics.reference import grid_metrics
from lejepa_id.objectives import build_objective
from lejepa_id.objectives.probe import probe_objective
from lejepa_id.records.loggers import Logger, LoggerHub, Member, train_log_every
from lejepa_id.records.result import INIT_METRICS, RunResult, append_curve_row
from lejepa_id.runtime import derive_seed, generator, resolve_device
from lejepa_id.training.checkpoints import FORMAT as CHECKPOINT_FORMAT
from lejepa_id.training.checkpoints import Checkpoint, checkpoint_interval
from lejepa_id.training.engine import Schedule, run_loop, step_engine
from lejepa_id.training.stacking import check_stack
from lejepa_id.training.streams import DataStream, DrawStream, MemberBatches
from lejepa_id.training.threads import encoder_work, resolve_threads, torch_threads
from lejepa_id.worlds import World
from lejepa_id.worlds.build import check_world_matches, recorded_mixing, world_for

# Purposes of the seeds derived from a run's seed; fixed forever for reproducibility.
_DATA, _INIT, _EVAL, _DIRECTIONS, _SCATTER = 1, 2, 3, 4, 5
# Saved weights of the objective's own parameters (an action predictor) carry this prefix.
OBJECTIVE_PREFIX = "objective."


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
    check_stack(cfgs)
    if names is not None and len(names) != len(cfgs):
        raise UsageError(f"train() got {len(names)} names for {len(cfgs)} configs")
    starts, owners = _world_starts(cfgs)
    if len(starts) != len(cfgs):
        if worlds is not None:
            raise UsageError(
                "inits_over='world' draws each start's world from its own seed; it cannot "
                "train on worlds given to train() (use inits_over='encoder')"
            )
        given = names or [""] * len(cfgs)
        labels = [f"{given[r] or 'run'}@seed{c.seed}" for r, idx in enumerate(owners)
                  for c in (starts[i] for i in idx)]  # fmt: skip
        parts = train(starts, None, progress, labels, on_eval, threads, loggers, checkpoint)
        merged = [
            _keep_best_world(c, given[r], [parts[i] for i in idx])
            if len(idx) > 1 else parts[idx[0]]
            for r, (c, idx) in enumerate(zip(cfgs, owners))
        ]  # fmt: skip
        return merged[0] if single else merged
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


def _world_starts(cfgs: list[RunConfig]) -> tuple[list[RunConfig], list[list[int]]]:
    """Each ``inits_over='world'`` run as its K whole runs (seed + 1000 k, one start
    each, as the published code trains them); the configs to train, and per given config
    the indices of its starts among them."""
    out: list[RunConfig] = []
    owners: list[list[int]] = []
    for c in cfgs:
        k = c.effective_inits if c.inits_over == "world" else 1
        owners.append(list(range(len(out), len(out) + k)))
        if k == 1:
            out.append(c)
            continue
        out += [
            dataclasses.replace(
                c, seed=c.seed + WORLD_SEED_STRIDE * i, inits=1, inits_over="encoder"
            ).validate()
            for i in range(k)
        ]
    return out, owners


def _keep_best_world(cfg: RunConfig, name: str, parts: list[RunResult]) -> RunResult:
    """One ``inits_over='world'`` run from its starts: the lowest final loss is kept (its
    world's metrics are the run's), every start's end point and weights recorded."""
    finished = [k for k, p in enumerate(parts) if p.status == "finished"]
    pick = min(finished, key=lambda k: parts[k].losses["loss_last100"]) if finished else 0
    res = dataclasses.replace(parts[pick], config=cfg, name=name)
    res.selected_init = pick
    res.init_final_losses = [p.init_final_losses[0] for p in parts]
    res.init_final_metrics = [
        (p.init_final_metrics[0] if p.init_final_metrics else {}) | {"seed": p.config.seed}
        for p in parts
    ]
    res.init_weights = {
        f"init{k}.{key}": value for k, p in enumerate(parts) for key, value in p.weights.items()
    }
    res.extra = {**res.extra, "kept_seed": parts[pick].config.seed}
    return res


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
    problem = shape_problem(c0.encoder, c0.dim, D, c0.code_size)
    if problem is not None:
        raise UsageError(problem)
    return cfgs, wlds


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
        # Sum of every step's loss since the last evaluation: the curves' ``loss_mean``, the
        # mean over all the steps a window holds (``loss`` is the last step's minibatch).
        self.window_loss = torch.zeros(R, device=self.device)
        self.window_count = 0
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
            **c0.encoder_options,
        ).to(self.device)
        self.objective = build_objective(c0.mode, **c0.objective_params)
        self.module = self.objective.module(c0, len(self.members))
        if self.module is not None:
            self.module.to(self.device)
        self.per_run = {
            k: torch.tensor([getattr(cfgs[r], k) for r, _ in self.members], device=self.device)
            for k in self.objective.per_run
        }
        # A plugin's loss is checked once here, not found wrong by a traceback mid-step.
        probe_objective(
            self.objective,
            members=len(self.members),
            views=c0.views,
            code_dim=c0.code_size,
            per_run=self.per_run,
            module=self.module,
            action_size=self.worlds[0].transition.action_size(),
            device=self.device,
        )

    def _build_engine(self) -> None:
        """Data streams, random directions, schedule and the shared training step."""
        cfgs, worlds, c0 = self.cfgs, self.worlds, self.c0
        for w in worlds:
            w.mixing.to(self.device)
        self.streams = [
            DataStream(w, c.batch, c.views, c.seed, _DATA, self.device)
            for w, c in zip(worlds, cfgs)
        ]
        self.batches = MemberBatches(self.streams, [r for r, _ in self.members])
        dir_gens = [generator(self.device, cfgs[r].seed, _DIRECTIONS, k) for r, k in self.members]
        self.schedule = Schedule(c0.lr, c0.steps)
        # A host sync per step is free on the CPU but stalls a GPU's queue: there the
        # divergence bookkeeping stays on the device and is read at evaluations.
        self.sync_each_step = self.device.type == "cpu"
        self.engine = step_engine(self.device)(
            self.encoder,
            self._encode,
            self.batches,
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

    def _encode(self, X: torch.Tensor) -> torch.Tensor:
        """Shape: (R, V, B, D) -> (R, V, B, m)."""
        R, V, B, D = X.shape
        return self.encoder(X.reshape(R, V * B, D)).reshape(R, V, B, -1)

    @property
    def alive(self) -> torch.Tensor:
        return self.engine.alive

    def log_train(
        self,
        hub: Logger,
        members: list[Member],
        done: int,
        loss: torch.Tensor,
        terms: dict[str, torch.Tensor],
    ) -> None:
        """Each member's loss, terms and learning rate after ``done`` steps to the
        trackers (a diverged member's non-finite values left out)."""
        lr = self.schedule.at(done)
        columns = {"loss": loss.tolist(), **{k: v.tolist() for k, v in terms.items()}}
        for i, member in enumerate(members):
            row = {k: float(v[i]) for k, v in columns.items() if math.isfinite(v[i])}
            hub.log_train(member, done, {**row, "lr": lr})

    def record_step(self, step: int, loss: torch.Tensor, terms: dict[str, torch.Tensor]) -> None:
        """Keep the last step's losses, their sum since the last evaluation and the mean
        loss over the last 100 steps."""
        self.last_loss, self.last_terms = loss, terms
        self.window_loss += loss
        self.window_count += 1
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
        window = (self.window_loss / self.window_count).tolist() if self.window_count else None
        self.window_loss.zero_()
        self.window_count = 0
        for i in range(len(self.members)):
            row = {k: float(v[i]) for k, v in scores.items()}
            row["loss"] = float(self.last_loss[i])
            row["loss_mean"] = math.nan if window is None else float(window[i])
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
            "format": CHECKPOINT_FORMAT,
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
            "window_loss": self.window_loss.cpu(),
            "window_count": self.window_count,
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
        if "window_loss" in state:  # checkpoints from before 2026-12-06 start a new window
            self.window_loss = state["window_loss"].to(self.device)
            self.window_count = state["window_count"]
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
            try:
                first, before, last_rows = self.load_state_dict(state)
            except (RuntimeError, KeyError, TypeError, ValueError, IndexError) as exc:
                # Keys and step were sound but the tensors do not fit this group.
                aside = saver.reject()
                raise UsageError(
                    f"checkpoint {saver.path} does not fit these runs "
                    f"({type(exc).__name__}); moved to {aside.name}: rerun to train from "
                    "step 0"
                ) from None
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

        # The training losses go to the trackers that take them (train/ in TensorBoard
        # and W&B) every few steps and at each evaluation: read back from the device
        # only then, and at the same steps whether or not the run was resumed.
        log_train = getattr(hub, "wants_train", False)
        every, evals = train_log_every(c0.steps), set(c0.eval_steps())

        def after_step(step: int, loss: torch.Tensor, terms: dict[str, torch.Tensor]) -> None:
            self.record_step(step, loss, terms)
            bar.update(1)
            done = step + 1
            if log_train and (done % every == 0 or done in evals or done == c0.steps):
                self.log_train(hub, members, done, loss, terms)

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
            if first:  # continued from a checkpoint: the logs keep their rows up to it
                hub.resume(member, first)
            else:
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
            for member, row, alive in zip(members, last_rows, self.alive.tolist()):
                if hasattr(hub, "finish"):
                    hub.finish(member, row if alive else {})
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
            if rows:
                res.init_final_metrics = [
                    {k: rows[i][k] for k in (*INIT_METRICS, *self.last_terms) if k in rows[i]}
                    | {"loss_last100": final_loss[i], "diverged": diverged_at[i] is not None}
                    for i in idx
                ]
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
            if len(idx) > 1:
                res.init_weights = {
                    f"init{self.members[i][1]}.{name}": value
                    for i in idx
                    for name, value in self._member_weights(i).items()
                }
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
