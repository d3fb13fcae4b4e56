"""Experiment trackers fed by the training engine's evaluation hook.

A :class:`Logger` receives, for every trained member (a run, or one of its ``inits``
initializations), a call to :meth:`~Logger.start` before training and one call to
:meth:`~Logger.log` per evaluation with that evaluation's metrics (the same row that
goes into the run's ``curves``); a logger that overrides :meth:`~Logger.log_train` also
gets the training losses and learning rate every :func:`train_log_every` steps (and at
each evaluation), and :meth:`~Logger.finish` gets each member's final metrics once
training is done; then :meth:`~Logger.close` once. ``train(..., loggers=[...])`` takes
any objects with these methods (``log_train`` and ``finish`` optional); the command line
builds them from ``--logger csv|tensorboard|wandb`` with :func:`make_loggers`.

The trackers group what they show by where it comes from: ``train/`` (the loss, the
objective's terms and ``lr``, at the training cadence), ``eval/`` (every evaluation's
metrics) and ``metrics/`` (the final ones, beside the run's config as hyperparameters:
TensorBoard's HParams tab, W&B's summary).

Built in: :class:`CSVLogger` (no dependency). Optional extras:
:class:`TensorBoardLogger` (``pip install 'lejepa-identifiability[tensorboard]'``) and
:class:`WandbLogger` (``[wandb]``; offline when ``WANDB_MODE=offline``). Each writes
under a root folder, one subfolder per run name, which for the command line is the
run's own result folder ``OUT/<experiment>/<run_id>/`` (so ``tensorboard --logdir
OUT/<experiment>`` names each run by its run id).
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
TRAIN_POINTS = 1000
"""About how many training-loss points a run logs (:func:`train_log_every`)."""
TRAIN_KEYS = ("loss", "lr")
"""Keys of an evaluation row that are training quantities (``train/``), besides the
objective's terms, which :meth:`Logger.log_train` names."""


def train_log_every(steps: int) -> int:
    """The training-loss cadence of a ``steps``-step run: every step up to
    :data:`TRAIN_POINTS` steps, then every ``steps // TRAIN_POINTS`` (20 at 20,000
    steps), so a tracker holds about a thousand points per run whatever its length and
    a GPU run reads its losses back only that often."""
    return max(1, steps // TRAIN_POINTS)


def grouped(metrics: Mapping[str, float], train_keys: Collection[str]) -> dict[str, float]:
    """An evaluation row as the trackers show it: ``eval/<key>`` for each finite metric,
    the training quantities (``train_keys``, logged at the training cadence under
    ``train/``) left out, so no value is logged twice at one step."""
    return {
        f"eval/{k}": v
        for k, v in metrics.items()
        if k not in train_keys and k not in TRAIN_KEYS and not math.isnan(v)
    }


def hparams(config: Mapping[str, Any]) -> dict[str, bool | int | float | str]:
    """A run's config as hyperparameters: numbers, strings and booleans as they are,
    anything else (a list, a mapping, None) as its JSON text."""
    import json

    return {
        k: v if isinstance(v, bool | int | float | str) else json.dumps(v, sort_keys=True)
        for k, v in config.items()
    }


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

    def log_train(self, member: Member, step: int, losses: Mapping[str, float]) -> None:
        """The training loss, the objective's terms and ``lr`` of ``member`` after
        ``step`` steps (every :func:`train_log_every` steps and at each evaluation,
        just before its :meth:`log`; non-finite values left out). The trainer reads the
        losses back only for a logger that overrides this."""

    def finish(self, member: Member, metrics: Mapping[str, float]) -> None:
        """Once training is done: ``member``'s final evaluation row (empty for a member
        that diverged), not called when training raised."""

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
    """TensorBoard event files in ``ROOT/<run>/`` itself (``ROOT/<run>/init<k>/`` for
    several inits), so ``tensorboard --logdir ROOT`` names each run by its run id:
    scalars ``train/loss``, ``train/<term>``, ``train/lr`` at the training cadence,
    ``eval/<metric>`` at each evaluation, and the run's config as hyperparameters with
    its final metrics (``metrics/<metric>``, the HParams tab)."""

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
        self.train_keys: dict[Member, set[str]] = {}

    def start(self, member: Member) -> None:
        """A fresh start: ``purge_step=0`` makes the reader drop every event an earlier
        training of this run left in its folder (``run --overwrite``, a retrained run)."""
        self.writers[member] = self._writer(log_dir=str(self._folder(member)), purge_step=0)

    def resume(self, member: Member, step: int) -> None:
        """Continue in the same folder; TensorBoard drops the events a killed run wrote
        after ``step`` (``purge_step``)."""
        self.writers[member] = self._writer(log_dir=str(self._folder(member)), purge_step=step + 1)

    def _folder(self, member: Member) -> Path:
        folder = self.root / member.run
        return folder / f"init{member.init}" if member.inits > 1 else folder

    def log_train(self, member: Member, step: int, losses: Mapping[str, float]) -> None:
        self.train_keys.setdefault(member, set()).update(losses)
        writer = self.writers[member]
        for key, value in losses.items():
            writer.add_scalar(f"train/{key}", value, step)

    def log(self, member: Member, step: int, metrics: Mapping[str, float]) -> None:
        writer = self.writers[member]
        for tag, value in grouped(metrics, self.train_keys.get(member, ())).items():
            writer.add_scalar(tag, value, step)
        writer.flush()

    def finish(self, member: Member, metrics: Mapping[str, float]) -> None:
        """The HParams summary: the config with the final metrics, each also a scalar
        ``metrics/<key>`` at the last step (the tab reads its metric values from them)."""
        from torch.utils.tensorboard.summary import hparams as hparams_summary

        final = {f"metrics/{k}": float(v) for k, v in metrics.items() if math.isfinite(v)}
        writer = self.writers[member]
        experiment, start, end = hparams_summary(hparams(member.config), final)
        for summary in (experiment, start, end):
            writer.file_writer.add_summary(summary)
        step = int(member.config.get("steps", 0) or 0)
        for tag, value in final.items():
            writer.add_scalar(tag, value, step)
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
        self.train_keys: dict[Member, set[str]] = {}

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

    def log_train(self, member: Member, step: int, losses: Mapping[str, float]) -> None:
        self.train_keys.setdefault(member, set()).update(losses)
        self.runs[member].log({f"train/{k}": v for k, v in losses.items()}, step=step)

    def log(self, member: Member, step: int, metrics: Mapping[str, float]) -> None:
        self.runs[member].log(grouped(metrics, self.train_keys.get(member, ())), step=step)

    def finish(self, member: Member, metrics: Mapping[str, float]) -> None:
        """The final metrics as the run's summary (``metrics/<key>``), beside its config."""
        final = {f"metrics/{k}": float(v) for k, v in metrics.items() if math.isfinite(v)}
        self.runs[member].summary.update(final)

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

    @property
    def wants_train(self) -> bool:
        """Whether any logger takes the training losses (overrides ``log_train``): only
        then does the trainer read them back from the device at the cadence."""
        return any(
            logger.wants_train if isinstance(logger, LoggerHub) else _overrides(logger, "log_train")
            for logger in self.loggers
        )

    def log_train(self, member: Member, step: int, losses: Mapping[str, float]) -> None:
        if member.run not in self.skip:
            for logger in self.loggers:
                if _overrides(logger, "log_train"):
                    logger.log_train(member, step, losses)

    def finish(self, member: Member, metrics: Mapping[str, float]) -> None:
        if member.run not in self.skip:
            for logger in self.loggers:
                if _overrides(logger, "finish"):
                    logger.finish(member, metrics)

    def close(self) -> None:
        for logger in self.loggers:
            logger.close()


def _overrides(logger: Any, name: str) -> bool:
    """Whether ``logger`` has a method ``name`` of its own: a :class:`Logger` subclass
    that overrides it, or any other object that has it (a user's duck-typed logger)."""
    method = getattr(type(logger), name, None)
    return method is not None and method is not getattr(Logger, name, None)
