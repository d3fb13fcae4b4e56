"""Loading a user's components: objectives, encoders, transitions and metrics of their own.

A plugin is a Python file or an importable module whose import registers components with
the usual decorators (``register_objective``, ``register_encoder``,
``register_transition``, ``register_metric``). Three ways to load one, all through
:func:`load`:

- ``lejepa-id run|sweep ... --plugin my_objectives.py`` (a path, or a dotted module name);
- ``plugins: [my_objectives.py]`` in an experiment YAML (paths relative to the file);
- a package's entry point in the group ``lejepa_id.plugins``, loaded by the command line
  at the start of a command that trains (``[project.entry-points."lejepa_id.plugins"]
  name = "pkg.module"``).

User code runs only where asked: commands that read or show (``config show``, dry runs,
``aggregate``, ``report``, ``figures``, ``curves``) load what ``--plugin`` names and
nothing else; a YAML's ``plugins:`` list they meet is refused in one line
(:func:`only_loaded`) rather than executed. The plugins a results folder's runs were
trained with (:func:`recorded`) are named in one line and loaded only with the user's
consent: ``--plugin`` naming them, or ``--recorded-plugins`` (:func:`consent`).

A run records the plugins it was configured with (:attr:`RunSpec.plugins`), and every
executor loads them again in its worker process or cluster job before training, so a
sweep's workers know the same components as the process that planned it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from lejepa_id.errors import UsageError

ENTRY_POINT_GROUP = "lejepa_id.plugins"

_LOADED: dict[str, ModuleType] = {}
# The command that runs no user code but what --plugin named, while it runs (else None).
_REFUSING: list[str] = []
_BUILTINS: list[Callable[[], object]] = []
_builtins_loaded = False


def set_builtins(load: Callable[[], object]) -> None:
    """Name how the package's own components are loaded: ``lejepa_id/__init__.py``, which
    every import of the package runs first and which may import any floor, passes an
    import of them. Nothing is imported here."""
    _BUILTINS.append(load)


def load_builtins() -> None:
    """Load the package's own components: a registry that sits below them (the config's
    objectives) calls this before it is read, so it is complete whatever was imported
    first. Each loader is an import, so a repeat is free, another thread's import in
    progress is waited for, and one in progress on this thread returns at once."""
    global _builtins_loaded
    if _builtins_loaded:
        return
    for load in _BUILTINS:
        load()
    _builtins_loaded = True


def _is_path(spec: str) -> bool:
    return spec.endswith(".py") or "/" in spec or "\\" in spec


def resolve(spec: str, base: str | Path | None = None) -> str:
    """The canonical form of a plugin spec: an absolute file path, or the module name."""
    if not isinstance(spec, str) or not spec.strip():
        raise UsageError(f"plugin {spec!r} must be a path to a .py file or a module name")
    if not _is_path(spec):
        return spec
    path = Path(spec).expanduser()
    if not path.is_absolute() and base is not None:
        path = Path(base) / path
    return str(path.resolve())


def load(spec: str, base: str | Path | None = None) -> ModuleType:
    """Import a plugin once (later calls return the same module); raise a one-line
    UsageError when it does not exist or fails to import."""
    key = resolve(spec, base)
    if key in _LOADED:
        return _LOADED[key]
    if _REFUSING:
        raise UsageError(
            f"plugin {spec!r} was not loaded: {_REFUSING[-1]} runs no user code unless "
            f"asked; pass --plugin {key} to load it"
        )
    if _is_path(key):
        module = _load_file(spec, Path(key))
    else:
        try:
            module = importlib.import_module(key)
        except ModuleNotFoundError as exc:
            raise UsageError(f"plugin {spec!r}: no module named {exc.name!r}") from None
        except UsageError:
            raise
        except SystemExit as exc:
            raise UsageError(_exited(spec, exc)) from None
        except Exception as exc:  # noqa: BLE001 - the user's module, any error
            raise UsageError(f"plugin {spec!r} failed to import: {_one_line(exc)}") from None
    _LOADED[key] = module
    return module


def _load_file(spec: str, path: Path) -> ModuleType:
    if not path.is_file():
        raise UsageError(f"plugin {spec!r}: no such file {str(path)!r}")
    # A stable, unique module name, so spawned workers and pickles agree on it.
    name = "lejepa_id_plugin_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise UsageError(f"plugin {spec!r} is not a Python file")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except UsageError:
        del sys.modules[name]
        raise
    except SystemExit as exc:
        del sys.modules[name]
        raise UsageError(_exited(spec, exc)) from None
    except Exception as exc:  # noqa: BLE001 - the user's file, any error
        del sys.modules[name]
        raise UsageError(f"plugin {spec!r} failed to import: {_one_line(exc)}") from None
    return module


def _exited(spec: str, exc: SystemExit) -> str:
    # A plugin ending the process would end the command with its status and no word.
    return f"plugin {spec!r} called sys.exit({exc.code!r}) while it was imported"


def _one_line(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def load_all(specs: Iterable[str], base: str | Path | None = None) -> tuple[str, ...]:
    """Load every plugin; return their canonical specs (what a run records)."""
    out = []
    for spec in specs:
        load(spec, base)
        out.append(resolve(spec, base))
    return tuple(dict.fromkeys(out))


def load_entry_points() -> tuple[str, ...]:
    """Load the installed packages' plugins (entry point group ``lejepa_id.plugins``)."""
    import importlib.metadata  # here: tens of milliseconds `lejepa-id --help` need not pay

    specs = []
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        load(entry.value)
        specs.append(entry.value)
    return tuple(specs)


def fingerprints(specs: Iterable[str]) -> dict[str, str]:
    """Each loaded plugin's canonical spec -> the sha256 of its source file (what a run
    records, so a resume with a changed plugin is refused); "" where it has no file."""
    out = {}
    for spec in specs:
        module = _LOADED.get(spec)
        path = getattr(module, "__file__", None) if module is not None else None
        if path is None and _is_path(spec):
            path = spec
        try:
            out[spec] = hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else ""
        except OSError:
            out[spec] = ""
    return out


def loaded() -> tuple[str, ...]:
    """The canonical specs of every plugin loaded in this process."""
    return tuple(_LOADED)


@contextmanager
def only_loaded(command: str) -> Iterator[None]:
    """Within, a plugin not loaded yet is refused in one line instead of imported: a
    command that only reads or shows (``command`` names it in the message) runs the
    user code that ``--plugin`` named and nothing a file lists."""
    _REFUSING.append(command)
    try:
        yield
    finally:
        _REFUSING.pop()


def recorded(directory: str | Path) -> tuple[str, ...]:
    """The plugins the runs under ``directory`` were trained with, in the order first met:
    every ``--plugin`` of the sweeps its ``sweep.json`` files recorded, and every plugin a
    run's ``result.json`` lists (a YAML's ``plugins:``, a ``run``). ``directory`` is a
    results root, an experiment's folder or a run's; unreadable files are skipped (the
    table reader names them)."""
    root = Path(directory)
    specs: list[str] = []
    for path in [root / "sweep.json", *sorted(root.glob("*/sweep.json"))]:
        commands = _json(path).get("commands")
        for command in commands if isinstance(commands, list) else []:
            names = command.get("plugins") if isinstance(command, dict) else None
            specs += [n for n in names if isinstance(n, str)] if isinstance(names, list) else []
    for depth in ("", "*/", "*/*/", "*/*/*/"):
        for path in sorted(root.glob(f"{depth}result.json")):
            names = _json(path).get("plugins")
            specs += [n for n in names if isinstance(n, str)] if isinstance(names, dict) else []
    return tuple(dict.fromkeys(specs))


def _json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def consent(args: object, command: str) -> bool:
    """The consent rule of a command that only reads or shows, applied before it runs.

    A results command (``aggregate``, ``figures``, ``report``, ``curves``) whose folder's
    runs were trained with plugins not loaded yet names them in one line on stderr, and
    loads them only under ``--recorded-plugins`` (``--plugin`` loads one by name). Their
    objectives, mixings and metrics are then labelled, coloured and tabled like the
    built-ins; unloaded, they show by their raw names. ``config show --recorded-plugins``
    runs the config's ``plugins:`` list. Returns whether the command may load what its
    files list (``config show`` with the flag)."""
    allowed = bool(getattr(args, "recorded_plugins", False))
    directory = getattr(args, "dir", None)
    if directory is None:
        return allowed
    if not Path(directory).is_dir():
        return False  # the command names a missing folder in its own one line
    missing = [s for s in recorded(directory) if s not in _LOADED]
    if missing and allowed:
        load_all(missing)
    elif missing:
        many = "s" if len(missing) > 1 else ""
        print(
            f"lejepa-id: the runs under {directory} were trained with plugin{many} "
            f"{', '.join(missing)}, not loaded ({command} runs no user code unless asked): "
            f"pass --plugin {missing[0]} or --recorded-plugins to show their components "
            "by their own names",
            file=sys.stderr,
        )
    return False
