"""Fault census: bad inputs and injected faults across the CLI and the Python API.

Every case is classified as

- clean: refused with one line (``lejepa-id: error: ...`` and exit 2, or one
  ``UsageError`` line from the API), or, for a corrupt result read by ``aggregate`` /
  ``report``, named as skipped with its reason and left out of the table, or, for a
  corrupt run on resume, not counted as done;
- traceback: an exception other than UsageError escaped, or the output held one;
- nonsense: accepted without a word (exit 0 and the bad file not named, a bad value
  trained on, a corrupt run counted as done);
- partial write: files left behind by a refusal (a temporary, a truncated PNG, a
  runs.csv that disagrees with runs.parquet, anything new in a directory a refused
  command must not have touched).

Run (about ten minutes on two busy cores; no GPU)::

    PYTHONPATH=src python benchmarks/fault_census.py [--json OUT.json]

It prints one line per category and the counts. Cases that fall outside "clean" are
listed by name.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import hashlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from lejepa_id.cli.main import main
from lejepa_id.config.limits import INT_RANGES
from lejepa_id.config.run import RunConfig, _allowed_types, run_keys
from lejepa_id.errors import UsageError
from lejepa_id.records.result import RunResult

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "configs" / "2d.yaml"
FAST = ["steps=12", "eval_size=300", "scatter=50", "device=cpu", "eval_every=6",
        "eval_every_early=3", "early_until=6", "hidden=16", "num_directions=16"]  # fmt: skip

RESULTS: list[dict] = []


def record(category: str, name: str, outcome: str, detail: str = "") -> None:
    RESULTS.append({"category": category, "case": name, "outcome": outcome, "detail": detail})


def snapshot(root: Path) -> dict[str, str]:
    if not root.exists():
        return {}
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def cli(argv: list[str]) -> tuple[int, str, str, BaseException | None]:
    out, err = io.StringIO(), io.StringIO()
    exc: BaseException | None = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse
            code = int(stop.code or 0)
        except Exception as caught:  # noqa: BLE001 - a traceback is what we count
            code, exc = -1, caught
    return code, out.getvalue(), err.getvalue(), exc


def refusal(category: str, name: str, argv: list[str], watch: Path) -> None:
    """A command that must refuse: exit 2, one line, nothing under ``watch`` changed."""
    before = snapshot(watch)
    existed = watch.exists()
    code, _out, err, exc = cli(argv)
    lines = [line for line in err.strip().splitlines() if line]
    if exc is not None or "Traceback" in err:
        record(category, name, "traceback", repr(exc) if exc else err[-300:])
    elif code == 0:
        record(category, name, "nonsense", "accepted")
    elif snapshot(watch) != before or (watch.exists() and not existed):
        record(category, name, "partial", "files changed by a refused command")
    elif code == 2 and len(lines) == 1 and lines[0].startswith(("lejepa-id: error:", "usage:")):
        record(category, name, "clean", lines[0])
    elif code == 2 and len(lines) == 2 and lines[0].startswith("usage:"):
        record(category, name, "clean", lines[1])  # argparse: usage line + one error line
    else:
        record(category, name, "traceback", f"exit {code}: {err[-300:]}")


# --- A. bad config values through `run --set` ------------------------------------------

BAD = {
    int: ["abc", "[1, 2]", "{a: 1}", "true", "1.5", "1e30"],
    float: ["abc", "nan", "inf", "[]", "{a: 1}", "true"],
    str: ["123", "no-such-name", "[a]", "{a: 1}", "true", "''"],
}


def bad_values(key: str, kind: type) -> list[str]:
    """The bad values tried for ``key``. A threshold that is unbounded above on purpose
    (config/limits.py: a huge one means "never") is tried one below its minimum instead
    of at 1e30, which it rightly accepts."""
    values = BAD[kind]
    low, high = INT_RANGES.get(key, (None, 0))
    if kind is int and high is None and low is not None:
        values = [v for v in values if v != "1e30"] + [str(low - 1)]
    return values


def config_cases(tmp: Path) -> None:
    out = tmp / "config-out"
    for key in run_keys():
        kind = next(t for t in (str, int, float) if t in _allowed_types(key))
        for value in bad_values(key, kind):
            sets = [f"--set={s}" for s in FAST] + [f"--set={key}={value}"]
            argv = ["run", str(CONFIG), "--run", "spiral_lejepa", "--seed", "0",
                    "--out", str(out), "--no-progress", *sets]  # fmt: skip
            refusal("config value", f"{key}={value}", argv, out)


# --- B. odd paths and files ----------------------------------------------------------


def path_cases(tmp: Path) -> None:
    base = tmp / "paths"
    base.mkdir()
    a_file = base / "a_file"
    a_file.write_text("x")
    run = ["--run", "spiral_lejepa", "--seed", "0", "--no-progress"]
    sweep_sets = [f"--set={s}" for s in FAST] + ["--set=runs=[spiral_lejepa]", "--set=seeds=[0]"]
    configs = {
        "missing": base / "missing.yaml",
        "directory": base,
        "empty": base / "empty.yaml",
        "binary": base / "binary.yaml",
        "a list": base / "list.yaml",
        "bad yaml": base / "bad.yaml",
        "alias bomb": base / "bomb.yaml",
        "unknown key": base / "unknown.yaml",
        "no runs": base / "noruns.yaml",
        "runs a list": base / "runslist.yaml",
        "run name with slash": base / "slash.yaml",
        "run not a mapping": base / "runnotmap.yaml",
    }
    (base / "empty.yaml").write_text("")
    (base / "binary.yaml").write_bytes(os.urandom(300))
    (base / "list.yaml").write_text("- a\n- b\n")
    (base / "bad.yaml").write_text("runs: {a: [\n")
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    levels += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    (base / "bomb.yaml").write_text(
        "name: bomb\ndescription:\n  " + "\n  ".join(levels) + "\nruns:\n  spiral_lejepa: {}\n"
    )
    (base / "unknown.yaml").write_text("nmae: x\nruns:\n  spiral_lejepa: {}\n")
    (base / "noruns.yaml").write_text("name: x\n")
    (base / "runslist.yaml").write_text("runs: [a, b]\n")
    (base / "slash.yaml").write_text("runs:\n  a/b: {}\n")
    (base / "runnotmap.yaml").write_text("runs:\n  spiral_lejepa: 3\n")
    out = base / "out"
    for name, path in configs.items():
        refusal("path", f"run config {name}", ["run", str(path), *run, "--out", str(out)], out)
        refusal("path", f"sweep config {name}",
                ["sweep", str(path), "--out", str(out), "--no-progress"], out)  # fmt: skip
    outs = {
        "out is a file": a_file,
        "out under a file": a_file / "sub",
        "256-byte name": base / ("n" * 256),
        "path over 4096 bytes": base.joinpath(*(["p" * 200] * 21)),
    }
    for name, target in outs.items():
        for cmd in ("run", "sweep"):
            extra = run if cmd == "run" else ["--no-progress", *sweep_sets]
            argv = [cmd, str(CONFIG), "--out", str(target), *extra]
            refusal("path", f"{cmd} --out {name}", argv, base)
    # Run folders in the way.
    for name, make in {
        "run folder is a file": lambda r: r.write_text("x"),
        "result.json is a directory": lambda r: (r / "result.json").mkdir(parents=True),
        "weights is a directory": lambda r: (r / "weights.safetensors").mkdir(parents=True),
    }.items():
        o = base / f"o-{len(RESULTS)}"
        (o / "2d").mkdir(parents=True)
        make(o / "2d" / "spiral_lejepa-seed0")
        argv = ["sweep", str(CONFIG), "--out", str(o), "--jobs", "1", *sweep_sets, "--no-progress"]
        refusal("path", f"sweep: {name}", argv, o)
    for cmd in ("aggregate", "figures", "report"):
        refusal("path", f"{cmd} target missing", [cmd, str(base / "nope")], base)
        refusal("path", f"{cmd} target is a file", [cmd, str(a_file)], base)
    refusal("path", "figures bad --formats", ["figures", str(base), "--formats", "gif"], base)
    refusal("path", "report --out a directory", ["report", str(base), "--out", str(base)], base)
    refusal("path", "aggregate --out a file", ["aggregate", str(base), "--out", str(a_file)], base)


# --- C/F. corrupt and hand-edited results ------------------------------------------------


def fake_run(root: Path, run_id: str, r2: float, seed: int) -> Path:
    cfg = RunConfig(seed=seed, scatter=20)
    m = {"r2_hz": r2, "r2_zh": r2, "orth_err": 1 - r2, "approx_bound": 0.5}
    res = RunResult(config=cfg, metrics=m, losses={"loss": 0.1}, name=run_id)
    res.weights = {"w": torch.full((4, 4), r2)}
    gen = torch.Generator().manual_seed(seed)
    res.scatter = {k: torch.randn(20, 2, generator=gen) for k in "zxh"}
    return res.save(root / "2d" / run_id).parent


def _edit(run: Path, change: Callable[[dict], None]) -> None:
    data = json.loads((run / "result.json").read_text())
    change(data)
    (run / "result.json").write_text(json.dumps(data))


CORRUPTIONS: dict[str, Callable[[Path], None]] = {
    "weights truncated": lambda r: (r / "weights.safetensors").write_bytes(
        (r / "weights.safetensors").read_bytes()[:40]
    ),
    "weights random": lambda r: (r / "weights.safetensors").write_bytes(os.urandom(200)),
    "weights missing": lambda r: (r / "weights.safetensors").unlink(),
    "weights empty": lambda r: (r / "weights.safetensors").write_bytes(b""),
    "scatter replaced": lambda r: (r / "scatter.safetensors").write_bytes(b"{}"),
    "scatter missing": lambda r: (r / "scatter.safetensors").unlink(),
    "metric NaN": lambda r: _edit(r, lambda d: d["metrics"].update(r2_hz=float("nan"))),
    "metric string": lambda r: _edit(r, lambda d: d["metrics"].update(r2_hz="0.9")),
    "metric null": lambda r: _edit(r, lambda d: d["metrics"].update(r2_hz=None)),
    "metric list": lambda r: _edit(r, lambda d: d["metrics"].update(r2_hz=[0.9])),
    "metric bool": lambda r: _edit(r, lambda d: d["metrics"].update(r2_hz=True)),
    "metric missing": lambda r: _edit(r, lambda d: d["metrics"].pop("r2_hz")),
    "metric added": lambda r: _edit(r, lambda d: d["metrics"].update(extra=1.0)),
    "metrics missing": lambda r: _edit(r, lambda d: d.pop("metrics")),
    "metrics a list": lambda r: _edit(r, lambda d: d.update(metrics=[1, 2])),
    "dim abc": lambda r: _edit(r, lambda d: d["config"].update(dim="abc")),
    "alpha a list": lambda r: _edit(r, lambda d: d["config"].update(alpha=[1])),
    "mode a number": lambda r: _edit(r, lambda d: d["config"].update(mode=3)),
    "empty config": lambda r: _edit(r, lambda d: d.update(config={}, metrics=None)),
    "config a string": lambda r: _edit(r, lambda d: d.update(config="x")),
    "config lacks mode": lambda r: _edit(r, lambda d: d["config"].pop("mode")),
    "status bogus": lambda r: _edit(r, lambda d: d.update(status="done")),
    "files tampered": lambda r: _edit(r, lambda d: d["files"].update(extra="0" * 64)),
    "result truncated": lambda r: (r / "result.json").write_text(
        (r / "result.json").read_text()[:50]
    ),
    "result garbage": lambda r: (r / "result.json").write_bytes(os.urandom(100)),
    "result empty": lambda r: (r / "result.json").write_text(""),
    "result a list": lambda r: (r / "result.json").write_text("[1, 2]"),
}


def corrupt_cases(tmp: Path) -> None:
    from lejepa_id.config.experiments import load_experiment
    from lejepa_id.sweeps.state import partition

    exp = load_experiment(CONFIG, [*FAST, "runs=[spiral_lejepa]", "seeds=[0,1,2]"])
    specs = exp.expand()
    for i, (name, corrupt) in enumerate(CORRUPTIONS.items()):
        root = tmp / f"corrupt-{i}"
        for seed in range(3):
            fake_run(root, f"spiral_lejepa-seed{seed}", 0.9 + seed / 100, seed)
        bad = root / "2d" / "spiral_lejepa-seed1"
        corrupt(bad)
        _done, todo, _notes = partition(specs, root / "2d")
        ok = [s.run_id for s in todo] == ["spiral_lejepa-seed1"]
        record("resume", name, "clean" if ok else "nonsense", str([s.run_id for s in todo]))
        for cmd in ("aggregate", "report"):
            code, _out, err, exc = cli([cmd, str(root)])
            if exc is not None or "Traceback" in err:
                record("reader", f"{cmd}: {name}", "traceback", repr(exc))
                continue
            named = f"skipped {bad / 'result.json'}" in err and "1 result file(s) skipped" in err
            table = pd.read_csv(root / "runs.csv")
            left_out = sorted(table["run_id"]) == ["spiral_lejepa-seed0", "spiral_lejepa-seed2"]
            outcome = "clean" if code == 0 and named and left_out else "nonsense"
            record("reader", f"{cmd}: {name}", outcome, err.strip().splitlines()[0])
        shutil.rmtree(root)


# --- D. disk full at every write ------------------------------------------------------


@contextlib.contextmanager
def fsync_fails_at(k: int):
    """The k-th fsync from now raises ENOSPC (every atomic write fsyncs its temporary)."""
    real, count = os.fsync, [0]

    def fsync(fd: int) -> None:
        count[0] += 1
        if count[0] == k:
            raise OSError(
                errno.ENOSPC, os.strerror(errno.ENOSPC), os.readlink(f"/proc/self/fd/{fd}")
            )
        real(fd)

    os.fsync = fsync
    try:
        yield count
    finally:
        os.fsync = real


def partial_problems(root: Path) -> list[str]:
    problems = [str(p) for p in root.rglob(".*") if p.name.endswith((".tmp", ".bak"))]
    import matplotlib.image

    for png in root.rglob("*.png"):
        try:
            matplotlib.image.imread(png)
        except Exception:  # noqa: BLE001 - a truncated PNG
            problems.append(str(png))
    csv, parquet = root / "runs.csv", root / "runs.parquet"
    if csv.exists() != parquet.exists():
        problems.append("runs.csv without runs.parquet")
    elif csv.exists():
        a, b = pd.read_csv(csv), pd.read_parquet(parquet)
        if len(a) != len(b) or list(a["run_id"]) != list(b["run_id"]):
            problems.append("runs.csv and runs.parquet disagree")
    return problems


def disk_full_cases(tmp: Path) -> None:
    template = tmp / "df-template"
    for seed in range(3):
        fake_run(template, f"spiral_lejepa-seed{seed}", 0.9 + seed / 100, seed)
    assert cli(["aggregate", str(template)])[0] == 0
    fake_run(template, "spiral_lejepa-seed3", 0.5, 3)  # the next table differs
    for cmd in ("aggregate", "figures", "report"):
        k = 1
        while True:
            root = tmp / f"df-{cmd}-{k}"
            shutil.copytree(template, root)
            before = snapshot(root)
            with fsync_fails_at(k) as count:
                code, _out, err, exc = cli([cmd, str(root)])
            name = f"{cmd}: write {k} fails"
            if count[0] < k:  # fewer writes than k: every write was tried
                shutil.rmtree(root)
                break
            lines = err.strip().splitlines()
            problems = partial_problems(root)
            changed = [p for p, h in before.items() if snapshot(root).get(p) != h]
            if exc is not None or "Traceback" in err:
                record("disk full", name, "traceback", repr(exc))
            elif problems or (cmd == "aggregate" and changed):
                record("disk full", name, "partial", "; ".join(problems + changed))
            elif code == 2 and len(lines) >= 1 and "No space left on device" in lines[-1]:
                clean = len([ln for ln in lines if ln.startswith("lejepa-id: error")]) == 1
                record("disk full", name, "clean" if clean else "traceback", lines[-1])
            else:
                record("disk full", name, "nonsense", f"exit {code}")
            shutil.rmtree(root)
            k += 1
    for k in (1, 2, 3):  # weights, scatter, result.json of `run`
        out = tmp / f"df-run-{k}"
        argv = ["run", str(CONFIG), "--run", "spiral_lejepa", "--seed", "0", "--out", str(out),
                "--no-progress", *[f"--set={s}" for s in FAST]]  # fmt: skip
        with fsync_fails_at(k):
            code, _out, err, exc = cli(argv)
        run = out / "2d" / "spiral_lejepa-seed0"
        problems = partial_problems(out)
        if exc is not None:
            record("disk full", f"run: write {k} fails", "traceback", repr(exc))
        elif problems or (run / "result.json").exists():
            record("disk full", f"run: write {k} fails", "partial", "; ".join(problems))
        else:
            ok = code == 2 and len(err.strip().splitlines()) == 1
            record("disk full", f"run: write {k} fails", "clean" if ok else "nonsense", err)


# --- E. the Python API ---------------------------------------------------------------


def api(category: str, name: str, call: Callable[[], object]) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call()
    except UsageError as exc:
        one = "\n" not in str(exc)
        record(category, name, "clean" if one else "traceback", str(exc)[:200])
    except Exception as exc:  # noqa: BLE001
        record(category, name, "traceback", f"{type(exc).__name__}: {exc}"[:200])
    else:
        record(category, name, "nonsense", "accepted")


def api_cases() -> None:
    from lejepa_id.training.saving import load_encoder
    from lejepa_id.training.trainer import train
    from lejepa_id.worlds.world import World

    mixings = {
        "wrong shape": lambda z: z.sum(-1),
        "numpy": lambda z: np.asarray(z),
        "float16": lambda z: z.half(),
        "bfloat16": lambda z: z.bfloat16(),
        "int": lambda z: z.int(),
        "bool": lambda z: z > 0,
        "complex": lambda z: z.to(torch.complex64),
        "nan": lambda z: z * float("nan"),
        "inf": lambda z: z / 0.0,
        "raises": lambda z: 1 / 0,
        "returns None": lambda z: None,
        "scalar": lambda z: z.sum(),
        "flattens views": lambda z: z.reshape(-1, z.shape[-1]),
        "list": lambda z: z.tolist(),
    }
    for name, fn in mixings.items():
        api("user world", f"World.make mixing {name}", lambda fn=fn: World.make(fn, dim=2))
    tiny = dict(steps=2, eval_size=300, device="cpu", hidden=16, num_directions=16)
    cfg = RunConfig(**tiny)
    for name, worlds in {"a string": "spiral", "a list of strings": ["spiral"], "an int": 3,
                         "a dict": {"a": 1}}.items():  # fmt: skip
        api("user world", f"train worlds {name}", lambda w=worlds: train(cfg, worlds=w))
    for name, weights in {"foreign": {"x": torch.zeros(3)}, "a path": "w.safetensors",
                          "wrong shapes": {"net.0.weight": torch.zeros(1, 1)}}.items():  # fmt: skip
        api("api", f"load_encoder {name}", lambda w=weights: load_encoder(cfg, w))
    for name, configs in {"nothing": [], "a dict": {"steps": 3}, "a string": "cfg"}.items():
        api("api", f"train({name})", lambda c=configs: train(c))
    for key in run_keys():
        kind = next(t for t in (str, int, float) if t in _allowed_types(key))
        bad = {str: 123, int: "100", float: "abc"}[kind]
        api("api", f"RunConfig({key}={bad!r})", lambda k=key, b=bad: RunConfig(**{k: b}))
    api("api", "RunConfig(unknown key)", lambda: RunConfig(stepz=3))
    api("api", "World.make(42)", lambda: World.make(42, dim=2))
    api("api", "World.make dim=0", lambda: World.make("spiral", dim=0))
    api("api", "World.make law=cauchy", lambda: World.make("spiral", law="cauchy"))


# --- G. plugins, checkpoints, loggers, YAML and path edge cases (issue 35) -------------

RUN_2D = ["run", str(CONFIG), "--run", "spiral_lejepa", "--seed", "0", "--no-progress",
          *[f"--set={s}" for s in FAST]]  # fmt: skip

SWEEP_2D = ["sweep", str(CONFIG), "--no-progress", "--jobs", "1", "--set=runs=[spiral_lejepa]",
            "--set=seeds=[0]", *[f"--set={s}" for s in FAST]]  # fmt: skip

OBJECTIVE = (
    "from dataclasses import dataclass\n"
    "from lejepa_id.objectives import Objective, register_objective\n"
    "@register_objective({name!r})\n"
    "@dataclass(frozen=True)\n"
    "class Mine(Objective):\n"
    "    def loss(self, H, draw=None, generator=None, **kw):\n"
    "        {body}\n"
)
SUM = "H.pow(2).mean((-3, -2, -1))"
PLUGINS = {
    "objective hijacks lejepa": OBJECTIVE.format(name="lejepa", body=f"return {SUM}, {{}}"),
    "encoder hijacks mlp": "from lejepa_id.encoders.stacked import StackedMLP, register_encoder\n"
    "@register_encoder('mlp')\ndef f(d, m, seeds, **o):\n    return StackedMLP(d, seeds, 4, 1, m)\n",  # noqa: E501
    "transition hijacks ou": "from lejepa_id.worlds.transitions import OU, register_transition\n"
    "@register_transition('ou')\nclass T(OU):\n    pass\n",
    "metric hijacks r2_hz": "from lejepa_id.metrics.registry import register_metric\n"
    "@register_metric('r2_hz', 'x', 'y')\ndef f(m):\n    return m\n",
    "sys.exit at import": "import sys\nsys.exit(3)\n",
    "loss of a wrong shape": OBJECTIVE.format(name="p1", body="return H.sum((-2, -1)), {}"),
    "loss a scalar": OBJECTIVE.format(name="p2", body="return H.pow(2).mean(), {}"),
    "loss detached": OBJECTIVE.format(name="p3", body=f"return {SUM}.detach(), {{}}"),
    "loss raises": OBJECTIVE.format(name="p4", body="raise RuntimeError('boom')"),
    "loss calls sys.exit": OBJECTIVE.format(name="p5", body="raise SystemExit(3)"),
    "metric a float": "from lejepa_id.metrics.registry import register_metric\n"
    "@register_metric('mine', 'x', 'y')\ndef f(m):\n    return 0.5\n",
}  # fmt: skip


@contextlib.contextmanager
def isolated_registries():
    """Every registry and the plugin cache restored after a case (a plugin that was
    refused half-way must not leak into the next one)."""
    from lejepa_id import plugins
    from lejepa_id.config import components
    from lejepa_id.encoders import stacked
    from lejepa_id.metrics import registry
    from lejepa_id.worlds import transitions

    saved = [
        (components._REGISTERED, "objective", dict(components._REGISTERED["objective"])),
        (transitions.__dict__, "_TRANSITIONS", dict(transitions._TRANSITIONS)),
        (stacked.__dict__, "_ENCODERS", dict(stacked._ENCODERS)),
        (registry.__dict__, "_METRICS", dict(registry._METRICS)),
        (plugins.__dict__, "_LOADED", dict(plugins._LOADED)),
    ]
    try:
        yield
    finally:
        for table, key, value in saved:
            table[key] = value


def plugin_cases(tmp: Path) -> None:
    base = tmp / "plugins"
    base.mkdir()
    mode = {f"loss {k}": f"p{i}" for i, k in enumerate(
        ["of a wrong shape", "a scalar", "detached", "raises", "calls sys.exit"], 1)}  # fmt: skip
    for i, (name, source) in enumerate(PLUGINS.items()):
        plugin = base / f"plugin{i}.py"
        plugin.write_text(source)
        out = base / f"out{i}"
        sets = [f"--set=mode={mode[name]}"] if name in mode else []
        with isolated_registries():
            refusal("plugin", name, [*RUN_2D, "--out", str(out), "--plugin", str(plugin),
                                     *sets], out)  # fmt: skip
    listed = base / "listed.yaml"
    (base / "marker.py").write_text(
        "import pathlib\npathlib.Path(__file__).with_suffix('.ran').touch()\n"
    )
    listed.write_text("name: l\nruns:\n  spiral_lejepa: {}\nplugins: [marker.py]\n")
    for name, argv in {
        "config show runs no listed plugin": ["config", "show", str(listed)],
        "sweep --dry-run runs no listed plugin": ["sweep", str(listed), "--out",
                                                 str(base / "dry"), "--dry-run"],
    }.items():  # fmt: skip
        with isolated_registries():
            refusal("plugin", name, argv, base)
        if (base / "marker.ran").exists():
            RESULTS[-1].update(outcome="nonsense", detail="the listed plugin ran")


def checkpoint_cases(tmp: Path) -> None:
    from lejepa_id.training.checkpoints import CHECKPOINT_VAR
    from lejepa_id.training.trainer import train

    cfg = RunConfig(steps=64, eval_size=300, hidden=16, num_directions=16, device="cpu",
                    eval_every=16, eval_every_early=16)  # fmt: skip
    reference = train(cfg, progress=False)
    good = tmp / "good.pt"

    def stop(done: int, _rows: object) -> None:
        if done == 48:
            raise InterruptedError

    os.environ[CHECKPOINT_VAR] = "32"
    try:
        with contextlib.suppress(InterruptedError):
            train(cfg, progress=False, checkpoint=good, on_eval=stop)
        saved = good.read_bytes()

        def edit(change: Callable[[dict], None]) -> Callable[[Path], None]:
            def spoil(path: Path) -> None:
                state = torch.load(path, weights_only=True)
                change(state)
                torch.save(state, path)

            return spoil

        spoils: dict[str, Callable[[Path], None]] = {
            "random bytes": lambda p: p.write_bytes(os.urandom(300)),
            "truncated": lambda p: p.write_bytes(saved[:2000]),
            "a folder": lambda p: (p.unlink(), p.mkdir()),
            "a list": lambda p: torch.save([1], p),
            "no engine key": edit(lambda s: s.pop("engine")),
            "done 10^6": edit(lambda s: s.update(done=10**6)),
            "done off a chunk": edit(lambda s: s.update(done=33)),
            "another config": edit(lambda s: s.update(configs=[{}])),
        }
        for name, spoil in spoils.items():
            path = tmp / f"ckpt-{len(RESULTS)}" / "c.pt"
            path.parent.mkdir()
            path.write_bytes(saved)
            spoil(path)
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                try:
                    result = train(cfg, progress=False, checkpoint=path)
                except Exception as exc:  # noqa: BLE001 - a traceback is what we count
                    record("checkpoint", name, "traceback", repr(exc))
                    continue
            lines = err.getvalue().strip().splitlines()
            same = result.metrics == reference.metrics and result.curves == reference.curves
            warned = len(lines) == 1 and lines[0].startswith("warning: checkpoint")
            aside = list(path.parent.glob("c.pt.rejected-*"))
            outcome = "clean" if same and warned and aside else "nonsense"
            record("checkpoint", name, outcome, lines[0] if lines else "no warning")
    finally:
        del os.environ[CHECKPOINT_VAR]
    for var, raw in ((CHECKPOINT_VAR, "abc"), (CHECKPOINT_VAR, "-1"), ("LEJEPA_ID_STEP", "x")):
        os.environ[var] = raw
        try:
            for cmd in ("run", "sweep"):
                out = tmp / f"env-{len(RESULTS)}"
                argv = [*(RUN_2D if cmd == "run" else SWEEP_2D), "--out", str(out)]
                refusal("checkpoint", f"{cmd} with {var}={raw}", argv, out)
        finally:
            del os.environ[var]


def logger_cases(tmp: Path) -> None:
    saved = {
        k: os.environ.get(k) for k in ("WANDB_MODE", "WANDB_API_KEY", "WANDB_BASE_URL", "NETRC")
    }
    cases = {
        "wandb mode bogus": {"WANDB_MODE": "bogus"},
        "wandb online without a key": {"WANDB_MODE": "online"},
        "wandb online without a network": {"WANDB_MODE": "online", "WANDB_API_KEY": "k" * 40,
                                           "WANDB_BASE_URL": "http://127.0.0.1:9"},
    }  # fmt: skip
    try:
        for name, env in cases.items():
            for key in saved:
                os.environ.pop(key, None)
            os.environ["NETRC"] = str(tmp / "no-netrc")
            os.environ.update(env)
            out = tmp / f"wandb-{len(RESULTS)}"
            start = time.perf_counter()
            refusal("logger", name, [*RUN_2D, "--out", str(out), "--logger", "wandb"], out)
            if time.perf_counter() - start > 30:
                RESULTS[-1].update(outcome="nonsense", detail="took over 30 s (a hang)")
    finally:
        for key, value in saved.items():
            os.environ.pop(key, None)
            if value is not None:
                os.environ[key] = value


def edge_cases(tmp: Path) -> None:
    base = tmp / "edges"
    base.mkdir()
    texts = {
        "yaml indented by a tab": "runs:\n\tspiral_lejepa: {}\n",
        "yaml of 10 MiB": "description: '" + "x" * (10 * 2**20) + "'\nruns:\n  spiral_lejepa: {}\n",
        "yaml lr .nan": "runs:\n  spiral_lejepa: {lr: .nan}\n",
        "yaml lr .inf": "runs:\n  spiral_lejepa: {lr: .inf}\n",
        "yaml huge integer": "runs:\n  spiral_lejepa: {batch: 99999999999999999999999}\n",
        "yaml seeds .inf": "runs:\n  spiral_lejepa: {}\nseeds: [.inf]\n",
    }  # fmt: skip
    out = base / "out"
    for i, (name, text) in enumerate(texts.items()):
        path = base / f"e{i}.yaml"
        path.write_text(text)
        refusal(
            "edge", f"sweep {name}", ["sweep", str(path), "--out", str(out), "--no-progress"], out
        )
    (base / "loop").symlink_to(base / "loop")
    for name, target in {
        "--out with a newline": base / "a\nb",
        "--out a symlink loop": base / "loop",
    }.items():
        refusal("edge", f"run {name}", [*RUN_2D, "--out", str(target)], base)
    refusal("edge", "config a symlink loop", ["config", "show", str(base / "loop")], base)


def main_census() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write every case and its outcome here")
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="fault-census-") as tmp:
        tmp_path = Path(tmp)
        config_cases(tmp_path)
        path_cases(tmp_path)
        api_cases()
        corrupt_cases(tmp_path)
        disk_full_cases(tmp_path)
        plugin_cases(tmp_path)
        checkpoint_cases(tmp_path)
        logger_cases(tmp_path)
        edge_cases(tmp_path)
    frame = pd.DataFrame(RESULTS)
    table = frame.groupby(["category", "outcome"]).size().unstack(fill_value=0)
    print(table.to_string())
    counts = frame["outcome"].value_counts()
    print(
        f"cases tried {len(frame)}: clean {counts.get('clean', 0)}, "
        f"tracebacks {counts.get('traceback', 0)}, nonsense {counts.get('nonsense', 0)}, "
        f"partial writes {counts.get('partial', 0)} ({time.perf_counter() - start:.0f} s)"
    )
    for row in frame[frame["outcome"] != "clean"].itertuples():
        print(f"  {row.outcome}: [{row.category}] {row.case}: {row.detail[:200]}")
    if args.json:
        args.json.write_text(json.dumps(RESULTS, indent=1) + "\n")
    return 0 if (frame["outcome"] == "clean").all() else 1


if __name__ == "__main__":
    sys.exit(main_census())
