"""Files the package ships beside its code: the paper's experiment configs and the Coq
sources of the proofs.

The repository keeps one copy of each, ``configs/*.yaml`` and ``formal/``; building a
wheel copies them into the package as ``lejepa_id/_bundled/configs`` and
``lejepa_id/_bundled/formal`` (``setup.py``), so they cannot drift apart. A source
checkout (an editable install, or ``PYTHONPATH=src``) reads the repository's own
folders; an installed wheel reads its bundled copy.
"""

from __future__ import annotations

from pathlib import Path

from lejepa_id.errors import UsageError

BUNDLED = Path(__file__).resolve().parent / "_bundled"
"""Where a built wheel holds the copies (absent in a source checkout)."""
_CHECKOUT = Path(__file__).resolve().parents[2]
"""The repository root when the package runs from its ``src/`` folder."""
KINDS = ("configs", "formal")


def shipped_dir(kind: str) -> Path:
    """The folder of ``configs`` or ``formal``: the source checkout's, else the wheel's
    bundled copy (which may not exist: the caller reports a missing file)."""
    if kind not in KINDS:
        raise ValueError(f"shipped_dir({kind!r}): not one of {', '.join(KINDS)}")
    checkout = _CHECKOUT / kind
    if (_CHECKOUT / "src" / "lejepa_id").is_dir() and checkout.is_dir():
        return checkout
    return BUNDLED / kind


def paper_configs() -> dict[str, Path]:
    """The shipped experiment configs by name (the file name without ``.yaml``)."""
    folder = shipped_dir("configs")
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))}


def resolve_config(value: str | Path) -> Path:
    """An experiment config given as a path or as a shipped config's name (``2d``,
    ``scaling``): an existing file wins; otherwise a bare name is looked up among the
    shipped configs. Anything else is a one-line UsageError naming what exists."""
    path = Path(value)
    if path.is_file():
        return path
    text = str(value)
    known = paper_configs()
    name = text[: -len(".yaml")] if text.endswith(".yaml") else text
    # A bare name, or the README's configs/NAME.yaml run from outside a checkout.
    if name.removeprefix("configs/") in known and "/" not in name.removeprefix("configs/"):
        return known[name.removeprefix("configs/")]
    if path.is_dir():
        raise UsageError(f"config file {text!r} is a directory")
    if path.is_symlink():
        raise UsageError(
            f"config file {text!r} is a symbolic link to nothing (a loop or a missing target)"
        )
    raise UsageError(
        f"config file {text!r} does not exist; the paper's configs by name: {', '.join(known)}"
    )


def config_spelling(value: str | Path) -> str:
    """How a command that reruns a config names it: a shipped config by its name (which
    resolves from any folder and from the wheel), any other file by its absolute path."""
    path = resolve_config(value).resolve()
    for name, shipped in paper_configs().items():
        if shipped.resolve() == path:
            return name
    return str(path)
