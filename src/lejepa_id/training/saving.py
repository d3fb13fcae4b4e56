"""Saving and loading trained runs: a group of expanded runs trained and written to its
folders (``train_and_save``: records, loggers, the group's checkpoint file), and a saved
encoder rebuilt from its weights (``load_encoder``)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any

import torch

from lejepa_id.config.run import RunConfig
from lejepa_id.encoders.stacked import build_encoder
from lejepa_id.errors import UsageError
from lejepa_id.records.layout import run_dir
from lejepa_id.records.loggers import LoggerHub, make_loggers
from lejepa_id.records.result import RunResult
from lejepa_id.training.checkpoints import CHECKPOINT_DIR
from lejepa_id.training.trainer import OBJECTIVE_PREFIX, train


def load_encoder(config: RunConfig, weights: dict[str, torch.Tensor]) -> torch.nn.Module:
    """Rebuild a trained single-run encoder from its config and saved weights.

    Shape: the module maps (1, B, D) observations to (1, B, m) codes (a stack of one run).
    """
    enc = build_encoder(
        config.encoder,
        config.obs_size,
        [0],
        config.code_size,
        **config.encoder_options,
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
        # Which plugin code trained it (path -> sha256), checked when a sweep resumes.
        if getattr(spec, "plugin_sha256", None):
            res.extra["plugins"] = dict(spec.plugin_sha256)
        if spec.run_id not in keep:
            res.save(
                Path(root) / spec.run_id if root else run_dir(out, spec.experiment, spec.run_id)
            )
    return results
