"""Worlds: latent laws, transitions and mixings, combined in a :class:`World`."""

from lejepa_id.worlds.action import LinearAction, action_pairs
from lejepa_id.worlds.laws import LAW_NAMES, LatentLaw, law_names, register_law
from lejepa_id.worlds.mixings import (
    COUPLING_DRAWS,
    MIXING_NAMES,
    Banana,
    CallableMixing,
    Coupling,
    Linear,
    Sinusoid,
    Spiral,
    as_mixing,
    build_mixing,
    coupling_weights,
    mixing_label,
    mixing_names,
    register_mixing,
)
from lejepa_id.worlds.transitions import (
    OU,
    Transition,
    register_transition,
    transition_class,
    transition_names,
)
from lejepa_id.worlds.world import World

__all__ = [
    "COUPLING_DRAWS",
    "LAW_NAMES",
    "MIXING_NAMES",
    "OU",
    "Banana",
    "CallableMixing",
    "Coupling",
    "LatentLaw",
    "LinearAction",
    "Linear",
    "Sinusoid",
    "Spiral",
    "Transition",
    "World",
    "action_pairs",
    "as_mixing",
    "build_mixing",
    "law_names",
    "coupling_weights",
    "mixing_label",
    "mixing_names",
    "register_law",
    "register_mixing",
    "register_transition",
    "transition_class",
    "transition_names",
]
