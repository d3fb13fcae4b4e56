"""The world a run config names, and the check that a supplied world matches its config."""

from __future__ import annotations

from typing import Any

import torch

from lejepa_id.errors import UsageError
from lejepa_id.runtime import resolve_device
from lejepa_id.worlds.mixings import MIXING_NAMES
from lejepa_id.worlds.transitions import transition_class
from lejepa_id.worlds.world import World


def world_for(config: Any) -> World:
    """The world a config describes (named mixing seeded by the run).

    A ``published`` coupling draw happens on the run's device, as in the published code.
    """
    transition = transition_class(config.transition).from_config(config)
    return World.make(
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
    if label in MIXING_NAMES and label != config.mixing:
        raise UsageError(f"mixing={config.mixing!r} but the supplied world's mixing is {label!r}")


def recorded_mixing(config: Any, world: World) -> str:
    """The mixing a result records: the named one, or ``custom:<name>`` for a user's."""
    label = world.mixing_name
    return label if label in MIXING_NAMES else f"custom:{label}"
