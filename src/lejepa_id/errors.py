"""The one exception type the command line turns into a one-line message and exit status 2,
the argument parser whose errors are such a line, and the one duplicate-name rule every
component registry applies."""

import argparse
import sys
from typing import Any


class UsageError(ValueError):
    """Bad user input: a config key, value, file or directory. The message is one line
    naming the offending key or value and what is allowed."""


class WriteError(UsageError):
    """A write a command needed failed (disk full, quota, read-only, a path that is a
    directory): one line naming the path and what the OS said ran out or went wrong.
    Raised only after the partial write was removed, so nothing truncated is left."""


class Terminated(KeyboardInterrupt):
    """SIGTERM (a scheduler's stop, ``kill``): unwinds like Ctrl-C, so every finished
    run stays saved and workers are stopped, but the command exits 143 (128 + 15), the
    status a scheduler expects of a process it terminated, where Ctrl-C exits 130."""


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (``PROG: error: ...``), exit status 2.

    argparse's default prints the usage first; every bad input of this command line
    ends with exactly one line instead, and ``--help`` still shows the usage. It lives
    here, on the ground floor, so that every package with a command line (the proof
    checker's included) uses the same one.
    """

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        sys.exit(2)


def origin(component: Any) -> str:
    """Where a registered class or function comes from, in words: ``built-in
    lejepa_id.objectives.lejepa``, ``plugin /path/p.py`` or ``module pkg.mod``."""
    module_name = getattr(component, "__module__", None) or "?"
    if module_name == "lejepa_id" or module_name.startswith("lejepa_id."):
        return f"built-in {module_name}"
    module = sys.modules.get(module_name)
    path = getattr(module, "__file__", None)
    # plugins.load names a plugin file's module lejepa_id_plugin_<hash>
    if module_name.startswith("lejepa_id_plugin_") and path:
        return f"plugin {path}"
    return f"module {module_name}"


def check_registration(
    kind: str, name: str, existing: Any, new: Any, override: bool, how: str
) -> None:
    """Refuse a second component under one name unless the newcomer asks to override.

    A plugin registering ``lejepa`` would otherwise train another objective under the
    built-in's name, and every record would say ``lejepa``. The same component from the
    same file again (imported afresh, or under another module name) is not a conflict.
    ``how`` is the decorator, for the message (``register_objective``)."""
    if existing is None or existing is new or override:
        return
    if _source(existing) == _source(new):
        return
    raise UsageError(
        f"{kind} {name!r} is registered twice: by {origin(existing)} and by {origin(new)}; "
        f"a component that means to replace it says so ({how}({name!r}, override=True))"
    )


def _source(component: Any) -> tuple[str, str]:
    module_name = getattr(component, "__module__", None) or "?"
    path = getattr(sys.modules.get(module_name), "__file__", None)
    return (path or module_name, getattr(component, "__qualname__", "?"))
