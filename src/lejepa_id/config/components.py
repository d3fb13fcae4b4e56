"""The config keys that components add: an objective's hyperparameters, a transition's keys.

Each selected component owns a namespace named after it (``lejepa``, ``whiten``,
``linear_action``): its keys, their types and their defaults are the fields of its
dataclass (an objective's own fields; a transition's ``keys`` dataclass). A run reads a
key from the component it selects, so two objectives may give one name different
defaults (``lejepa.lam`` is 1e-3, ``whiten.lam`` is 0.5). In a file or ``RunConfig``, a
flat key (``lam``) means that key of whichever selected component owns it; a qualified
key (``whiten.lam``) sets it for that component only, which lets the shared defaults of a
sweep give each objective its own value.

The package graph runs one way (docs/layout.md): objectives sit above the config and
register themselves here (:func:`register`), so the config knows them through this
registry only and never imports an objective: its first read loads the built-in ones
through the loader the package's facade names (:func:`lejepa_id.plugins.load_builtins`).
Transitions and encoders sit below the config, in worlds/ and encoders/, and are read
from their own registries.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from dataclasses import dataclass
from typing import Any, Protocol

from lejepa_id.encoders.stacked import encoder_keys, encoder_names
from lejepa_id.errors import UsageError, check_registration
from lejepa_id.plugins import load_builtins
from lejepa_id.worlds.transitions import transition_class, transition_names


class Selectable(Protocol):
    """What the config needs of a component registered here (an objective class): its
    name, its keys as the defaulted fields of a dataclass, a check of a whole run config,
    and the validated instance its keys build."""

    name: str

    @classmethod
    def validate_config(cls, config: Any) -> None: ...

    def validate(self) -> Any: ...


# kind -> the run config key that selects one of them
SELECTED_BY = {"objective": "mode"}
_REGISTERED: dict[str, dict[str, type]] = {kind: {} for kind in SELECTED_BY}


def register(
    kind: str, name: str, cls: type, override: bool = False, how: str = "register"
) -> None:
    """Make component ``cls`` selectable as ``<SELECTED_BY[kind]>: name``; its dataclass
    fields with defaults become config keys in the namespace ``name``. A name already
    taken is refused in one line naming both origins unless ``override`` (``how`` is the
    decorator the message names)."""
    if kind not in _REGISTERED:
        raise ValueError(f"kind={kind!r} is not one of {', '.join(_REGISTERED)}")
    check_registration(kind, name, _REGISTERED[kind].get(name), cls, override, how)
    _REGISTERED[kind][name] = cls


def names(kind: str) -> tuple[str, ...]:
    """The registered names of a kind, in registration order."""
    load_builtins()
    return tuple(_REGISTERED[kind])


def component(kind: str, name: str) -> Any:
    """The registered class (an unknown name is a one-line UsageError naming the key)."""
    load_builtins()
    table = _REGISTERED[kind]
    if name not in table:
        raise UsageError(f"{SELECTED_BY[kind]}={name!r} is not one of {', '.join(table)}")
    return table[name]


def build(kind: str, name: str, **values: Any) -> Any:
    """The validated component ``name`` with the given keys (others at their defaults);
    keys it does not have are ignored, so one flat run config serves all."""
    cls = component(kind, name)
    own = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in values.items() if k in own}).validate()


@dataclass(frozen=True)
class ComponentKey:
    """One key of one component: ``namespace.name``, its types and its default."""

    namespace: str
    kind: str  # "objective", "transition" or "encoder"
    name: str
    types: tuple[type, ...]
    default: Any

    @property
    def qualified(self) -> str:
        return f"{self.namespace}.{self.name}"


def _types(cls: type, name: str) -> tuple[type, ...]:
    hint = typing.get_type_hints(cls)[name]
    args = typing.get_args(hint)
    return tuple(typing.get_origin(a) or a for a in args) if args else (hint,)


def _fields(cls: type | None) -> list[dataclasses.Field]:
    return list(dataclasses.fields(cls)) if cls is not None else []


@functools.lru_cache(maxsize=8)
def _table(registered: tuple[tuple[str, str, int], ...]) -> dict[str, dict[str, ComponentKey]]:
    out: dict[str, dict[str, ComponentKey]] = {}
    for kind, name, _ in registered:
        # An objective holds its keys as its own fields, a transition in its keys class.
        if kind == "objective":
            holder = component(kind, name)
        elif kind == "encoder":
            holder = encoder_keys(name)
        else:
            holder = transition_class(name).keys
        if name in out:
            raise TypeError(f"two components (objective, transition, encoder) are named {name!r}")
        if holder is None:  # a transition without keys of its own
            out[name] = {}
            continue
        out[name] = {
            f.name: ComponentKey(name, kind, f.name, _types(holder, f.name), f.default)
            for f in _fields(holder)
            if f.default is not dataclasses.MISSING
        }
    return out


def namespaces() -> dict[str, dict[str, ComponentKey]]:
    """Component name -> its keys, over every registered objective and transition."""
    registered = tuple(
        [("objective", n, id(component("objective", n))) for n in names("objective")]
        + [("transition", n, id(transition_class(n))) for n in transition_names()]
        + [("encoder", n, id(encoder_keys(n))) for n in encoder_names()]
    )
    return _table(registered)


def owners(key: str) -> list[ComponentKey]:
    """Every component key spelled ``key`` (flat), in registration order."""
    return [keys[key] for keys in namespaces().values() if key in keys]


def lookup(key: str) -> ComponentKey | None:
    """The component key a qualified name ``namespace.key`` names (None if none)."""
    namespace, dot, name = key.partition(".")
    return namespaces().get(namespace, {}).get(name) if dot else None


def flat_keys() -> tuple[str, ...]:
    """Every flat component key name, each once, in registration order."""
    seen: dict[str, None] = {}
    for keys in namespaces().values():
        seen.update(dict.fromkeys(keys))
    return tuple(seen)
