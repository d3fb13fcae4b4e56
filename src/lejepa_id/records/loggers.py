"""Experiment trackers fed by the training engine's evaluation hook.

A :class:`Logger` receives, for every trained member (a run, or one of its ``inits``
initializations), a call to :meth:`~Logger.start` before training and one call to
:meth:`~Logger.log` per evaluation with that evaluation's metrics (the same row that
goes into the run's ``curves``), then :meth:`~Logger.close` once. ``train(...,
loggers=[...])`` takes any objects with these methods; the command line builds them
from ``--logger csv|tensorboard|wandb`` with :func:`make_loggers`.

Built in: :class:`CSVLogger` (no dependency). Optional extras:
:class:`TensorBoardLogger` (``pip install 'lejepa-identifiability[tensorboard]'``) and
:class:`WandbLogger` (``[wandb]``; offline when ``WANDB_MODE=offline``). Each writes
under a root folder, one subfolder per run name, which for the command line is the
run's own result folder ``OUT/<experiment>/<run_id>/``.
"""

from __future__ import annotations

import math
import os
import secrets
import socket
import urllib.parse
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lejepa_id.errors import UsageError
from lejepa_id.records.io import atomic_write_bytes
from lejepa_id.records.result import append_curve_row

LOGGERS = ("csv", "tensorboard", "wandb")
"""The names ``--logger`` accepts."""


@dataclass(frozen=True)
class Member:
    """What a logger is told about one trained member.

    ``run`` is the run's name (its folder under a logger's root; ``run0``, ``run1``, ...
    for unnamed runs of ``train()``), ``init`` which of its ``inits`` initializations
    this is, and ``config`` the run's configuration as a plain dict.
    """

    run: str
    init: int = 0
    inits: int = 1
    config: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def label(self) -> str:
        """``run``, or ``run-init<k>`` when the run trains several initializations."""
        return self.run if self.inits == 1 else f"{self.run}-init{self.init}"


class Logger:
    """The logger interface; subclass it and override what you need (all no-ops)."""

    def start(self, member: Member) -> None:
        """Called once per member before its first step."""

    def resume(self, member: Member, step: int) -> None:
        """Called instead of :meth:`start` when the member continues from a checkpoint
        taken after ``step`` steps: what was logged up to ``step`` is kept, what a killed
        run logged after it is dropped, and logging continues from there. The default
        starts afresh."""
        self.start(member)

    def log(self, member: Member, step: int, metrics: Mapping[str, float]) -> None:
        """One evaluation of ``member`` after ``step`` optimizer steps."""

    def close(self) -> None:
        """Called once after training (also when training raised)."""


class CSVLogger(Logger):
    """``ROOT/<run>/curves.csv`` (``curves-init<k>.csv`` for several inits): one row per
    evaluation, one column per metric, NaN where a metric was not computed.

    The file is rewritten atomically at each evaluation, so it can be read (or
    plotted with ``lejepa-id curves``) while the run trains, and is never half written;
    columns that appear late (the final-only metrics) are added to every row.
    """

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.tables: dict[Member, dict[str, list[float]]] = {}

    def path(self, member: Member) -> Path:
        name = "curves.csv" if member.inits == 1 else f"curves-init{member.init}.csv"
        return self.root / member.run / name

    def start(self, member: Member) -> None:
        self.tables[member] = {}

    def resume(self, member: Member, step: int) -> None:
        """Keep the file's rows up to ``step`` (a killed run's later rows are redone)."""
        table: dict[str, list[float]] = {}
        path = self.path(member)
        if path.is_file():
            for row in _read_csv(path.read_text()):
                if row.get("step", math.inf) <= step:
                    append_curve_row(table, row)
        self.tables[member] = table

    def log(self, member: Member, step: int, metrics: Mapping[str, float]) -> None:
        table = self.tables.setdefault(member, {})
        append_curve_row(table, {"step": step, **metrics})
        atomic_write_bytes(self.path(member), _csv(table).encode())


def _csv(table: Mapping[str, list[float]]) -> str:
    keys = list(table)
    rows = [",".join(keys)]
    for i in range(len(table[keys[0]])):
        rows.append(",".join(_cell(table[k][i]) for k in keys))
    return "\n".join(rows) + "\n"


def _read_csv(text: str) -> list[dict[str, float]]:
    """The rows :func:`_csv` wrote, each value as it was: an int where the cell is an
    integer literal (the step), a float otherwise, NaN for an empty cell."""
    lines = text.splitlines()
    if not lines:
        return []
    keys = lines[0].split(",")
    rows = []
    for line in lines[1:]:
        cells = line.split(",")
        if len(cells) == len(keys):
            rows.append({k: _value(c) for k, c in zip(keys, cells)})
    return rows


def _value(cell: str) -> float:
    if not cell:
        return math.nan
    try:
        return int(cell)
    except ValueError:
        return float(cell)


def _cell(value: float) -> str:
    if isinstance(value, float) and math.isnan(value):
        return ""  # pandas and spreadsheets read an empty cell as missing
    return repr(value)


class TensorBoardLogger(Logger):
    """TensorBoard event files in ``ROOT/<run>/tensorboard/`` (``.../init<k>/`` for
    several inits): one scalar per metric; view with ``tensorboard --logdir ROOT``."""

    def __init__(self, root: str | Path) -> None:
        try:
            from torch.utils.tensorboard import SummaryWriter
        except ImportError:  # torch's writer needs the tensorboard package
            raise UsageError(
                "--logger tensorboard needs the tensorboard package: "
                "pip install 'lejepa-identifiability[tensorboard]'"
            ) from None
        self.root, self._writer = Path(root), SummaryWriter
        self.writers: dict[Member, Any] = {}

    def start(self, member: Member) -> None:
        self.writers[member] = self._writer(log_dir=str(self._folder(member)))

    def resume(self, member: Member, step: int) -> None:
        """Continue in the same folder; TensorBoard drops the events a killed run wrote
        after ``step`` (``purge_step``)."""
        self.writers[member] = self._writer(log_dir=str(self._folder(member)), purge_step=step + 1)

    def _folder(self, member: Member) -> Path:
        folder = self.root / member.run / "tensorboard"
        return folder / f"init{member.init}" if member.inits > 1 else folder

    def log(self, member: Member, step: int, metrics: Mapping[str, float]) -> None:
        writer = self.writers[member]
        for key, value in metrics.items():
            if not math.isnan(value):
                writer.add_scalar(key, value, step)
        writer.flush()

    def close(self) -> None:
        for writer in self.writers.values():
            writer.close()
        self.writers.clear()


class WandbLogger(Logger):
    """One Weights & Biases run per member, named by its label, with the run's config.

    ``project`` defaults to ``lejepa-id`` (``WANDB_PROJECT`` wins if set); W&B's local
    files go to ``ROOT/<run>/`` (``wandb/`` inside it). ``WANDB_MODE=offline`` logs
    without a network or an account (``wandb sync`` uploads later).
    """

    def __init__(self, root: str | Path, project: str | None = None) -> None:
        try:
            import wandb
        except ImportError:
            raise UsageError(
                "--logger wandb needs the wandb package: "
                "pip install 'lejepa-identifiability[wandb]'"
            ) from None
        self.root, self.project, self._wandb = Path(root), project, wandb
        self.runs: dict[Member, Any] = {}

    def start(self, member: Member) -> None:
        self._init(member, secrets.token_hex(4), False)

    def resume(self, member: Member, step: int) -> None:
        """Continue the member's W&B run (its id is kept in its folder), or start one."""
        path = self._id_file(member)
        run_id = path.read_text().strip() if path.is_file() else ""
        if not run_id:
            self.start(member)
            return
        self._init(member, run_id, True)

    def _id_file(self, member: Member) -> Path:
        suffix = "" if member.inits == 1 else f"-init{member.init}"
        return self.root / member.run / f".wandb-id{suffix}"

    def _init(self, member: Member, run_id: str, resume: bool) -> None:
        folder = self.root / member.run
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self._id_file(member), run_id.encode())
        try:
            self.runs[member] = self._wandb.init(
                project=self.project or "lejepa-id",
                name=member.label,
                group=member.run,
                config=dict(member.config),
                dir=str(folder),
                id=run_id,
                resume="allow" if resume else None,
                # Several members of one stacked group log at once from one process.
                reinit="create_new",
                settings=self._wandb.Settings(init_timeout=WANDB_INIT_TIMEOUT_S),
            )
        except Exception as exc:  # noqa: BLE001 - wandb's errors are many; each is one line
            first = f"{type(exc).__name__}: {exc}".splitlines()[0]
            raise UsageError(
                f"--logger wandb could not start a run: {first} "
                "(WANDB_MODE=offline logs without an account or a network)"
            ) from None

    def log(self, member: Member, step: int, metrics: Mapping[str, float]) -> None:
        clean = {k: v for k, v in metrics.items() if not math.isnan(v)}
        self.runs[member].log(clean, step=step)

    def close(self) -> None:
        for run in self.runs.values():
            run.finish()
        self.runs.clear()


def make_loggers(names: Sequence[str], root: str | Path) -> list[Logger]:
    """The loggers ``--logger NAME`` asks for, writing under ``root``; an unknown name
    or a missing optional package is a one-line UsageError."""
    check_loggers(names)
    classes: dict[str, type[CSVLogger | TensorBoardLogger | WandbLogger]] = {
        "csv": CSVLogger,
        "tensorboard": TensorBoardLogger,
        "wandb": WandbLogger,
    }
    # dict.fromkeys: --logger csv --logger csv logs once.
    return [classes[name](root) for name in dict.fromkeys(names)]


def check_loggers(names: Sequence[str]) -> None:
    """Refuse unknown names and missing optional packages before anything is written."""
    for name in names:
        if name not in LOGGERS:
            raise UsageError(f"--logger {name!r} is not one of {', '.join(LOGGERS)}")
        module = {"tensorboard": "tensorboard", "wandb": "wandb"}.get(name)
        if module is not None:
            import importlib.util

            if importlib.util.find_spec(module) is None:
                raise UsageError(
                    f"--logger {name} needs the {module} package: "
                    f"pip install 'lejepa-identifiability[{name}]'"
                )
        if name == "wandb":
            check_wandb()


WANDB_INIT_TIMEOUT_S = 20
"""How long ``wandb.init`` may wait for the W&B service before the run is refused."""
WANDB_MODES = ("online", "offline", "disabled", "dryrun", "run", "shared")
WANDB_HOST = "api.wandb.ai"


def check_wandb(env: Mapping[str, str] | None = None) -> None:
    """What ``--logger wandb`` needs, checked before anything is trained or written: a
    known ``WANDB_MODE``; when online, an API key and a reachable service (a few
    seconds at most, never W&B's own minutes of retries)."""
    env = os.environ if env is None else env
    mode = env.get("WANDB_MODE", "online").strip().lower() or "online"
    if mode not in WANDB_MODES:
        raise UsageError(f"WANDB_MODE={mode!r} is not one of {', '.join(WANDB_MODES)}")
    if mode not in ("online", "run", "shared"):
        return
    offline = "; set WANDB_MODE=offline to log without an account or a network"
    if not env.get("WANDB_API_KEY") and not _netrc_has_key(env):
        raise UsageError(
            f"--logger wandb: no W&B API key (WANDB_API_KEY or `wandb login`){offline}"
        )
    host = urllib.parse.urlsplit(env.get("WANDB_BASE_URL", f"https://{WANDB_HOST}"))
    try:
        socket.create_connection((host.hostname or WANDB_HOST, host.port or 443), timeout=5).close()
    except OSError as exc:
        raise UsageError(f"--logger wandb: cannot reach {host.geturl()} ({exc}){offline}") from None


def _netrc_has_key(env: Mapping[str, str]) -> bool:
    import netrc

    path = env.get("NETRC") or str(Path.home() / ".netrc")
    host = urllib.parse.urlsplit(env.get("WANDB_BASE_URL", f"https://{WANDB_HOST}")).hostname
    try:
        entry = netrc.netrc(path).authenticators(host or WANDB_HOST)
    except (OSError, netrc.NetrcParseError):
        return False
    return bool(entry and entry[2])


class LoggerHub(Logger):
    """Fans one member's events out to several loggers, skipping the runs in ``skip``
    (members of a resumed group whose results are already saved)."""

    def __init__(self, loggers: Sequence[Logger], skip: Collection[str] = ()) -> None:
        self.loggers, self.skip = list(loggers), set(skip)

    def start(self, member: Member) -> None:
        if member.run not in self.skip:
            for logger in self.loggers:
                logger.start(member)

    def resume(self, member: Member, step: int) -> None:
        if member.run not in self.skip:
            for logger in self.loggers:
                if hasattr(logger, "resume"):
                    logger.resume(member, step)
                else:  # a user's logger without resume() starts afresh
                    logger.start(member)

    def log(self, member: Member, step: int, metrics: Mapping[str, float]) -> None:
        if member.run not in self.skip:
            for logger in self.loggers:
                logger.log(member, step, metrics)

    def close(self) -> None:
        for logger in self.loggers:
            logger.close()
