"""Experiment files: named runs on shared defaults, sweep axes, ``--set`` overrides.

An experiment file (YAML, see ``configs/``) names a set of runs (``runs``: name ->
overrides) on top of shared ``defaults``, plus sweep axes such as ``seeds``;
:func:`load_experiment` reads it with the safe YAML loader and validates every run once,
at the boundary, raising :class:`~lejepa_id.errors.UsageError` with one line that names
the offending key or value.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from lejepa_id.config import limits as limits
from lejepa_id.config.run import (
    OBJECTIVE_ALIAS,
    RunConfig,
    _coerce,
    _coerce_number,
    _objective_as_mode,
    make_run_config,
    run_keys,
)
from lejepa_id.errors import UsageError
from lejepa_id.plugins import fingerprints as plugin_fingerprints
from lejepa_id.plugins import load_all as load_plugins
from lejepa_id.plugins import loaded as loaded_plugins
from lejepa_id.resources import resolve_config

# Sweep axes: experiment-level list keys, each sweeping one RunConfig field.
AXES = {
    "dims": "dim",
    "code_dims": "code_dim",
    "alphas": "alpha",
    "lambs": "lam",
    "rhos": "rho",
    "rho_grid": "rho",
    "seeds": "seed",
}
# rho_grid sweeps an anisotropic channel: each value (r1, r2) gives the first latent
# correlation r1 and every other one r2, whatever the run's dim.
EXPERIMENT_KEYS = ("name", "kind", "description", "plugins", "defaults", "runs", *AXES)


@dataclass
class RunSpec:
    """One expanded run of an experiment: its name, axis values and resolved config."""

    experiment: str
    run: str
    axes: dict[str, Any]
    config: RunConfig
    plugins: tuple[str, ...] = ()
    """Plugins the run's components come from (loaded again by every executor)."""
    plugin_sha256: dict[str, str] = field(default_factory=dict)
    """Each plugin's source hash when the run was planned; its record keeps them."""

    @property
    def run_id(self) -> str:
        """Directory-safe identity, e.g. ``spiral_lejepa-alpha0.5-seed1337``.

        Axis values are read from the resolved config, so ``1e-3`` and ``0.001`` are one
        run, and written so that distinct values never share an id (see :func:`fmt_value`).
        """
        parts = [self.run] + [
            f"{AXES[k]}{fmt_value(getattr(self.config, AXES[k]))}" for k in self.axes
        ]
        return "-".join(parts)


def fmt_value(value: Any) -> str:
    """A number as it appears in a run id: short, and distinct for distinct values.

    ``:g`` (6 significant digits) where it gives the value back exactly, as in every
    published config (0.001, 1e-06, 0.125, 2); else the shortest exact form (repr), so
    ``0.0010000001`` never shares the id of ``0.001``.
    """
    if isinstance(value, float):
        short = f"{value:g}"
        return short if float(short) == value else repr(value)
    if isinstance(value, list):
        return "x".join(fmt_value(float(v)) for v in value)
    return str(value)


@dataclass
class Experiment:
    """A named set of runs with shared defaults and sweep axes (see configs/*.yaml)."""

    name: str
    runs: dict[str, dict[str, Any]]
    defaults: dict[str, Any] = field(default_factory=dict)
    axes: dict[str, list[Any]] = field(default_factory=dict)
    overrides: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    plugins: tuple[str, ...] = ()
    """Plugins loaded for this experiment (:mod:`lejepa_id.plugins`), canonical specs."""

    def run_config(self, run: str, **axis_values: Any) -> RunConfig:
        """Resolve one run: defaults, then the run's own keys, then axes, then --set."""
        if run not in self.runs:
            raise UsageError(
                f"run {run!r} is not in experiment {self.name}; allowed: {', '.join(self.runs)}"
            )
        merged: dict[str, Any] = {}
        for layer in (self.defaults, self.runs[run], axis_values, self.overrides):
            # Each layer may name the objective as ``objective`` or ``mode``; a later
            # layer's replaces an earlier one's under either name.
            merged.update(_objective_as_mode(layer))
        return make_run_config(merged, where=f"runs.{run}")

    def _grid_rho(self, run: str, fields: dict[str, Any], pair: list[float]) -> list[float]:
        merged = {**self.defaults, **self.runs[run], **fields, **self.overrides}
        dim = _coerce("dim", merged.get("dim", RunConfig().dim))
        first, rest = (_coerce_number("rho_grid", v, (float,)) for v in pair)
        return [first] + [rest] * (dim - 1)

    def expand(self) -> list[RunSpec]:
        """Every run: the product of run names and the sweep axes, in a stable order."""
        names = list(self.runs)
        axis_keys = [k for k in AXES if k in self.axes]
        for key in axis_keys:
            _check_distinct(key, self.axes[key])
        specs = []
        hashes = plugin_fingerprints(self.plugins)
        for run in names:
            for combo in itertools.product(*(self.axes[k] for k in axis_keys)):
                values = dict(zip(axis_keys, combo))
                fields = {AXES[k]: v for k, v in values.items()}
                if "rho_grid" in values:
                    fields["rho"] = self._grid_rho(run, fields, values["rho_grid"])
                config = self.run_config(run, **fields)
                specs.append(RunSpec(self.name, run, values, config, self.plugins, hashes))
        if not specs:
            raise UsageError(f"experiment {self.name} expands to no runs (an axis is empty)")
        return specs


def _check_distinct(key: str, values: list[Any]) -> None:
    """Refuse an axis listing one value twice (``seeds=[1, 1]``, ``lambs=[1e-3, 0.001]``):
    both would be the same run, trained twice into one folder."""
    seen: dict[Any, Any] = {}
    for value in values:
        number = _coerce(AXES[key], value)
        number = tuple(number) if isinstance(number, list) else number
        if number in seen:
            raise UsageError(
                f"sweep axis {key!r} lists the value {number!r} twice "
                f"({seen[number]!r} and {value!r}); each value must appear once"
            )
        seen[number] = value


def _rho_grid(value: Any) -> list[list[float]]:
    """``{first: [...], rest: [...]}`` -> every pair (r1, r2) of the product."""
    if not isinstance(value, dict) or set(value) != {"first", "rest"}:
        raise UsageError(f"rho_grid={value!r} must be a mapping with lists 'first' and 'rest'")
    lists = []
    for part in ("first", "rest"):
        items = value[part] if isinstance(value[part], list) else [value[part]]
        if not items:
            raise UsageError(f"rho_grid.{part} is empty")
        lists.append([_coerce_number(f"rho_grid.{part}", v, (float,)) for v in items])
    return [[a, b] for a in lists[0] for b in lists[1]]


def parse_set(assignments: list[str]) -> dict[str, Any]:
    """Parse ``key=value`` strings; values are YAML (numbers, strings, lists)."""
    out: dict[str, Any] = {}
    for item in assignments:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"--set {item!r} must look like key=value")
        try:
            out[key] = yaml.safe_load(raw)
        except yaml.YAMLError:
            raise UsageError(f"--set {item!r}: the value is not valid YAML") from None
    return out


def _apply_set(tree: dict[str, Any], key: str, value: Any) -> None:
    """Apply one --set: a RunConfig field overrides every run; an experiment key replaces
    that key; a dotted path (``runs.spiral_lejepa.lam``) sets one leaf of the file."""
    if "." in key:
        node = tree
        parts = key.split(".")
        for part in parts[:-1]:
            child = node.get(part) if isinstance(node, dict) else None
            if not isinstance(child, dict):
                raise UsageError(f"--set {key}: {part!r} is not a section of the config")
            node = child
        node[parts[-1]] = value
    elif key == "runs" and isinstance(value, list):
        known = tree.get("runs", {})
        for name in value:
            if name not in known:
                raise UsageError(f"--set runs: run {name!r} is not one of {', '.join(known)}")
        tree["runs"] = {name: known[name] for name in value}
    elif key in EXPERIMENT_KEYS:
        tree[key] = value
    elif key in run_keys() or key == OBJECTIVE_ALIAS:
        axis = next((a for a, field in AXES.items() if field == key and a != "rho_grid"), None)
        if axis is not None and isinstance(value, str | list) and "," in str(value):
            # lam=1e-3,1e-2 means a sweep over lam: that is the axis lambs.
            shown = value if isinstance(value, str) else ",".join(map(str, value))
            raise UsageError(
                f"--set {key}={shown!r} sets one value; to sweep {key} set the axis "
                f"{axis}: {_list_hint(shown).replace('KEY', axis)}"
            )
        tree.setdefault("__overrides__", {})[key] = value
    else:
        raise UsageError(
            f"unknown config key {key!r}; allowed: {', '.join(EXPERIMENT_KEYS)} "
            f"or a run key ({', '.join(run_keys())})"
        )


def load_experiment(
    path: str | Path,
    sets: list[str] | None = None,
    only: str | None = None,
    plugins: Sequence[str] = (),
) -> Experiment:
    """Read and validate an experiment YAML file, applying ``--set`` overrides.

    ``path`` is a file, or the name of one of the paper's configs (``"2d"``,
    ``"scaling"``; see :func:`lejepa_id.resources.resolve_config`).

    ``only`` keeps (and validates) that one run, so an override that suits it is not
    refused because another run of the file would be invalid with it. ``plugins`` (paths
    or module names, e.g. from ``--plugin``) are loaded first, then the file's own
    ``plugins:`` list (paths relative to the file).
    """
    path = resolve_config(path)
    tree = read_tree(path)
    load_plugins(plugins)
    load_plugins(_plugin_list(tree, path), base=path.parent)
    for key, value in parse_set(sets or []).items():
        _apply_set(tree, key, value)
    overrides = tree.pop("__overrides__", {})
    if tree.get("kind", "synthetic") != "synthetic":
        raise UsageError(f"{path.name}: kind={tree['kind']!r} is not a synthetic experiment")
    for key in tree:
        if key not in EXPERIMENT_KEYS:
            raise UsageError(
                f"unknown config key {key!r} in {path.name}; allowed: {', '.join(EXPERIMENT_KEYS)}"
            )
    defaults = tree.get("defaults") or {}
    if not isinstance(defaults, dict):
        raise UsageError(
            f"{path.name}: 'defaults' must be a mapping of config keys, got {defaults!r}"
        )
    name = tree.get("name", path.stem)
    limits.check_name("experiment name", name if isinstance(name, str) else str(name))
    exp = Experiment(
        name=str(name),
        runs=_runs(tree, path, only),
        defaults=defaults,
        axes=_axes(tree),
        overrides=overrides,
        description=str(tree.get("description", "")),
        # Every plugin of this process (--plugin, the file's, entry points): the workers
        # that train these runs load the same ones.
        plugins=loaded_plugins(),
    )
    # Validate every run now, so bad input fails before anything runs or is written.
    for run in exp.runs:
        exp.run_config(run)
    return exp


def _plugin_list(tree: dict[str, Any], path: Path) -> list[str]:
    value = tree.get("plugins") or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UsageError(f"{path.name}: 'plugins' must be a list of paths or module names")
    return value


# At most this many values in a config once YAML aliases are expanded: the real configs
# hold a few hundred, and an alias bomb (each level referring to the one below ten
# times) would expand to billions when the experiment is printed or copied.
MAX_CONFIG_NODES = 100_000
# An experiment file of the paper is a few KiB; PyYAML reads about a MiB a second, so a
# larger file is a mistake (a data file named as the config) that would parse for minutes.
MAX_CONFIG_BYTES = 1 << 20


class _UniqueKeyLoader(yaml.SafeLoader):
    """PyYAML's safe loader, except that a key given twice in one mapping is an error
    (plain PyYAML keeps the last value without a word). Keys brought in by a merge
    (``<<: *base``) may still be overridden: that is what a merge is for."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
            except TypeError:  # an unhashable key: the base class reports it
                continue
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"duplicate key {key!r} (line {key_node.start_mark.line + 1}); "
                    "give each key once",
                    key_node.start_mark,
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def read_tree(path: str | Path) -> dict[str, Any]:
    """An experiment YAML's top-level mapping, or a one-line UsageError naming the file
    and what is wrong (missing, a directory, over 1 MiB, unreadable, not YAML, a key given
    twice, not a mapping, an alias bomb)."""
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"config file {str(path)!r} is a directory, not a YAML file")
    if path.is_symlink() and not path.exists():
        raise UsageError(
            f"config file {str(path)!r} is a symbolic link to nothing (a loop or a missing target)"
        )
    if not path.is_file():
        raise UsageError(f"config file {str(path)!r} does not exist")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise UsageError(f"config file {str(path)!r} is unreadable ({exc.strerror})") from None
    if size > MAX_CONFIG_BYTES:
        raise UsageError(
            f"config file {str(path)!r} is {size / 2**20:.1f} MiB; an experiment file is at "
            f"most {MAX_CONFIG_BYTES // 2**20} MiB"
        )
    try:
        tree = yaml.load(path.read_text(), Loader=_UniqueKeyLoader)  # a SafeLoader
    except yaml.YAMLError as exc:
        raise UsageError(
            f"config file {str(path)!r} is not valid YAML: {exc}".splitlines()[0]
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise UsageError(f"config file {str(path)!r} is unreadable ({reason})") from None
    if not isinstance(tree, dict):
        raise UsageError(f"config file {str(path)!r} must hold a mapping")
    if _expanded_size(tree, MAX_CONFIG_NODES) > MAX_CONFIG_NODES:
        raise UsageError(
            f"config file {str(path)!r} expands to over {MAX_CONFIG_NODES:,} values "
            "(YAML aliases nested too deep); write the values out"
        )
    return tree


def _expanded_size(tree: Any, limit: int) -> int:
    """How many values ``tree`` holds with shared (aliased) parts counted each time they
    appear, stopping as soon as the count passes ``limit``."""
    count, stack = 0, [tree]
    while stack and count <= limit:
        node = stack.pop()
        count += 1
        if isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count


def _runs(tree: dict[str, Any], path: Path, only: str | None) -> dict[str, dict[str, Any]]:
    runs = tree.get("runs") or {}
    if not isinstance(runs, dict) or not runs:
        raise UsageError(f"{path.name}: 'runs' must be a non-empty mapping of run names")
    runs = {limits.check_name("run name", str(k)): (v or {}) for k, v in runs.items()}
    if only is not None:
        if only not in runs:
            raise UsageError(f"--run {only!r} is not in {path.name}; allowed: {', '.join(runs)}")
        runs = {only: runs[only]}
    for run, keys in runs.items():
        if not isinstance(keys, dict):
            raise UsageError(f"runs.{run} must be a mapping of config keys, got {keys!r}")
    return runs


def _list_hint(value: str) -> str:
    """How to write comma-separated text as the YAML list it was probably meant to be."""
    items = ", ".join(part.strip() for part in value.strip("[]()").split(","))
    return f"write a YAML list, [{items}] (quoted on a command line: --set 'KEY=[{items}]')"


def _axes(tree: dict[str, Any]) -> dict[str, list[Any]]:
    axes = {}
    for key in AXES:
        if key in tree:
            value = tree[key]
            if key == "rho_grid":
                value = _rho_grid(value)
            if isinstance(value, str) and "," in value:
                raise UsageError(
                    f"{key}={value!r} is one string, not a list; "
                    + _list_hint(value).replace("KEY", key)
                )
            if not isinstance(value, list):
                value = [value]
            if not value:
                raise UsageError(f"sweep axis {key!r} is empty")
            axes[key] = value
    if "rhos" in axes and "rho_grid" in axes:
        raise UsageError("sweep axes 'rhos' and 'rho_grid' both set rho; use one")
    return axes
