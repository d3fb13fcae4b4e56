"""Subcommand ``config show``: the resolved configuration of a run or of a sweep.

It prints, as YAML, what ``run`` or ``sweep`` would train after the file's defaults,
the run's own keys, the sweep axes and every ``--set`` are applied, one entry per
expanded run (its run id, the folder name under ``OUT/<experiment>/``). Nothing is
trained or written, and no user code runs but what ``--plugin`` names: a file's
``plugins:`` list is refused in one line, not executed.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

from lejepa_id.cli.args import add_plugin_argument, add_recorded_plugins_argument


def cmd_config_show(args: argparse.Namespace) -> int:
    print(resolved_yaml(args.config, list(args.sets), args.run, args.seed), end="")
    return 0


def resolved_yaml(
    config: str, sets: list[str], run: str | None = None, seed: int | None = None
) -> str:
    """The YAML text ``config show`` prints (see the module docstring)."""
    import yaml  # here: `lejepa-id --help` imports this module and needs no YAML

    from lejepa_id.config.experiments import load_experiment
    from lejepa_id.errors import UsageError
    from lejepa_id.resources import resolve_config
    from lejepa_id.sweeps.kinds import file_kind, load_any

    exp: Any
    path = resolve_config(config)
    if file_kind(path) != "synthetic":  # a Reacher grid, or a plug-in kind
        exp = load_any(path, sets)
        if run is not None and run not in exp.runs:
            raise UsageError(
                f"run {run!r} is not in experiment {exp.name}; allowed: {', '.join(exp.runs)}"
            )
    else:
        exp = load_experiment(path, sets, only=run)
    if seed is not None:
        exp = dataclasses.replace(exp, axes={**exp.axes, "seeds": [seed]})
    specs = [s for s in exp.expand() if run is None or s.run == run]
    body = {
        "experiment": exp.name,
        "runs": {spec.run_id: _plain(spec.config.to_dict()) for spec in specs},
    }
    head = f"# {len(specs)} run{'s' if len(specs) != 1 else ''} of {config}"
    if sets:
        head += " with " + " ".join(f"--set {s}" for s in sets)
    return head + "\n" + yaml.safe_dump(body, sort_keys=False, default_flow_style=False)


def _plain(value: Any) -> Any:
    """Tuples and numpy scalars as plain YAML lists and numbers."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    return value


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``config show`` to the main parser."""
    p = sub.add_parser(
        "config",
        help="print the resolved configuration of a run or a sweep",
        description="Inspect experiment configs without training anything.",
    )
    inner = p.add_subparsers(dest="config_command", metavar="SUBCOMMAND")
    inner.required = True
    show = inner.add_parser(
        "show",
        help="print the resolved YAML of every run (or one) of an experiment",
        description="Print, as YAML, each expanded run's full configuration after the "
        "file's defaults, the run's keys, the sweep axes and every --set: what run or "
        "sweep would train. Nothing is trained or written, and no plugin runs unless "
        "--plugin names it (a file's plugins: list is refused, not executed).",
    )
    show.add_argument("config", help="experiment YAML or a paper config's name (2d, scaling, ...)")
    show.add_argument("--run", default=None, help="only this run name of the config's 'runs'")
    show.add_argument("--seed", type=int, default=None, help="only this seed (as run --seed)")
    show.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a config key, as for run and sweep; repeatable",
    )
    add_plugin_argument(show)
    add_recorded_plugins_argument(show, "that the config's plugins: list names")
    show.set_defaults(func=cmd_config_show)
