"""Training the cnn encoder on Reacher frame pairs with the LeJEPA objective.

One run = one (training dataset, lambda, seed), trained by the shared step of
:mod:`lejepa_id.training.engine` (a stack of one member, with its schedule) and the
shared device and seed helpers of :mod:`lejepa_id.runtime`. Frames stay uint8 until they
reach the device, where they are scaled and normalized with the training set's
per-channel mean and std: a batch of 256 pairs moves 6 MB at 64 x 64 instead of 25 MB of
float32. The grid of runs is
:mod:`lejepa_id.reacher.experiment` (an experiment kind of ``lejepa-id sweep``).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

from lejepa_id.config.limits import yaml_number
from lejepa_id.encoders.cnn import CNNEncoder
from lejepa_id.errors import UsageError
from lejepa_id.objectives import build_objective
from lejepa_id.reacher.datasets import FrameData, check_same_size
from lejepa_id.reacher.evaluation import encoder_scores
from lejepa_id.records.io import save_tensors
from lejepa_id.records.result import RunResult
from lejepa_id.runtime import check_device, derive_seed, generator, resolve_device
from lejepa_id.training.engine import Engine, Schedule, run_loop
from lejepa_id.training.streams import ChunkCursor, DrawStream

# The experiment kind of a Reacher run's record (its registration: reacher/experiment.py).
EXPERIMENT_KIND = "reacher"
# Purposes of the seeds derived from a run's seed with lejepa_id.runtime.generator; fixed
# forever for reproducibility, and the synthetic engine's numbers for the same roles:
# batch order 1 (the synthetic data stream), initialization 2, SIGReg directions 4 (with
# init index 0, as the synthetic engine's first initialization).
_ORDER, _INIT, _DIRECTIONS = 1, 2, 4


@dataclass
class TrainConfig:
    """Hyper-parameters of one Reacher encoder run (defaults: docs/model.md, section 8)."""

    lam: float = 1e-2
    """Weight of SIGReg in lam * SIGReg + (1 - lam) * alignment."""
    seed: int = 0
    """Run seed: the initialization, batch order and SIGReg directions each draw from a
    generator derived from it with a fixed purpose (see ``_ORDER``, ``_INIT``,
    ``_DIRECTIONS``)."""
    epochs: int = 100
    """Passes over the training pairs; the cosine schedule spans all of them."""
    batch: int = 256
    """Pairs per step (2 x batch frames); incomplete last batches are dropped."""
    lr: float = 3e-3
    """Peak AdamW learning rate, cosine-decayed to 0 per step over the run."""
    weight_decay: float = 1e-4
    """AdamW weight decay."""
    clip: float = 1.0
    """Gradient-norm clipping threshold."""
    num_directions: int = 256
    """SIGReg slicing directions, drawn fresh every step."""
    fit_n: int = 10_000
    """Training frames whose embeddings fit the read-out maps scored on the eval set."""
    device: str = "auto"
    """auto (cuda when available), cpu, cuda or cuda:N."""
    bf16: bool = False
    """bfloat16 autocast for the encoder's forward pass (loss stays float32), on CUDA and on
    the CPU (fast where the CPU has bfloat16 arithmetic, AVX512-BF16 or AMX: 2.2 times the
    float32 pace at 64 x 64 on the build machine; docs/speed.md). Changes the numbers
    beyond float32 rounding; the float32 path is the reference."""
    channels_last: bool = True
    """NHWC memory layout for the convolutions (the frames are stored NHWC), on every
    device: oneDNN's and cuDNN's native layout. ``False`` is the NCHW reference (the CPU
    default before 2026-12-02); the two agree to float32 rounding (tested)."""
    identify_every: int = 0
    """Epochs between identification checks during training: R²(h → z), R²(h → sin/cos)
    and the whitened orthogonality error of the encoder at that point, scored as the
    final metrics are (fit set, gallery) and recorded in the result's ``identification``
    columns with the final scores as the last point. 0: the final scores only. A check
    draws no random numbers and leaves the model in training mode, so the training is
    the same with or without them (tested); each costs one pass over fit set and
    gallery."""

    def validate(self) -> None:
        """Check every value's type and range; a UsageError names the first bad one."""
        for f in fields(self):
            value = getattr(self, f.name)
            kind = TRAIN_TYPES[f.name]
            ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
            if kind is float:
                ok = isinstance(value, int | float) and not isinstance(value, bool)
                ok = ok and math.isfinite(value)
            if not ok:
                raise UsageError(f"{f.name}={value!r} must be a finite {kind.__name__}")
        for key, (low, high) in TRAIN_RANGES.items():
            value = getattr(self, key)
            if not low <= value <= high:
                raise UsageError(f"{key}={value!r} is out of range: allowed {low} to {high}")
        check_device(self.device)

    def to_dict(self) -> dict:
        """Every setting by name (the ``config`` of the run's result file)."""
        return asdict(self)

    @classmethod
    def from_mapping(cls, values: dict, where: str = "config") -> TrainConfig:
        """The validated settings of a mapping (a YAML file's, or merged ones): unknown
        keys and bad values are one-line UsageErrors naming the key."""
        unknown = sorted(str(k) for k in set(values) - set(TRAIN_TYPES))
        if unknown:
            raise UsageError(
                f"{where}: unknown key {unknown[0]!r}; allowed: {', '.join(TRAIN_TYPES)}"
            )
        coerced = {k: yaml_number(v) if TRAIN_TYPES[k] is float else v for k, v in values.items()}
        config = cls(**coerced)
        config.validate()
        return config


TRAIN_TYPES = {
    "lam": float,
    "seed": int,
    "epochs": int,
    "batch": int,
    "lr": float,
    "weight_decay": float,
    "clip": float,
    "num_directions": int,
    "fit_n": int,
    "device": str,
    "bf16": bool,
    "channels_last": bool,
    "identify_every": int,
}
# Allowed ranges (inclusive). Maximums refuse sizes that could only exhaust memory or
# time; minimums keep a run meaningful (2 pairs per batch for the batch statistics).
TRAIN_RANGES = {
    "lam": (0.0, 1.0),
    "seed": (0, 2**63 - 1),
    "epochs": (1, 100_000),
    "batch": (2, 65_536),
    "lr": (1e-12, 10.0),
    "weight_decay": (0.0, 10.0),
    "clip": (1e-12, 1e12),
    "num_directions": (1, 65_536),
    "fit_n": (3, 10_000_000),
    "identify_every": (0, 100_000),
}


class FrameNormalizer:
    """uint8 NHWC frames -> normalized float NCHW on the device.

    Shape: (B, S, S, 3) uint8 -> (B, 3, S, S) float32
    """

    def __init__(self, norm: dict, device: torch.device, channels_last: bool) -> None:
        self.mean = torch.tensor(norm["mean"], device=device).view(1, 3, 1, 1)
        self.std = torch.tensor(norm["std"], device=device).view(1, 3, 1, 1)
        self.device = device
        self.channels_last = channels_last

    def __call__(self, frames: np.ndarray | torch.Tensor) -> torch.Tensor:
        u8 = torch.as_tensor(frames).to(self.device, non_blocking=True)
        x = u8.permute(0, 3, 1, 2).float().div_(255.0)  # a NCHW view of NHWC memory
        x = (x - self.mean) / self.std
        if self.channels_last:
            return x.contiguous(memory_format=torch.channels_last)
        return x.contiguous()


@torch.inference_mode()
def encode(
    model: torch.nn.Module, frames: np.ndarray, normalize: FrameNormalizer, batch: int = 1024
) -> torch.Tensor:
    """Codes of frames with the model in eval mode (BatchNorm running statistics).

    Shape: (n, S, S, 3) uint8 -> (n, code_dim) float64 on the CPU
    """
    was_training = model.training
    model.eval()
    out = [
        model(normalize(frames[i : i + batch])).double().cpu() for i in range(0, len(frames), batch)
    ]
    model.train(was_training)
    return torch.cat(out)


def fit_indices(n: int, fit_n: int, seed: int = 0) -> np.ndarray:
    """The training items whose first-view embeddings fit the read-out maps (sorted)."""
    rng = np.random.default_rng([seed, 7])
    return np.sort(rng.choice(n, size=min(n, fit_n), replace=False))


class PairBatches:
    """The data source of a Reacher run: training pairs in a fresh random order every
    epoch (the incomplete last batch dropped), both views in one batch, view-major, so
    that BatchNorm sees both.

    Shape: next() -> (2 B, 3, S, S) normalized frames on the device
    """

    def __init__(
        self,
        frames: np.ndarray | torch.Tensor,
        batch: int,
        normalize: FrameNormalizer,
        order: torch.Generator,
    ) -> None:
        self.frames, self.batch, self.normalize, self.order = frames, batch, normalize, order
        self.n = frames.shape[0]
        self.per_epoch = self.n // batch
        # One chunk is one epoch: a permutation walked a batch at a time.
        self.cursor = ChunkCursor(self.per_epoch, self._permutation)

    def _permutation(self) -> torch.Tensor:
        return torch.randperm(self.n, generator=self.order)

    def next(self) -> torch.Tensor:
        perm, pos = self.cursor.take()
        idx = perm[pos * self.batch : (pos + 1) * self.batch]
        if isinstance(self.frames, torch.Tensor):
            views = self.frames[idx.to(self.frames.device)].transpose(0, 1)
        else:
            views = self.frames[idx.numpy()].swapaxes(0, 1)  # (2, B, S, S, 3)
        return self.normalize(views.reshape(-1, *views.shape[2:]))


def _engine(
    model: torch.nn.Module, source: PairBatches, cfg: TrainConfig, device: torch.device
) -> Engine:
    """The shared training step for one run: a stack of one member (R = 1)."""
    use_amp = cfg.bf16
    batch = source.batch

    def forward(x: torch.Tensor) -> torch.Tensor:  # (2 B, 3, S, S) -> (1, 2, B, m)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=use_amp):
            h = model(x)
        return h.float().view(1, 2, batch, -1)

    obj = build_objective("lejepa", lam=cfg.lam, num_directions=cfg.num_directions)
    draws = DrawStream(obj, 2, [generator(device, cfg.seed, _DIRECTIONS, 0)])
    return Engine(
        model,
        forward,
        source,
        obj,
        draws,
        Schedule(cfg.lr, cfg.epochs * source.per_epoch, hold=0),
        weight_decay=cfg.weight_decay,
        per_run={"lam": torch.tensor([cfg.lam], device=device)},
        device=device,
        members=1,
        clip=cfg.clip,
        sync_each_step=device.type == "cpu",
    )


class _EpochLog:
    """Per-epoch means of the loss and its terms, and images/s: the Reacher run's
    ``on_step`` and ``on_eval`` (at each epoch's end) in :func:`run_loop`."""

    def __init__(self, device: torch.device, batch: int, bar: tqdm, on_epoch) -> None:
        self.device, self.batch, self.bar, self.on_epoch = device, batch, bar, on_epoch
        self.history: list[dict] = []
        self._reset(0)

    def _reset(self, done: int) -> None:
        # Sums stay on the device: a float() per step would synchronize the GPU each step.
        self.sums = {k: torch.zeros((), device=self.device) for k in ("loss", *_TERMS)}
        self.first, self.t0 = done, time.perf_counter()

    def add(self, step: int, loss: torch.Tensor, terms: dict[str, torch.Tensor]) -> None:
        self.sums["loss"] += loss[0]
        for k in _TERMS:
            self.sums[k] += terms[k][0]

    def close(self, done: int) -> None:
        """Record the epoch that ends after ``done`` steps (a partial one at divergence)."""
        n = done - self.first
        rec = {k: float(v) / n for k, v in self.sums.items()}
        rec["epoch"], rec["step"] = len(self.history) + 1, done
        rec["images_per_s"] = 2 * self.batch * n / (time.perf_counter() - self.t0)
        self.history.append(rec)
        self.bar.update(1)
        self.bar.set_postfix(loss=f"{rec['loss']:.4f}", img_s=f"{rec['images_per_s']:.0f}")
        if self.on_epoch is not None:
            self.on_epoch(rec["epoch"])
        self._reset(done)


def _fit(
    engine: Engine,
    source: PairBatches,
    cfg: TrainConfig,
    name: str,
    progress: bool,
    on_epoch: Callable[[int], None] | None = None,
) -> tuple[list[dict], int]:
    """Epochs of the engine's steps in the shared loop; returns (per-epoch history, steps
    done). Stops at the end of the step (CPU) or epoch (GPU) in which the loss turned
    non-finite."""
    bar = tqdm(total=cfg.epochs, desc=f"train {name}", disable=not progress)
    log = _EpochLog(engine.alive.device, source.batch, bar, on_epoch)
    ends = {source.per_epoch * (e + 1) for e in range(cfg.epochs)}
    with bar:
        done = run_loop(engine, cfg.epochs * source.per_epoch, ends, log.close, log.add)
        if done != log.first:  # stopped inside an epoch: its means up to divergence
            log.close(done)
    return log.history, done


_TERMS = ("alignment", "sigreg")


def _model(cfg: TrainConfig, device: torch.device) -> tuple[torch.nn.Module, bool]:
    """The cnn encoder on the device, and whether it uses the NHWC layout (on the CPU too:
    oneDNN reorders NCHW tensors into its own layout at every convolution, NHWC it reads
    as it is; 20% less CPU time a trained image at 64 x 64)."""
    model = CNNEncoder(code_dim=2, seed=derive_seed(cfg.seed, _INIT)).to(device)
    channels_last = cfg.channels_last
    if channels_last:
        # Module.to(memory_format=...) works at run time but is missing from torch's stubs.
        model = model.to(memory_format=torch.channels_last)  # type: ignore[call-overload]
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True  # fixed shapes: pick the fastest kernels once
        # cuDNN would run float32 convolutions in TF32 (10-bit mantissa) by default, so
        # float32 results would depend on the layout's kernels; bf16 is the explicit fast path.
        torch.backends.cudnn.allow_tf32 = False
    return model, channels_last


def train_run(
    train: FrameData,
    gallery: FrameData,
    cfg: TrainConfig,
    out_dir: str | Path,
    progress: bool = True,
    on_epoch: Callable[[int], None] | None = None,
) -> RunResult:
    """Train one encoder, evaluate it, and save it into out_dir: codes.safetensors, then
    the run record (:class:`~lejepa_id.records.result.RunResult`: weights.safetensors, and the
    result file last, atomically). A run whose loss turns NaN or infinite stops there and
    is recorded as diverged (no codes, no metrics). ``on_epoch`` is called with the
    number of epochs done after each one."""
    cfg.validate()
    check_same_size(train, gallery)
    device = resolve_device(cfg.device)
    out_dir = Path(out_dir)
    model, channels_last = _model(cfg, device)
    normalize = FrameNormalizer(train.meta["norm"], device, channels_last)
    frames: np.ndarray | torch.Tensor = train.frames
    if device.type == "cuda":
        # The whole uint8 set (2.4 GB at the full size) fits on one accelerator: upload
        # once instead of copying every batch over PCIe.
        frames = torch.from_numpy(frames).to(device)
    order = generator(torch.device("cpu"), cfg.seed, _ORDER)
    source = PairBatches(frames, min(cfg.batch, len(frames)), normalize, order)
    engine = _engine(model, source, cfg, device)
    curve = IdentificationCurve(model, train, gallery, normalize, cfg, source.per_epoch)

    def after_epoch(epoch: int) -> None:
        curve.check(epoch)
        if on_epoch is not None:
            on_epoch(epoch)

    t0 = time.perf_counter()
    history, steps = _fit(engine, source, cfg, out_dir.name, progress, after_epoch)
    wall = time.perf_counter() - t0 - curve.seconds
    res = _record(cfg, history, steps, wall, device, engine.diverged_steps()[0])
    res.name = f"{out_dir.parent.name}/{out_dir.name}"
    res.extra.update(
        data=_data_record(train, gallery, out_dir), kind=train.kind, label=out_dir.parent.name
    )
    if res.status == "finished":
        res.metrics = _evaluate(model, train, gallery, normalize, cfg.fit_n, out_dir)
        curve.add(cfg.epochs, steps, res.metrics)
    if cfg.identify_every:
        res.extra.update(identification=curve.columns(), identification_s=curve.seconds)
    res.weights = {k: v.detach().cpu() for k, v in model.state_dict().items()}
    res.save(out_dir)
    return res


def _record(
    cfg: TrainConfig,
    history: list[dict],
    steps: int,
    wall: float,
    device: torch.device,
    diverged: int | None,
) -> RunResult:
    """The run record of a trained run, less its metrics, weights and data keys: the
    last epoch's mean losses and the per-epoch history as columns."""
    res = RunResult(
        config=cfg,
        experiment_kind=EXPERIMENT_KIND,
        status="finished" if diverged is None else "diverged",
        diverged_step=diverged,
        losses={k: history[-1][k] for k in ("loss", *_TERMS)},
        curves={k: [rec[k] for rec in history] for k in history[0]},
        wall_time_s=wall,
        steps_per_s=steps / max(wall, 1e-9),
        threads=torch.get_num_threads(),
        device=str(device),
    )
    res.init_final_losses = [res.losses["loss"]]
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else None
    res.extra.update(steps=steps, device_name=name)
    return res


def _data_record(train: FrameData, gallery: FrameData, out_dir: Path) -> dict:
    """The datasets a run was trained and scored on: their identities, their paths as
    given, and their paths relative to the run's folder (``*_from_run``), which stay
    right when a folder holding both the runs and the data moves (``lejepa-id paper``'s
    OUT)."""
    run = Path(out_dir).resolve()
    return {
        "train": str(train.path),
        "train_from_run": os.path.relpath(Path(train.path).resolve(), run),
        "train_identity": train.meta["identity"],
        "eval": str(gallery.path),
        "eval_from_run": os.path.relpath(Path(gallery.path).resolve(), run),
        "eval_identity": gallery.meta["identity"],
        "norm": train.meta["norm"],
    }


IDENTIFICATION_KEYS = ("r2_hz", "r2_h_sincos", "orth_err_whitened")
"""The scores an identification curve follows: those of the Reacher claims' premise
(R²(h → z), the whitened orthogonality error) and R² to the arm's geometry."""


class IdentificationCurve:
    """The encoder's identification scores every ``cfg.identify_every`` epochs of training
    (:attr:`TrainConfig.identify_every`), as columns ``epoch``, ``step`` and
    :data:`IDENTIFICATION_KEYS`. The time spent scoring is kept apart (``seconds``), so
    the run's wall time and pace stay those of training."""

    def __init__(self, model, train: FrameData, gallery: FrameData, normalize, cfg, per_epoch):
        self.model, self.train, self.gallery, self.normalize = model, train, gallery, normalize
        self.every, self.epochs, self.fit_n, self.per_epoch = (
            cfg.identify_every, cfg.epochs, cfg.fit_n, per_epoch
        )  # fmt: skip
        self.points: list[dict[str, float]] = []
        self.seconds = 0.0

    def check(self, epoch: int) -> None:
        """Score the encoder after ``epoch`` epochs, if a check falls there (the last
        epoch's scores are the final metrics, added by :meth:`add`)."""
        if not self.every or epoch % self.every or epoch >= self.epochs:
            return
        t0 = time.perf_counter()
        fit_idx = fit_indices(self.train.frames.shape[0], self.fit_n)
        h_fit = encode(self.model, self.train.frames[fit_idx, 0], self.normalize)
        h_eval = encode(self.model, self.gallery.frames[:, 0], self.normalize)
        if bool(torch.isfinite(h_fit).all() and torch.isfinite(h_eval).all()):
            z_fit = torch.from_numpy(self.train.angles[fit_idx, 0])
            z_eval = torch.from_numpy(self.gallery.angles[:, 0])
            scores = encoder_scores(h_fit, z_fit, h_eval, z_eval)
            self.add(epoch, epoch * self.per_epoch, scores)
        self.seconds += time.perf_counter() - t0

    def add(self, epoch: int, step: int, scores: dict) -> None:
        self.points.append(
            {"epoch": epoch, "step": step, **{k: float(scores[k]) for k in IDENTIFICATION_KEYS}}
        )

    def columns(self) -> dict[str, list[float]]:
        keys = ("epoch", "step", *IDENTIFICATION_KEYS)
        return {k: [p[k] for p in self.points] for k in keys}


def _evaluate(model, train: FrameData, gallery: FrameData, normalize, fit_n: int, out_dir):
    """The identifiability scores of a trained encoder; writes codes.safetensors."""
    fit_idx = fit_indices(train.frames.shape[0], fit_n)
    h_fit = encode(model, train.frames[fit_idx, 0], normalize)
    z_fit = torch.from_numpy(train.angles[fit_idx, 0])
    h_eval = encode(model, gallery.frames[:, 0], normalize)
    z_eval = torch.from_numpy(gallery.angles[:, 0])
    save_tensors(
        out_dir / "codes.safetensors",
        {"h_eval": h_eval, "h_fit": h_fit, "z_fit": z_fit, "fit_index": torch.from_numpy(fit_idx)},
    )
    return encoder_scores(h_fit, z_fit, h_eval, z_eval)
