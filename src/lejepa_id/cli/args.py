"""Command-line arguments shared by the commands that train, and the parser class."""

from __future__ import annotations

import argparse
import os

THREADS_HELP = (
    "CPU threads for torch: a number, or auto (default) to choose by model size: one "
    "thread for small models, which keeps a run fast on a busy machine. Also settable "
    "by the LEJEPA_ID_THREADS environment variable; OMP_NUM_THREADS is respected."
)


def add_threads_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--threads", default=None, metavar="N|auto", help=THREADS_HELP)


def apply_threads_argument(args: argparse.Namespace) -> None:
    """Validate --threads and pass it on through the environment, which sweep workers
    inherit; training reads it (lejepa_id.training.threads). Bad values raise UsageError."""
    value = getattr(args, "threads", None)
    if value is None:
        return  # before the import below: it loads torch, which a command may not need
    from lejepa_id.training.threads import ENV_VAR, parse_threads

    n = parse_threads(value, "--threads")
    os.environ[ENV_VAR] = "auto" if n is None else str(n)


def device_name(text: str) -> str:
    """``--device``'s type: the one device rule of :mod:`lejepa_id.runtime.devices`."""
    from lejepa_id.errors import UsageError
    from lejepa_id.runtime.devices import check_device

    try:
        return check_device(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class DeviceChoices(list):
    """The names shell completion offers for ``--device`` (auto, cpu, cuda); any name
    :func:`device_name` accepts (cuda:1 too) is a member."""

    def __init__(self) -> None:
        super().__init__(["auto", "cpu", "cuda"])

    def __contains__(self, name: object) -> bool:
        from lejepa_id.runtime.devices import is_cuda

        return name in ("auto", "cpu") or (isinstance(name, str) and is_cuda(name))


def add_device_argument(p: argparse.ArgumentParser, default: str | None, help: str) -> None:
    """--device NAME: auto, cpu, cuda or cuda:N, checked by the shared rule."""
    p.add_argument(
        "--device", type=device_name, choices=DeviceChoices(), default=default, help=help
    )


def add_pace_from_argument(p: argparse.ArgumentParser) -> None:
    """--pace-from SOURCE: project a dry run on another device from its measured paces
    (lejepa_id.sweeps.stated; read only by the dry run, checked there)."""
    p.add_argument(
        "--pace-from",
        default=None,
        metavar="SOURCE",
        help="with --dry-run: project on another device from the paces a benchmark "
        "measured there, a JSON of benchmarks/bench_train.py or bench_sweeps.py rows "
        "(e.g. benchmarks/results/h200-2026-11-30/bench_train_cuda.json), Reacher rows "
        "(benchmarks/results/reacher-pace-cpu-2026-12-03.json) or a shipped table: h200",
    )


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """--set, --device, --threads and --no-progress, shared by the commands that train."""
    p.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a config key; VALUE is YAML (a number, string or list). "
        "A run key (e.g. steps=2000) applies to every run, an experiment "
        "key (seeds, runs, ...) replaces it, a dotted path (runs.NAME.lam) "
        "sets one leaf; sweep axes too, e.g. --set 'dims=[2,4]'. Repeatable.",
    )
    add_device_argument(p, None, "device to train on (default: the config's, normally auto)")
    add_threads_argument(p)
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.add_argument(
        "--logger",
        dest="loggers",
        action="append",
        default=[],
        choices=["csv", "tensorboard", "wandb"],
        help="also log every evaluation to a tracker, in each run's folder: csv "
        "(curves.csv), tensorboard (event files in the run's folder: train/, eval/, "
        "metrics/ and hparams; needs the [tensorboard] extra) or "
        "wandb (needs the [wandb] extra; WANDB_MODE=offline works without an account). "
        "Repeatable.",
    )
    add_plugin_argument(p)


def add_recorded_plugins_argument(p: argparse.ArgumentParser, where: str) -> None:
    """--recorded-plugins: consent to run the plugins ``where`` names (a results folder's
    sweeps, a config's ``plugins:`` list), which a command that only reads or shows
    otherwise names in one line and leaves unloaded (lejepa_id.plugins.consent)."""
    p.add_argument(
        "--recorded-plugins",
        action="store_true",
        help=f"also load the plugins {where} (they are your code: without this flag they "
        "are named, not run)",
    )


def add_plugin_argument(p: argparse.ArgumentParser) -> None:
    """--plugin: a user's component module, loaded before the config is read."""
    p.add_argument(
        "--plugin",
        dest="plugins",
        action="append",
        default=[],
        metavar="FILE_OR_MODULE",
        help="load a Python file or module that registers objectives, encoders, "
        "transitions or metrics of your own, so the config can name them; repeatable",
    )
