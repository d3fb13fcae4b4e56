"""Worlds: latent laws, the OU transition and invertible mixings."""

from lejepa_id.worlds.laws import LAW_NAMES, LatentLaw
from lejepa_id.worlds.mixings import (
    COUPLING_DRAWS,
    MIXING_NAMES,
    Banana,
    CallableMixing,
    Coupling,
    Sinusoid,
    Spiral,
    as_mixing,
    build_mixing,
    coupling_weights,
)
from lejepa_id.worlds.transitions import ou_views
from lejepa_id.worlds.world import World

__all__ = [
    "COUPLING_DRAWS",
    "LAW_NAMES",
    "MIXING_NAMES",
    "Banana",
    "CallableMixing",
    "Coupling",
    "LatentLaw",
    "Sinusoid",
    "Spiral",
    "World",
    "as_mixing",
    "build_mixing",
    "coupling_weights",
    "ou_views",
]
