"""Command-line arguments shared by the commands that train."""

from __future__ import annotations

import argparse


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """--set, --device and --no-progress, shared by the commands that train."""
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
    p.add_argument(
        "--device",
        choices=["auto", "cpu", "cuda"],
        default=None,
        help="device to train on (default: the config's, normally auto)",
    )
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
