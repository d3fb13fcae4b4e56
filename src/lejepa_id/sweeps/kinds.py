"""Experiment kinds: what the generic sweep layers (planner, runner, executors, resume)
need to know about one kind of run, and nothing more.

A kind is named by an experiment YAML's ``kind:`` key (absent: ``synthetic``), by its
specs' ``kind`` attribute and by the ``experiment_kind`` of the records its runs write.
It loads its experiment files and tells, for each expanded run (a *spec*), which runs
may share one stacked model and how many fit in one, how much the run costs, how far
along it is, how to train and save a group, whether a stored result still belongs to the
run, and how to check its records' config. The planner, the runner, the record check,
the tables and ``lejepa-id run`` know a kind through this interface only. The synthetic
worlds and the Reacher pixel experiment are the two built in (the Reacher's is resolved
by name, so importing the sweeps needs no MuJoCo); a plugin adds another with
:func:`register_kind`: one call, nothing else to edit (tests/plugins/coin_kind.py).

A loaded experiment has ``name``, ``description``, ``runs`` (name -> its own keys),
``defaults``, ``overrides``, ``axes`` (sweep key -> values; a key of
:data:`~lejepa_id.config.experiments.AXES` sweeps that field, any other the field of its
name), ``run_config(run)`` and ``expand()``; the sweep's manifest records them. A spec
has ``experiment``, ``run`` (its name in the experiment), ``run_id`` (its folder under the
experiment's), ``axes``, ``plugins`` (component files its worker loads) and a ``config``
with ``to_dict()``, ``seed`` and ``device``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, Protocol

import yaml

from lejepa_id.config.experiments import MAX_CONFIG_BYTES, load_experiment
from lejepa_id.encoders.stacked import encoder_cost
from lejepa_id.errors import UsageError
from lejepa_id.records.validate import register_config_check, synthetic_config_problem
from lejepa_id.sweeps.capacity import member_cap
from lejepa_id.training.saving import train_and_save
from lejepa_id.training.stacking import stack_key


class ExperimentKind(Protocol):
    """The interface of one kind of experiment (see the module docstring)."""

    name: str
    progress_unit: str  # what ``on_eval``'s step counts: "steps", "epochs"
    stacks: bool  # whether runs of one stack_key may train as one stacked model
    feeds_loggers: bool  # whether train_and_save feeds --logger trackers

    def load(self, path: str | Path, sets: list[str] | None, only: str | None = None) -> Any:
        """The experiment of a YAML file (an object with ``name``, ``expand()`` and, when
        it sweeps, ``axes``: sweep key -> values); ``sets`` are ``--set key=value``
        overrides (``seeds=[N]`` among them); ``only`` keeps (and validates) that one
        run, refusing a name the file lacks (``lejepa-id run --run NAME``)."""

    def stack_key(self, spec: Any) -> tuple:
        """Runs with one key may be trained as one stack."""

    def members(self, spec: Any) -> int:
        """Models the run trains (best-of-K initializations count K)."""

    def member_cap(self, spec: Any, device_type: str, jobs: int, device_memory: int | None) -> int:
        """Most members one stack of runs like ``spec`` may hold on ``device_type`` with
        ``jobs`` concurrent groups (read only when :attr:`stacks`)."""

    def cost(self, spec: Any) -> float:
        """Relative wall time, for scheduling and the ETA."""

    def progress_total(self, spec: Any) -> int:
        """The step count at which the run is done, in ``progress_unit``."""

    def check_stored(self, spec: Any, stored: dict[str, Any], path: Path) -> None:
        """Raise UsageError when a finished result in ``path`` is of another run."""

    def config_problem(self, config: dict[str, Any]) -> str | None:
        """Why a record's config (as read from result.json) is not one of this kind's,
        in one line; None when it is."""

    def train_and_save(
        self,
        specs: Sequence[Any],
        root: Path,
        progress: bool = True,
        on_eval: Callable[[int, list[dict[str, float]]], None] | None = None,
        keep: Collection[str] = (),
        loggers: Sequence[str] = (),
    ) -> list[Any]:
        """Train a group and save each run's result under ``root/<run_id>`` (``root``:
        the experiment's folder; except the run ids in ``keep``); return the results
        (RunResult records with this kind's ``experiment_kind``). ``loggers``: the
        ``--logger`` trackers, passed only to a kind that :attr:`feeds_loggers`."""


class SyntheticKind:
    """Runs of :class:`~lejepa_id.config.run.RunConfig`: stacked by
    :func:`~lejepa_id.training.stacking.stack_key`, costed by their encoder."""

    name = "synthetic"
    progress_unit = "steps"
    stacks = True
    feeds_loggers = True

    def load(self, path: str | Path, sets: list[str] | None, only: str | None = None) -> Any:
        return load_experiment(path, sets, only=only)

    def stack_key(self, spec: Any) -> tuple:
        return stack_key(spec.config)

    def members(self, spec: Any) -> int:
        return spec.config.effective_inits

    def member_cap(self, spec: Any, device_type: str, jobs: int, device_memory: int | None) -> int:
        return member_cap(spec.config, device_type, jobs, device_memory)

    def cost(self, spec: Any) -> float:
        # A floor for launch and Python overhead plus the encoder's multiply-adds.
        c = spec.config
        return c.steps * c.effective_inits * (1.0 + encoder_cost(c).work / 1e5)

    def progress_total(self, spec: Any) -> int:
        return spec.config.steps

    def check_stored(self, spec: Any, stored: dict[str, Any], path: Path) -> None:
        return None  # the config comparison of sweeps.state covers everything

    def config_problem(self, config: dict[str, Any]) -> str | None:
        return synthetic_config_problem(config)

    def train_and_save(self, specs, root, progress=True, on_eval=None, keep=(), loggers=()):
        # Loggers only when asked for (--logger): a trainer without them keeps working.
        extra = {"loggers": loggers} if loggers else {}
        return train_and_save(
            specs, root.parent, progress=progress, on_eval=on_eval, keep=keep, root=root, **extra
        )


_KINDS: dict[str, ExperimentKind | str] = {
    "synthetic": SyntheticKind(),
    "reacher": "lejepa_id.reacher.experiment:KIND",
}


def register_kind(kind: ExperimentKind) -> ExperimentKind:
    """Make ``kind`` selectable as ``kind: <its name>`` in an experiment YAML, and its
    records' config checked by its ``config_problem``."""
    _KINDS[kind.name] = kind
    register_config_check(kind.name, kind.config_problem)
    return kind


def get_kind(name: str) -> ExperimentKind:
    """The kind of that name (an unknown name is a one-line UsageError)."""
    if name not in _KINDS:
        raise UsageError(f"kind={name!r} is not one of {', '.join(_KINDS)}")
    kind = _KINDS[name]
    if isinstance(kind, str):
        module, _, attr = kind.partition(":")
        kind = register_kind(getattr(importlib.import_module(module), attr))
    return kind


def kind_of(spec: Any) -> ExperimentKind:
    """The kind of an expanded run (its class's ``kind`` name; synthetic by default)."""
    return get_kind(getattr(spec, "kind", "synthetic"))


def file_kind(path: str | Path) -> str:
    """The ``kind:`` an experiment YAML declares (synthetic when absent or unreadable:
    the synthetic loader then reports the problem with the file)."""
    try:
        if Path(path).stat().st_size > MAX_CONFIG_BYTES:
            return "synthetic"  # refused by the synthetic loader, before a slow parse
        tree = yaml.safe_load(Path(path).read_text())
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        return "synthetic"
    kind = tree.get("kind", "synthetic") if isinstance(tree, dict) else "synthetic"
    return kind if isinstance(kind, str) else str(kind)


def load_any(path: str | Path, sets: list[str] | None = None) -> Any:
    """The experiment of a YAML file, through the loader of the kind it declares."""
    return get_kind(file_kind(path)).load(path, sets)
