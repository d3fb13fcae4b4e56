"""The world a run config names, and the check that a supplied world matches its config."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import torch

from lejepa_id.errors import UsageError
from lejepa_id.runtime import resolve_device
from lejepa_id.worlds.laws import LAW_NAMES
from lejepa_id.worlds.mixings import MIXING_NAMES, mixing_names
from lejepa_id.worlds.transitions import transition_class
from lejepa_id.worlds.world import World


def world_for(config: Any) -> World:
    """The world a config describes (named mixing seeded by the run).

    A ``published`` coupling draw happens on the run's device, as in the published code.
    """
    transition = transition_class(config.transition).from_config(config)
    world = World.make(
        config.mixing,
        config.dim,
        law=config.law,
        alpha=config.alpha,
        layers=config.layers,
        mixing_seed=config.resolved_mixing_seed,
        coupling_draw=config.coupling_draw,
        device=resolve_device(config.device),
        obs_dim=config.obs_dim,
        transition=transition,
    )
    if config.mixing not in MIXING_NAMES and world.obs_dim != config.obs_size:
        # A plugin's mixing decides D; the encoder is built for the config's.
        raise UsageError(
            f"mixing {config.mixing!r} maps dim={config.dim} latents to {world.obs_dim} "
            f"observed dimensions but the run has obs_dim={config.obs_dim!r}; set "
            f"obs_dim={world.obs_dim}"
        )
    return world


def check_plugin_mixings(configs: Sequence[Any]) -> None:
    """Build, once each, the worlds of runs whose mixing or latent law a plugin
    registered, so a broken one (it fails, returns the wrong shape, is not invertible,
    draws NaNs) is one line before a sweep starts a worker rather than an error.json per
    run."""
    seen: set[tuple] = set()
    for c in configs:
        mixing, law = getattr(c, "mixing", None), getattr(c, "law", None)
        if not isinstance(mixing, str) or not isinstance(law, str):
            continue  # a run of another kind
        if mixing in MIXING_NAMES and law in LAW_NAMES:
            continue  # built-in ones are trusted
        key = (mixing, law, c.dim, c.obs_dim)
        if key not in seen:
            seen.add(key)
            world_for(dataclasses.replace(c, device="cpu"))


def check_world_matches(config: Any, world: World) -> None:
    """Refuse (one-line UsageError) a world whose law, transition or dimensions differ from
    the config's: the metrics and the saved record would describe another world."""
    if world.dim != config.dim:
        raise UsageError(f"dim={config.dim} does not match the supplied world's dim={world.dim}")
    if config.obs_dim is not None and world.obs_dim != config.obs_dim:
        raise UsageError(f"obs_dim={config.obs_dim} does not match the world's {world.obs_dim}")
    law = world.law
    if law.name != config.law or (law.name == "gennorm" and law.alpha != config.alpha):
        raise UsageError(
            f"law={config.law!r} (alpha={config.alpha}) does not match the supplied world's "
            f"law={law.name!r} (alpha={law.alpha})"
        )
    if world.transition.name != config.transition:
        raise UsageError(
            f"transition={config.transition!r} does not match the supplied world's "
            f"{world.transition.name!r}"
        )
    want = transition_class(config.transition).from_config(config).correlations(config.dim)
    have = world.correlations()
    if not torch.equal(want, have):
        raise UsageError(
            f"rho={config.rho!r} does not match the supplied world's correlations "
            f"{[round(float(r), 6) for r in have]}"
        )
    label = world.mixing_name
    if label in mixing_names() and label != config.mixing:
        raise UsageError(f"mixing={config.mixing!r} but the supplied world's mixing is {label!r}")


def recorded_mixing(config: Any, world: World) -> str:
    """The mixing a result records: the named one, or ``custom:<name>`` for a user's."""
    label = world.mixing_name
    return label if label in mixing_names() else f"custom:{label}"
