"""Training the cnn encoder on Reacher frame pairs with the LeJEPA objective.

One run = one (training dataset, lambda, seed). Frames stay uint8 until they reach the
device, where they are scaled and normalized with the training set's per-channel mean and
std: a batch of 256 pairs moves 6 MB at 64 x 64 instead of 25 MB of float32. A sweep is
the product of datasets, lambdas and seeds, one directory per run, and a finished run
(its result.json exists) is skipped, so an interrupted sweep resumes.
"""

from __future__ import annotations

import math
import platform
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

from lejepa_id.encoders import CNNEncoder
from lejepa_id.errors import UsageError
from lejepa_id.experiments import fmt_value
from lejepa_id.io import atomic_write_json, read_json, save_tensors
from lejepa_id.limits import check_name
from lejepa_id.objectives import objective
from lejepa_id.reacher.datasets import FrameData, check_same_size
from lejepa_id.reacher.evaluation import encoder_scores, pixel_baseline


@dataclass
class TrainConfig:
    """Hyper-parameters of one Reacher encoder run (defaults: SPEC section 8)."""

    lam: float = 1e-2
    """Weight of SIGReg in lam * SIGReg + (1 - lam) * alignment."""
    seed: int = 0
    """Seed of the encoder's initialization, the batch order and SIGReg's directions."""
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
    """auto (cuda when available), cpu or cuda."""
    bf16: bool = False
    """bfloat16 autocast for the encoder's forward pass (CUDA only; loss stays float32)."""
    channels_last: bool = True
    """NHWC memory layout for the convolutions on CUDA (the frames are stored NHWC)."""

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
        if self.device not in ("auto", "cpu", "cuda"):
            raise UsageError(f"device={self.device!r} is not one of auto, cpu, cuda")


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
}


@dataclass
class RunResult:
    """What a finished run returns (the same content is in its result.json)."""

    path: Path
    metrics: dict
    wall_s: float
    history: list[dict] = field(default_factory=list)


def resolve_device(name: str) -> torch.device:
    """auto -> cuda when available, else cpu; asking for cuda without one is a UsageError."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise UsageError("--device cuda was requested but torch sees no CUDA device")
    if name not in ("cpu", "cuda"):
        raise UsageError(f"--device {name!r} is not one of auto, cpu, cuda")
    return torch.device(name)


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


@torch.no_grad()
def encode(
    model: torch.nn.Module, frames: np.ndarray, normalize: FrameNormalizer, batch: int = 1024
) -> torch.Tensor:
    """Codes of frames with the model in eval mode (BatchNorm running statistics).

    Shape: (n, S, S, 3) uint8 -> (n, d_latent) float64 on the CPU
    """
    was_training = model.training
    model.eval()
    out = [
        model(normalize(frames[i : i + batch])).double().cpu() for i in range(0, len(frames), batch)
    ]
    model.train(was_training)
    return torch.cat(out)


def cosine_lr(step: int, total: int, peak: float) -> float:
    """Cosine decay from peak at step 0 to 0 at step total."""
    return 0.5 * peak * (1.0 + math.cos(math.pi * min(step, total) / total))


def fit_indices(n: int, fit_n: int, seed: int = 0) -> np.ndarray:
    """The training items whose first-view embeddings fit the read-out maps (sorted)."""
    rng = np.random.default_rng([seed, 7])
    return np.sort(rng.choice(n, size=min(n, fit_n), replace=False))


def train_run(
    train: FrameData,
    gallery: FrameData,
    cfg: TrainConfig,
    out_dir: str | Path,
    progress: bool = True,
) -> RunResult:
    """Train one encoder, evaluate it, and write encoder.safetensors, codes.safetensors
    and result.json (last, atomically) into out_dir."""
    cfg.validate()
    check_same_size(train, gallery)
    device = resolve_device(cfg.device)
    out_dir = Path(out_dir)
    torch.manual_seed(cfg.seed)  # nothing should draw from it; belt and braces
    model = CNNEncoder(d_latent=2, seed=cfg.seed).to(device)
    channels_last = cfg.channels_last and device.type == "cuda"
    if channels_last:
        model = model.to(memory_format=torch.channels_last)
    if device.type == "cuda":
        torch.backends.cudnn.benchmark = True  # fixed shapes: pick the fastest kernels once
    normalize = FrameNormalizer(train.meta["norm"], device, channels_last)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    n = train.frames.shape[0]
    batch = min(cfg.batch, n)
    steps_per_epoch = n // batch
    total = cfg.epochs * steps_per_epoch
    order_gen = torch.Generator().manual_seed(cfg.seed)
    dir_gen = torch.Generator(device=device).manual_seed(cfg.seed + 1_000_003)
    frames = train.frames
    if device.type == "cuda":
        # The whole uint8 set (2.4 GB at the full size) fits on one accelerator: upload
        # once instead of copying every batch over PCIe.
        frames = torch.from_numpy(frames).to(device)
    use_amp = cfg.bf16 and device.type == "cuda"
    history: list[dict] = []
    step = 0
    t0 = time.perf_counter()
    bar = tqdm(range(cfg.epochs), desc=f"train {out_dir.name}", disable=not progress)
    for epoch in bar:
        perm = torch.randperm(n, generator=order_gen)
        # Sums stay on the device: a float() per step would synchronize the GPU each step.
        sums = {k: torch.zeros((), device=device) for k in ("loss", "alignment", "sigreg")}
        t_epoch = time.perf_counter()
        for b in range(steps_per_epoch):
            idx = perm[b * batch : (b + 1) * batch]
            if isinstance(frames, torch.Tensor):
                pair = frames[idx.to(device)]
            else:
                pair = frames[idx.numpy()]  # (B, 2, S, S, 3)
            # Both views in one forward pass, view-major, so BatchNorm sees both.
            views = pair.transpose(0, 1) if isinstance(pair, torch.Tensor) else pair.swapaxes(0, 1)
            x = normalize(views.reshape(-1, *views.shape[2:]))
            for g in opt.param_groups:
                g["lr"] = cosine_lr(step, total, cfg.lr)
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=use_amp):
                h = model(x)
            H = h.float().view(2, batch, -1)
            loss, terms = objective(
                H, "lejepa", lam=cfg.lam, generator=dir_gen, num_directions=cfg.num_directions
            )
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.clip)
            opt.step()
            step += 1
            sums["loss"] += loss.detach()
            sums["alignment"] += terms["alignment"]
            sums["sigreg"] += terms["sigreg"]
        rec = {k: float(v) / steps_per_epoch for k, v in sums.items()}
        rec["epoch"] = epoch + 1
        rec["images_per_s"] = 2 * batch * steps_per_epoch / (time.perf_counter() - t_epoch)
        history.append(rec)
        bar.set_postfix(loss=f"{rec['loss']:.4f}", img_s=f"{rec['images_per_s']:.0f}")
    train_s = time.perf_counter() - t0
    if not math.isfinite(history[-1]["loss"]):
        raise FloatingPointError(f"run {out_dir} diverged (loss {history[-1]['loss']})")

    fit_idx = fit_indices(n, cfg.fit_n)
    h_fit = encode(model, train.frames[fit_idx, 0], normalize)
    z_fit = torch.from_numpy(train.angles[fit_idx, 0])
    h_eval = encode(model, gallery.frames[:, 0], normalize)
    z_eval = torch.from_numpy(gallery.angles[:, 0])
    metrics = encoder_scores(h_fit, z_fit, h_eval, z_eval)
    wall = time.perf_counter() - t0
    save_tensors(out_dir / "encoder.safetensors", model.state_dict())
    save_tensors(
        out_dir / "codes.safetensors",
        {"h_eval": h_eval, "h_fit": h_fit, "z_fit": z_fit, "fit_index": torch.from_numpy(fit_idx)},
    )
    result = {
        "config": asdict(cfg),
        "data": {
            "train": str(train.path),
            "train_identity": train.meta["identity"],
            "eval": str(gallery.path),
            "eval_identity": gallery.meta["identity"],
            "norm": train.meta["norm"],
        },
        "kind": train.kind,
        "label": out_dir.parent.name,
        "metrics": metrics,
        "final_losses": history[-1],
        "history": history,
        "steps": step,
        "train_seconds": train_s,
        "wall_seconds": wall,
        "device": str(device),
        "device_name": torch.cuda.get_device_name(device) if device.type == "cuda" else None,
        "versions": {"torch": torch.__version__, "python": platform.python_version()},
    }
    atomic_write_json(out_dir / "result.json", result)
    return RunResult(out_dir, metrics, wall, history)


def run_dir_name(lam: float, seed: int) -> str:
    """Directory of one run inside its dataset's label directory (distinct values give
    distinct names: ``lam0.001_seed0``, ``lam0.0010000001_seed0``)."""
    return f"lam{fmt_value(float(lam))}_seed{seed}"


def stored_mismatch(run: Path, cfg: TrainConfig, data: FrameData, gallery: FrameData) -> str | None:
    """Why the finished run in ``run`` is not this run (None: it is, skip it).

    Like the synthetic sweep: a run is reused only when its stored config (every key but
    the device) and the identities of its training and evaluation datasets match.
    Raises UsageError on a mismatch; returns "retrain" for an unreadable result.
    """
    try:
        stored = read_json(run / "result.json")
    except (OSError, ValueError):
        return "retrain"
    old_cfg = stored.get("config") if isinstance(stored, dict) else None
    old_data = stored.get("data") if isinstance(stored, dict) else None
    if not isinstance(old_cfg, dict) or not isinstance(old_data, dict):
        return "retrain"
    want = {k: v for k, v in asdict(cfg).items() if k != "device" and k in old_cfg}
    for key, value in want.items():
        if old_cfg[key] != value:
            raise UsageError(
                f"{run} was trained with {key}={old_cfg.get(key)!r} but this run has "
                f"{key}={value!r}; use another --out or the same settings"
            )
    for key, ds in (("train_identity", data), ("eval_identity", gallery)):
        if old_data.get(key) != ds.meta["identity"]:
            raise UsageError(
                f"{run} was trained on another dataset ({key} {old_data.get(key)}); "
                "use another --out or the same --data/--eval"
            )
    return None


def check_sweep_values(
    base: TrainConfig, lams: list, seeds: list, labels: list[str] | None, n_datasets: int
) -> None:
    """Refuse a bad lambda, seed or label (they become directory names) up front."""
    for lam in lams:
        TrainConfig(**{**asdict(base), "lam": lam}).validate()
    for seed in seeds:
        TrainConfig(**{**asdict(base), "seed": seed}).validate()
    for key, values in (("--lams", [float(v) for v in lams]), ("--seeds", list(seeds))):
        if not values or len(set(values)) != len(values):
            raise UsageError(f"{key} {values} must be non-empty and list each value once")
    if labels is not None:
        if len(labels) != n_datasets or len(set(labels)) != len(labels):
            raise UsageError(f"need one distinct label per dataset, got {labels}")
        for label in labels:
            check_name("label", label)


def sweep(
    datasets: list[FrameData],
    gallery: FrameData,
    base: TrainConfig,
    lams: list[float],
    seeds: list[int],
    out: str | Path,
    labels: list[str] | None = None,
    progress: bool = True,
) -> list[Path]:
    """Train every (dataset, lambda, seed); finished runs are skipped. Returns run dirs.

    Each dataset's runs go to out/<label>/lam<lam>_seed<seed>/, the label defaulting to
    the dataset directory's name. The pixel baseline R^2(pixels -> z) of each dataset is
    written once to out/<label>/baseline.json. Everything is checked before anything is
    written: the settings of every run, and that each finished run matches its settings.
    """
    base.validate()
    for data in datasets:
        check_same_size(data, gallery)
    labels = labels or [d.path.name for d in datasets]
    check_sweep_values(base, lams, seeds, labels, len(datasets))
    out = Path(out)
    plan = []
    for data, label in zip(datasets, labels):
        for lam in lams:
            for seed in seeds:
                cfg = TrainConfig(**{**asdict(base), "lam": lam, "seed": seed})
                cfg.validate()
                run = out / label / run_dir_name(lam, seed)
                todo = not (run / "result.json").exists() or stored_mismatch(
                    run, cfg, data, gallery
                )
                plan.append((data, label, cfg, run, bool(todo)))
    done: list[Path] = []
    for data, label in zip(datasets, labels):
        write_baseline(out / label / "baseline.json", data, gallery, base.fit_n)
    for data, _label, cfg, run, todo in plan:
        if todo:
            train_run(data, gallery, cfg, run, progress)
        done.append(run)
    return done


def write_baseline(path: Path, data: FrameData, gallery: FrameData, fit_n: int) -> None:
    """The pixel baseline R^2(pixels -> z) of one training dataset, computed once."""
    if path.exists():
        return
    idx = fit_indices(data.frames.shape[0], fit_n)
    x_fit = data.frames[idx, 0].reshape(len(idx), -1).astype(np.float32) / 255.0
    x_eval = gallery.frames[:, 0].reshape(len(gallery.frames), -1)
    r2_px = pixel_baseline(
        x_fit, data.angles[idx, 0], x_eval.astype(np.float32) / 255.0, gallery.angles[:, 0]
    )
    atomic_write_json(path, {"r2_pixels_pca64_hz": r2_px, "kind": data.kind})
