"""One optimization step, shared by the synthetic runs and the Reacher pixel runs.

An :class:`Engine` owns what every run's step does the same way: draw a batch from a
data source, encode it into the views ``H`` of shape (R, V, B, m) (R members trained as
one stack; a single run is a stack of one), apply the objective with its per-step
randomness, record a member whose loss turns NaN or infinite as diverged at that step
(never raise: a sweep goes on), set the learning rate from the schedule, and take an
AdamW step with optional gradient-norm clipping. What differs between runs (how data
is drawn, how inputs are shaped for the encoder, what is logged) stays with the caller,
which plugs it into the one outer loop, :func:`run_loop`.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import torch

from lejepa_id.errors import UsageError
from lejepa_id.objectives import Objective
from lejepa_id.training.adamw import FusedAdamW
from lejepa_id.training.streams import DrawStream


class DataSource(Protocol):
    """Anything whose ``next()`` returns one step's encoder inputs, or the inputs and a
    dict of extras the objective receives as keywords (an action world's ``actions``)."""

    def next(self) -> torch.Tensor | tuple[torch.Tensor, dict[str, torch.Tensor]]: ...


def lr_factor(step: int, steps: int, hold: int | None = None) -> float:
    """Constant for the first ``hold`` steps (default: half of them), then cosine to 0.

    The default is the synthetic runs' schedule (docs/model.md, section 6); ``hold = 0`` is a
    plain cosine over the whole run, the Reacher runs' schedule (section 8).
    """
    start = steps // 2 if hold is None else hold
    step = min(step, steps)
    if step < start:
        return 1.0
    return 0.5 * (1.0 + math.cos(math.pi * (step - start) / max(steps - start, 1)))


@dataclass(frozen=True)
class Schedule:
    """Peak learning rate ``lr`` held for ``hold`` steps (None: half the run), then
    cosine-decayed to 0 at ``steps`` (see :func:`lr_factor`)."""

    lr: float
    steps: int
    hold: int | None = None

    def at(self, step: int) -> float:
        return self.lr * lr_factor(step, self.steps, self.hold)


class Engine:
    """The training step of R stacked members; :attr:`alive` and :attr:`diverged_at`
    (shape (R,), the 1-based step of divergence or -1) record divergence.

    Args:
        encoder: the module whose parameters are trained (stacked members: each
            parameter's first dimension indexes the member).
        encode: maps the source's inputs to the views H of shape (R, V, B, m).
        source: the data source; :meth:`step` calls its ``next()`` once.
        objective: the registered objective; ``per_run`` holds its per-member
            hyperparameters as tensors of shape (R,).
        draws: the objective's per-step randomness.
        clip: clip the gradient norm over all parameters to this value (None: never);
            it couples stacked members, so use it with a single member only.
        module: the objective's own trainable parameters (stacked like the encoder's),
            optimized with the encoder's and passed to the loss as ``module``.
        sync_each_step: read the divergence flags every step (free on the CPU); on a
            GPU they stay on the device and the caller reads them when it syncs anyway.
    """

    def __init__(
        self,
        encoder: torch.nn.Module,
        encode: Callable[[torch.Tensor], torch.Tensor],
        source: DataSource,
        objective: Objective,
        draws: DrawStream,
        schedule: Schedule,
        *,
        weight_decay: float,
        per_run: dict[str, torch.Tensor],
        device: torch.device,
        members: int,
        clip: float | None = None,
        sync_each_step: bool = True,
        module: torch.nn.Module | None = None,
    ) -> None:
        self.encoder, self.encode, self.source = encoder, encode, source
        self.objective, self.draws, self.schedule = objective, draws, schedule
        self.per_run, self.clip, self.sync_each_step = per_run, clip, sync_each_step
        self.owned = {} if module is None else {"module": module}
        self.params = list(encoder.parameters())
        if module is not None:
            self.params += list(module.parameters())
        self.opt = self._optimizer(weight_decay, device)
        self.alive = torch.ones(members, dtype=torch.bool, device=device)
        self.diverged_at = torch.full((members,), -1, dtype=torch.long, device=device)

    def _optimizer(
        self, weight_decay: float, device: torch.device
    ) -> FusedAdamW | torch.optim.AdamW:
        # On the CPU the same fused kernel without torch.optim's per-step wrapper (and its
        # import of torch._dynamo): equal bit for bit (lejepa_id.training.adamw).
        if device.type == "cpu":
            return FusedAdamW(self.params, lr=self.schedule.lr, weight_decay=weight_decay)
        fused = device.type == "cuda"
        return torch.optim.AdamW(
            self.params, lr=self.schedule.lr, weight_decay=weight_decay, fused=fused
        )

    def step(self, step: int) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        """One update at 0-based ``step``; returns the detached loss (R,) and terms."""
        batch = self.source.next()
        inputs, extras = batch if isinstance(batch, tuple) else (batch, {})
        H = self.encode(inputs)
        # Per-run hyperparameters and the batch's extras are tensors, the objective's
        # own module a Module: one keyword dict of both.
        keywords: dict[str, Any] = {**self.per_run, **extras, **self.owned}
        loss, terms = self.objective.loss(H, self.draws.next(), **keywords)
        finite = torch.isfinite(loss)
        self.diverged_at = torch.where(self.alive & ~finite, step + 1, self.diverged_at)
        self.alive = self.alive & finite
        # Diverged members contribute nothing; their slices of the stacked weights are
        # independent of the others' (batched products, elementwise AdamW).
        total = torch.where(self.alive, loss, torch.zeros_like(loss)).sum()
        for g in self.opt.param_groups:
            g["lr"] = self.schedule.at(step)
        self.opt.zero_grad(set_to_none=True)
        total.backward()
        if not self.sync_each_step or not bool(self.alive.all()):
            self._zero_dead_gradients()
        if self.clip is not None:
            torch.nn.utils.clip_grad_norm_(self.params, self.clip)
        self.opt.step()
        return loss.detach(), terms

    def _zero_dead_gradients(self) -> None:
        # NaN flows into a diverged member's slices through the masked loss (0 * NaN);
        # zeroing them keeps its weights finite. Its result is already fixed as diverged.
        for p in self.params:
            if p.grad is not None:
                dead = ~self.alive.view(-1, *([1] * (p.dim() - 1)))
                p.grad.masked_fill_(dead, 0.0)

    def state_dict(self) -> dict[str, Any]:
        """What a checkpoint needs to continue this engine: AdamW's state and the
        divergence record."""
        return {
            "optimizer": self.opt.state_dict(),
            "alive": self.alive.cpu(),
            "diverged_at": self.diverged_at.cpu(),
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        lr = [g["lr"] for g in self.opt.param_groups]
        self.opt.load_state_dict(state["optimizer"])
        # Keep each group's own rate object: GraphedEngine's is a tensor it updates in place.
        for g, rate in zip(self.opt.param_groups, lr):
            g["lr"] = rate
        device = self.alive.device
        self.alive = state["alive"].to(device).clone()
        self.diverged_at = state["diverged_at"].to(device).clone()

    def any_alive(self) -> bool:
        """Whether some member still trains (a host sync on a GPU)."""
        return bool(self.alive.any())

    def diverged_steps(self) -> list[int | None]:
        """Per member: the 1-based step at which its loss turned non-finite, or None."""
        return [None if s < 0 else s for s in self.diverged_at.tolist()]


class GraphedEngine(Engine):
    """The same step as a fixed tensor program on static buffers: on CUDA, captured once as
    a CUDA graph and replayed, so a step costs the host a copy of its inputs and one
    launch, and never waits for the device.

    What the reference :class:`Engine` does on the host moves onto the device: the
    learning rate is read from a table of the schedule by a step counter held on the
    device, the divergence bookkeeping updates ``alive`` and ``diverged_at`` in place (read
    by the caller only at evaluations), and a dead member's gradients are zeroed every step
    (a no-op while all live) instead of after a host check. Data and SIGReg's directions
    still come from each member's own generator in chunks of :data:`CHUNK` steps (the
    trainer's and :class:`DrawStream`'s), drawn on the device outside the graph; each
    step copies its slice into the static buffers.

    ``capture=False`` (the default off CUDA) runs the same program eagerly: on the CPU it
    equals :class:`Engine` bit for bit (tested), which is how the restructuring is checked
    without a GPU. Under capture, AdamW runs with ``capturable=True`` and a float32 learning
    rate (what CUDA's fused kernel reads), so graph and eager CUDA runs agree to float32
    rounding, not bit for bit (tests/test_cuda.py states the tolerance). The first
    :data:`WARMUP` steps of each process run eagerly on a side stream, as capture
    requires (AdamW's state and the libraries' workspaces must exist before it).

    Takes :class:`Engine`'s arguments, and ``capture``: capture a CUDA graph (None: on a
    CUDA device).
    """

    WARMUP = 3

    def __init__(self, *args: Any, capture: bool | None = None, **kwargs: Any) -> None:
        device = kwargs["device"]
        self.capture = device.type == "cuda" if capture is None else capture
        if self.capture and device.type != "cuda":
            raise ValueError("a CUDA graph needs a CUDA device")
        super().__init__(*args, **kwargs)
        self.step_t = torch.zeros((), dtype=torch.long, device=device)
        self.warm = 0  # eager steps taken by this process (a resumed run warms up again)
        self.graph: Any = None
        self._static: tuple[torch.Tensor, dict[str, torch.Tensor], torch.Tensor | None] | None
        self._static = None
        self._out: tuple[torch.Tensor, dict[str, torch.Tensor]] | None = None

    def _optimizer(
        self, weight_decay: float, device: torch.device
    ) -> FusedAdamW | torch.optim.AdamW:
        # The CPU's fused kernel computes with a float64 rate bit for bit like a Python
        # float; CUDA's reads a float32 one.
        dtype = torch.float32 if device.type == "cuda" else torch.float64
        steps = range(self.schedule.steps)
        self.lr_table = torch.tensor([self.schedule.at(s) for s in steps], dtype=dtype)
        self.lr_table = self.lr_table.to(device)
        self.lr = self.lr_table[0].clone()
        return torch.optim.AdamW(
            self.params,
            lr=self.lr,
            weight_decay=weight_decay,
            fused=True,
            capturable=self.capture,
        )

    def step(self, step: int) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        """One update at 0-based ``step`` (steps come in order, from 0 or from a restored
        state); returns the
        loss (R,) and terms, on a captured graph its static outputs (overwritten by the
        next step: read them before)."""
        batch = self.source.next()
        inputs, extras = batch if isinstance(batch, tuple) else (batch, {})
        draw = self.draws.next()
        if self.graph is not None:
            assert self._static is not None and self._out is not None
            x, ex, d = self._static
            x.copy_(inputs)
            for k, v in extras.items():
                ex[k].copy_(v)
            if d is not None and draw is not None:
                d.copy_(draw)
            self.graph.replay()
            return self._out
        if self.capture and self.warm >= self.WARMUP:
            return self._capture(inputs, extras, draw)
        self.warm += 1
        self.opt.zero_grad(set_to_none=True)
        if not self.capture:
            return self._program(inputs, extras, draw)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            out = self._program(inputs, extras, draw)
        torch.cuda.current_stream().wait_stream(side)
        return out

    def state_dict(self) -> dict[str, Any]:
        return {**super().state_dict(), "step": int(self.step_t)}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        super().load_state_dict(state)
        self.step_t.fill_(state["step"])

    def _capture(
        self, inputs: torch.Tensor, extras: dict[str, torch.Tensor], draw: torch.Tensor | None
    ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        static = (
            inputs.clone(),
            {k: v.clone() for k, v in extras.items()},
            None if draw is None else draw.clone(),
        )
        # Gradients are allocated inside the graph's memory pool and overwritten, not
        # accumulated, by each replay.
        self.opt.zero_grad(set_to_none=True)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = self._program(*static)
        self.graph, self._static, self._out = graph, static, out
        graph.replay()  # capture only records the step; this takes it
        return out

    def _program(
        self, inputs: torch.Tensor, extras: dict[str, torch.Tensor], draw: torch.Tensor | None
    ) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        """The step as device work only (no host read), updating its state in place."""
        H = self.encode(inputs)
        keywords: dict[str, Any] = {**self.per_run, **extras, **self.owned}
        loss, terms = self.objective.loss(H, draw, **keywords)
        finite = torch.isfinite(loss)
        newly = self.alive & ~finite
        self.diverged_at.copy_(torch.where(newly, self.step_t + 1, self.diverged_at))
        self.alive.logical_and_(finite)
        total = torch.where(self.alive, loss, torch.zeros_like(loss)).sum()
        self.lr.copy_(self.lr_table[self.step_t])
        total.backward()
        self._zero_dead_gradients()
        if self.clip is not None:
            torch.nn.utils.clip_grad_norm_(self.params, self.clip)
        self.opt.step()
        self.step_t.add_(1)
        return loss.detach(), {k: v.detach() for k, v in terms.items()}


def run_loop(
    engine: Engine,
    steps: int,
    evaluate_at: Collection[int],
    on_eval: Callable[[int], None],
    on_step: Callable[[int, torch.Tensor, dict[str, torch.Tensor]], None] | None = None,
    start: int = 0,
    on_done: Callable[[int], None] | None = None,
) -> int:
    """The outer loop of every run: ``steps`` steps of the engine.

    After each step ``on_step(step, loss, terms)`` (0-based step); after the ``done``-th
    step, for each ``done`` in ``evaluate_at``, ``on_eval(done)`` (a synthetic run scores
    its encoder there, a Reacher run closes an epoch). Stops at the end of the step
    (``engine.sync_each_step``, the CPU) or evaluation (a GPU, which reads the divergence
    flags only then) at which no member trains any more. ``start`` continues a restored
    run at that 0-based step; ``on_done(done)`` runs last in each step, after its
    evaluation (where a checkpoint is taken). Returns the steps done.
    """
    done = start
    for step in range(start, steps):
        loss, terms = engine.step(step)
        done = step + 1
        if on_step is not None:
            on_step(step, loss, terms)
        at_eval = done in evaluate_at
        if at_eval:
            on_eval(done)
        if (engine.sync_each_step or at_eval) and not engine.any_alive():
            break
        if on_done is not None:
            on_done(done)
    return done


STEP_VAR = "LEJEPA_ID_STEP"
STEP_PATHS = ("auto", "eager", "static", "graph")


def step_setting(env: Mapping[str, str] | None = None) -> str:
    """``LEJEPA_ID_STEP`` as one of :data:`STEP_PATHS` (a bad value raises UsageError)."""
    value = (os.environ if env is None else env).get(STEP_VAR, "auto").strip().lower() or "auto"
    if value not in STEP_PATHS:
        raise UsageError(f"{STEP_VAR}={value!r} is not one of {', '.join(STEP_PATHS)}")
    return value


def step_engine(
    device: torch.device, env: Mapping[str, str] | None = None
) -> Callable[..., Engine]:
    """The step a synthetic run takes, from ``LEJEPA_ID_STEP``: ``eager`` the reference
    :class:`Engine`; ``static`` its device-only program run
    eagerly (:class:`GraphedEngine` without capture); ``graph``
    that program captured as a CUDA graph (CUDA only); ``auto`` (default) ``graph`` on
    CUDA, ``eager`` elsewhere. Bad values raise UsageError."""
    value = step_setting(env)
    if value == "graph" and device.type != "cuda":
        raise UsageError(f"{STEP_VAR}=graph needs a CUDA device, got {device.type}")
    if value == "auto":
        value = "graph" if device.type == "cuda" else "eager"
    if value == "eager":
        return Engine
    return functools.partial(GraphedEngine, capture=value == "graph")
