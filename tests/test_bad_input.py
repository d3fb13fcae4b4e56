"""Malformed input through the real command line, many cases at once.

Every case runs ``lejepa_id.cli.main.main`` in a fresh directory and must end with exit
status 2, exactly one line on stderr that names the offending key or value, no
traceback, and the directory exactly as it was (nothing written, nothing removed).
Besides the hand-written classes (malformed files, paths escaping --out, absurd sizes,
nonsense values, duplicate axis values), every run setting is tried with values of the
wrong type and non-finite numbers.

``python tests/test_bad_input.py`` prints the tally: cases tried, clean errors,
tracebacks and other failures.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from lejepa_id.cli.main import main
from lejepa_id.config.run import _allowed_types, run_keys

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
TINY = ["--set", "steps=4", "--set", "hidden=16", "--set", "num_directions=16"]
TINY += ["--set", "eval_size=200", "--no-progress", "--device", "cpu"]
RUN = ["run", str(CONFIGS / "2d.yaml"), "--run", "spiral_lejepa", "--seed", "0", *TINY]
SWEEP = ["sweep", str(CONFIGS / "2d.yaml"), "--out", "out", *TINY]
SWEEP += ["--set", "runs=[spiral_lejepa]", "--set", "seeds=[1]"]
Setup = Callable[[Path], None]


@dataclass
class Case:
    name: str
    argv: list[str]
    needle: str
    setup: Setup | None = None
    outcome: dict = field(default_factory=dict)


def _write(path: str, text: str | bytes) -> Setup:
    def setup(root: Path) -> None:
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text if isinstance(text, bytes) else text.encode())

    return setup


def _mkdir(path: str) -> Setup:
    return lambda root: (root / path).mkdir(parents=True)


def _all(*setups: Setup) -> Setup:
    def setup(root: Path) -> None:
        for s in setups:
            s(root)

    return setup


def _fake_eval(path: str = "eval") -> Setup:
    """A complete eval gallery's metadata and angles (no frames: commands that read only
    the angles accept it, and it needs no rendering)."""
    meta = {
        "format": 1,
        "identity": {"kind": "eval", "n": 20, "size": 16, "look": "fast", "seed": 0},
        "complete": True,
        "n_shards": 1,
        "norm": {"mean": [0.5] * 3, "std": [0.2] * 3},
    }

    def setup(root: Path) -> None:
        d = root / path
        d.mkdir(parents=True)
        (d / "dataset.json").write_text(json.dumps(meta))
        np.save(d / "angles.npy", np.zeros((20, 1, 2)))

    return setup


def _experiment(text: str) -> Setup:
    return _write("exp.yaml", text)


EXP_RUN = ["run", "exp.yaml", "--run", "a", "--seed", "0", *TINY]
REACHER_TRAIN = ["reacher", "train", "--data", "ou", "--eval", "eval", "--out", "rr"]
REACHER_TRAIN += ["--epochs", "1", "--device", "cpu", "--quiet"]


# A plan.json of the shape `reacher figures` reads (its values are never drawn: the cases
# using it are refused before the gallery is loaded).
GOOD_PLAN = {"runs": [{"run": "ou/a"}], "pairs": [[0, 1], [2, 3]], "config": {}, "reference": {}}


def hand_written_cases() -> list[Case]:
    c = [
        # --- malformed or wrong-shaped files a command reads
        Case("sweep.json a list", SWEEP, "sweep.json", _write("out/2d/sweep.json", "[]")),
        Case("sweep.json garbage", SWEEP, "sweep.json", _write("out/2d/sweep.json", "{oops")),
        Case("sweep.json bytes", SWEEP, "sweep.json", _write("out/2d/sweep.json", b"\xff\xfe")),
        Case(
            "sweep.json axes a list",
            SWEEP,
            "axes",
            _write("out/2d/sweep.json", '{"experiment": "2d", "axes": [1]}'),
        ),
        Case(
            "sweep.json groups not ids",
            SWEEP,
            "groups",
            _write("out/2d/sweep.json", '{"experiment": "2d", "groups": [[1]]}'),
        ),
        Case("lock is a directory", SWEEP, ".sweep.lock", _mkdir("out/2d/.sweep.lock")),
        Case(
            "dataset.json garbage", REACHER_TRAIN, "dataset.json", _write("eval/dataset.json", "{")
        ),
        Case(
            "dataset.json a list", REACHER_TRAIN, "dataset.json", _write("eval/dataset.json", "[1]")
        ),
        Case(
            "dataset.json no identity",
            REACHER_TRAIN,
            "identity",
            _write("eval/dataset.json", '{"complete": true}'),
        ),
        Case(
            "dataset.json bad n_shards",
            REACHER_TRAIN,
            "n_shards",
            _write(
                "eval/dataset.json",
                '{"complete": true, "identity": {"kind": "eval", "n": 2, "size": 16}}',
            ),
        ),
        Case(
            "plan: dataset.json garbage",
            ["reacher", "plan", "--runs", "rr", "--eval", "eval"],
            "dataset.json",
            _all(_mkdir("rr"), _write("eval/dataset.json", "nope")),
        ),
        Case(
            "plan: angles.npy garbage",
            ["reacher", "plan", "--runs", "rr", "--eval", "eval"],
            "angles.npy",
            _all(_mkdir("rr"), _fake_eval(), _write("eval/angles.npy", b"garbage")),
        ),
        Case(
            "plan: result.json garbage",
            ["reacher", "plan", "--runs", "rr", "--eval", "eval", "--k", "2"],
            "result.json",
            _all(
                _fake_eval(),
                _write("rr/ou/lam0.01_seed0/result.json", "{trunc"),
                _write("rr/ou/lam0.01_seed0/codes.safetensors", b"x"),
            ),
        ),
        Case(
            "plan: result.json incomplete",
            ["reacher", "plan", "--runs", "rr", "--eval", "eval", "--k", "2"],
            "result.json",
            _all(
                _fake_eval(),
                _write("rr/ou/lam0.01_seed0/result.json", '{"label": "ou"}'),
                _write("rr/ou/lam0.01_seed0/codes.safetensors", b"x"),
            ),
        ),
        Case(
            "plan: codes corrupt",
            ["reacher", "plan", "--runs", "rr", "--eval", "eval", "--k", "2"],
            "codes.safetensors",
            _all(
                _fake_eval(),
                _write(
                    "rr/ou/lam0.01_seed0/result.json",
                    json.dumps(
                        {
                            "label": "ou",
                            "kind": "ou",
                            "config": {"lam": 0.01, "seed": 0},
                            "data": {"train_identity": {"kind": "ou", "rho": 0.9}},
                            "metrics": {"r2_hz": 1, "orth_err_whitened": 0},
                        }
                    ),
                ),
                _write("rr/ou/lam0.01_seed0/codes.safetensors", b"\x08" + b"\x00" * 7 + b"{}"),
            ),
        ),
        Case(
            "figures: plan.json garbage",
            ["reacher", "figures", "--runs", "rr", "--eval", "eval"],
            "plan.json",
            _write("rr/plan.json", "garbage"),
        ),
        Case(
            "figures: plan.json a list",
            ["reacher", "figures", "--runs", "rr", "--eval", "eval"],
            "plan.json",
            _write("rr/plan.json", "[]"),
        ),
        Case(
            "figures: plan.json lacks runs",
            ["reacher", "figures", "--runs", "rr", "--eval", "eval"],
            "runs",
            _write("rr/plan.json", '{"pairs": [[0, 1]]}'),
        ),
        Case(
            "figures: --pair beyond the plan's pairs",
            ["reacher", "figures", "--runs", "rr", "--eval", "eval", "--pair", "99999"],
            "--pair 99999",
            _write("rr/plan.json", json.dumps(GOOD_PLAN)),
        ),
        Case(
            "figures: --pair negative",
            ["reacher", "figures", "--runs", "rr", "--eval", "eval", "--pair", "-1"],
            "--pair -1",
            _write("rr/plan.json", json.dumps(GOOD_PLAN)),
        ),
        Case(
            "figures: NaN in plan.json",
            ["reacher", "figures", "--runs", "rr", "--eval", "eval"],
            "runs[0].ratio[1]",
            _all(
                _fake_eval(),
                _write(
                    "rr/plan.json",
                    json.dumps(
                        {**GOOD_PLAN, "runs": [{"run": "ou/a", "ratio": [1.0, "NaN"]}]}
                    ).replace('"NaN"', "NaN"),
                ),
            ),
        ),
        Case(
            "reacher config malformed",
            [*REACHER_TRAIN, "--config", "r.yaml"],
            "r.yaml",
            _write("r.yaml", "train: [unclosed\n"),
        ),
        Case(
            "reacher config a list",
            [*REACHER_TRAIN, "--config", "r.yaml"],
            "r.yaml",
            _write("r.yaml", "- 1\n"),
        ),
        Case(
            "reacher config train a list",
            [*REACHER_TRAIN, "--config", "r.yaml"],
            "train",
            _write("r.yaml", "train: [1, 2]\n"),
        ),
        Case(
            "reacher config fit_n text",
            [*REACHER_TRAIN, "--config", "r.yaml"],
            "fit_n",
            _write("r.yaml", "defaults: {fit_n: many}\n"),
        ),
        Case(
            "reacher config lams text",
            [*REACHER_TRAIN, "--config", "r.yaml", "--seeds", "0"],
            "lam",
            _write("r.yaml", "lambs: [abc]\n"),
        ),
        Case("experiment a list", EXP_RUN, "exp.yaml", _experiment("- a\n- b\n")),
        Case("experiment empty", EXP_RUN, "exp.yaml", _experiment("")),
        Case("experiment garbage", EXP_RUN, "exp.yaml", _experiment("runs: {a: [\n")),
        Case(
            "experiment duplicate top-level key",
            EXP_RUN,
            "duplicate key 'runs'",
            _experiment("runs: {a: {}}\nruns: {b: {}}\n"),
        ),
        Case(
            "experiment duplicate nested key",
            EXP_RUN,
            "duplicate key 'steps'",
            _experiment("defaults:\n  steps: 4\n  steps: 8\nruns: {a: {}}\n"),
        ),
        Case(
            "experiment duplicate key in a flow mapping",
            EXP_RUN,
            "duplicate key 'lam'",
            _experiment("runs: {a: {lam: 1, lam: 2}}\n"),
        ),
        Case("defaults a list", EXP_RUN, "defaults", _experiment("defaults: [1]\nruns: {a: {}}\n")),
        Case("defaults a number", EXP_RUN, "defaults", _experiment("defaults: 5\nruns: {a: {}}\n")),
        Case("run keys a number", EXP_RUN, "runs.a", _experiment("runs: {a: 5}\n")),
        Case("runs a list", EXP_RUN, "runs", _experiment("runs: [a]\n")),
        Case("defaults via --set", [*RUN, "--set", "defaults=[1]"], "defaults"),
        # --- paths escaping --out
        Case("name ../x", [*RUN, "--set", "name=../x"], "../x"),
        Case("name absolute", [*RUN, "--set", "name=/tmp/x"], "/tmp/x"),
        Case("name hidden", [*RUN, "--set", "name=.x"], ".x"),
        Case("run name ../y", EXP_RUN, "../y", _experiment("runs: {../y: {}, a: {}}\n")),
        Case("reacher label ../z", [*REACHER_TRAIN, "--labels", "../z"], "../z"),
        # --- --out where no directory can be
        Case("run --out under a file", [*RUN, "--out", "f/sub"], "f", _write("f", "x")),
        Case("run --out a file", [*RUN, "--out", "f"], "f", _write("f", "x")),
        Case("sweep --out under a file", [*SWEEP[:3], "f/sub", *SWEEP[4:]], "f", _write("f", "x")),
        Case(
            "aggregate --out under a file",
            ["aggregate", "d", "--out", "f/s"],
            "f",
            _all(_mkdir("d"), _write("f", "x")),
        ),
        Case(
            "figures --out under a file",
            ["figures", "d", "--out", "f/s"],
            "f",
            _all(_mkdir("d"), _write("f", "x")),
        ),
        Case(
            "report --out under a file",
            ["report", "d", "--out", "f/r.html"],
            "f",
            _all(_mkdir("d"), _write("f", "x")),
        ),
        Case(
            "demo --out under a file",
            ["demo", "--out", "f/s", "--steps", "5"],
            "f",
            _write("f", "x"),
        ),
        Case(
            "render --out under a file",
            ["reacher", "render", "eval", "--out", "f/s", "--n", "4"],
            "f",
            _write("f", "x"),
        ),
        Case(
            "render --out a file",
            ["reacher", "render", "eval", "--out", "f", "--n", "4"],
            "f",
            _write("f", "x"),
        ),
        Case(
            "reacher train --out under a file",
            [*REACHER_TRAIN[:7], "f/s", *REACHER_TRAIN[8:]],
            "f",
            _write("f", "x"),
        ),
        # --- figure formats
        Case("figures --formats xyz", ["figures", "d", "--formats", "xyz"], "xyz", _mkdir("d")),
        Case("figures --formats ''", ["figures", "d", "--formats", ""], "--formats", _mkdir("d")),
        Case(
            "figures --formats png,,", ["figures", "d", "--formats", "png,,"], "png,,", _mkdir("d")
        ),
        Case(
            "reacher figures --formats xyz",
            ["reacher", "figures", "--runs", "rr", "--eval", "eval", "--formats", "xyz"],
            "xyz",
            _write("rr/plan.json", "{}"),
        ),
        # --- absurd sizes, refused before allocating
        Case("steps 10^12", [*RUN, "--set", "steps=1000000000000"], "steps"),
        Case(
            "coupling dim 10^6",
            [*RUN, "--set", "runs.spiral_lejepa.mixing=coupling", "--set", "dim=1000000"],
            "dim",
        ),
        Case("hidden 10^6", [*RUN, "--set", "hidden=1000000"], "hidden"),
        Case("batch 10^9", [*RUN, "--set", "batch=1000000000"], "batch"),
        Case("eval_size 10^12", [*RUN, "--set", "eval_size=1000000000000"], "eval_size"),
        Case("scatter 10^9", [*RUN, "--set", "scatter=1000000000"], "scatter"),
        Case("knots 10^6", [*RUN, "--set", "knots=1000000"], "knots"),
        Case("memory", [*RUN, "--set", "batch=1048576", "--set", "hidden=4096"], "GiB"),
        Case(
            "render --n 10^12",
            ["reacher", "render", "eval", "--out", "o", "--n", "1000000000000"],
            "--n",
        ),
        Case("reacher --epochs 10^9", [*REACHER_TRAIN, "--epochs", "1000000000"], "epochs"),
        # --- nonsense values
        Case("eval_size 2", [*RUN, "--set", "eval_size=2"], "eval_size"),
        Case("eval_size 1", [*RUN, "--set", "eval_size=1"], "eval_size"),
        Case("gennorm alpha 0.01", [*RUN, "--set", "law=gennorm", "--set", "alpha=0.01"], "alpha"),
        Case("demo --steps 0", ["demo", "--steps", "0", "--no-progress"], "steps"),
        Case("demo --steps -5", ["demo", "--steps", "-5", "--no-progress"], "steps"),
        Case("demo --lam inf", ["demo", "--lam", "inf", "--no-progress"], "lam"),
        Case("lr inf", [*RUN, "--set", "lr=.inf"], "lr"),
        Case("lr nan", [*RUN, "--set", "lr=.nan"], "lr"),
        Case("t_max inf", [*RUN, "--set", "t_max=.inf"], "t_max"),
        Case("sigma nan", [*RUN, "--set", "sigma=.nan"], "sigma"),
        Case("weight_decay inf", [*RUN, "--set", "weight_decay=.inf"], "weight_decay"),
        Case("whiten batch 1", [*RUN, "--set", "mode=whiten", "--set", "batch=1"], "batch"),
        Case("lejepa batch 1", [*RUN, "--set", "batch=1"], "batch"),
        Case("infonce batch 1", [*RUN, "--set", "mode=infonce", "--set", "batch=1"], "batch"),
        Case("views 1", [*RUN, "--set", "views=1"], "views"),
        Case("knots 1", [*RUN, "--set", "knots=1"], "knots"),
        Case("rho 1", [*RUN, "--set", "rho=1"], "rho"),
        Case("lam -0.1", [*RUN, "--set", "lam=-0.1"], "lam"),
        Case("reacher --lams 2", [*REACHER_TRAIN, "--lams", "2"], "lam=2.0"),
        Case("reacher --lr inf", [*REACHER_TRAIN, "--lr", "inf"], "lr"),
        Case("reacher --batch 1", [*REACHER_TRAIN, "--batch", "1"], "batch"),
        Case(
            "render --size 4", ["reacher", "render", "eval", "--out", "o", "--size", "4"], "--size"
        ),
        Case(
            "render --delta 0",
            ["reacher", "render", "traj", "--out", "o", "--delta", "0"],
            "--delta",
        ),
        Case(
            "render --rho nan", ["reacher", "render", "ou", "--out", "o", "--rho", "nan"], "--rho"
        ),
        Case(
            "plan --k 1",
            ["reacher", "plan", "--runs", "rr", "--eval", "eval", "--k", "1"],
            "--k",
            _all(_mkdir("rr"), _fake_eval()),
        ),
        # --- duplicate axis values: the same run twice
        Case("seeds [1, 1]", [*SWEEP, "--set", "seeds=[1, 1]"], "seeds"),
        Case("lambs 1e-3 and 0.001", [*SWEEP, "--set", "lambs=[1e-3, 0.001]"], "lambs"),
        Case("alphas 2 and 2.0", [*SWEEP, "--set", "alphas=[2, 2.0]"], "alphas"),
        Case("reacher --seeds 0 0", [*REACHER_TRAIN, "--seeds", "0", "0"], "--seeds"),
        Case("reacher --lams 0.01 1e-2", [*REACHER_TRAIN, "--lams", "0.01", "1e-2"], "--lambs"),
        # --- the command line itself
        Case("--seed x", [*RUN[:5], "x"], "'x'"),
        Case("--jobs 0", [*SWEEP, "--jobs", "0"], "--jobs"),
        Case("--jobs abc", [*SWEEP, "--jobs", "abc"], "abc"),
        Case("--device tpu", [*RUN, "--device", "tpu"], "tpu"),
        Case("unknown command", ["frobnicate"], "frobnicate"),
        Case("--set without =", [*RUN, "--set", "oops"], "oops"),
        Case("--set bad YAML", [*RUN, "--set", "steps=[1"], "steps=[1"),
        Case("--set unknown key", [*RUN, "--set", "stepz=1"], "stepz"),
        Case("--set unknown run", [*RUN, "--set", "runs.nope.lam=0.1"], "nope"),
        Case(
            "--run unknown", ["run", str(CONFIGS / "2d.yaml"), "--run", "zz", "--seed", "0"], "zz"
        ),
        Case("missing config", ["run", "nope.yaml", "--run", "a", "--seed", "0"], "nope.yaml"),
        Case("aggregate missing dir", ["aggregate", "nope"], "nope"),
        Case(
            "render --workers -1",
            ["reacher", "render", "eval", "--out", "o", "--workers", "-1"],
            "--workers",
        ),
    ]
    c += yaml_and_path_edge_cases()
    if not _has_cuda():
        c.append(Case("run --device cuda", [*RUN[:-2], "--device", "cuda", "--out", "o"], "cuda"))
        c.append(Case("demo --device cuda", ["demo", "--device", "cuda", "--out", "o"], "cuda"))
    return c


def _big_experiment(root: Path) -> None:
    # 10 MiB: PyYAML would read it for about ten seconds before any check.
    filler = "x" * (10 * 2**20)
    (root / "exp.yaml").write_text(f"name: big\ndescription: '{filler}'\nruns:\n  a: {{}}\n")


def _symlink(name: str, target: str) -> Setup:
    return lambda root: (root / name).symlink_to(target)


def yaml_and_path_edge_cases() -> list[Case]:
    """YAML that PyYAML reads oddly and paths the file system refuses (issue 35)."""
    return [
        Case("yaml indented by a tab", EXP_RUN, "not valid YAML", _experiment("runs:\n\ta: {}\n")),
        Case("yaml of 10 MiB", EXP_RUN, "at most 1 MiB", _big_experiment),
        Case("yaml .nan", EXP_RUN, "lr=nan", _experiment("runs:\n  a: {lr: .nan}\n")),
        Case("yaml .inf", EXP_RUN, "lr=inf", _experiment("runs:\n  a: {lr: .inf}\n")),
        Case("yaml -.inf", EXP_RUN, "lr=-inf", _experiment("runs:\n  a: {lr: -.inf}\n")),
        Case(
            "yaml huge integer",
            EXP_RUN,
            "batch=99999999999999999999999",
            _experiment("runs:\n  a: {batch: 99999999999999999999999}\n"),
        ),
        Case(
            "yaml seed .inf",
            ["sweep", "exp.yaml", "--out", "out", *TINY],
            "seed=inf",
            _experiment("runs:\n  a: {}\nseeds: [.inf]\n"),
        ),
        Case("--out with a newline", [*RUN, "--out", "a\nb"], "control character"),
        Case("sweep --out with a newline", [*SWEEP[:3], "a\nb", *SWEEP[4:]], "control character"),
        Case(
            "paper --out with a newline",
            ["paper", "--budget", "smoke", "--dry-run", "--out", "a\nb"],
            "control character",
        ),
        Case("--out a 256-byte name", [*RUN, "--out", "n" * 256], "at most 255 bytes"),
        Case(
            "--out a symlink loop",
            [*RUN, "--out", "loop"],
            "'loop' is a symbolic link to nothing",
            _symlink("loop", "loop"),
        ),
        Case(
            "config a symlink loop",
            ["run", "exp.yaml", "--run", "a", "--seed", "0", *TINY],
            "'exp.yaml' is a symbolic link to nothing",
            _symlink("exp.yaml", "exp.yaml"),
        ),
    ]


def _has_cuda() -> bool:
    import torch

    return torch.cuda.is_available()


# Values of the wrong type (or not finite) for each kind of run setting.
BAD_BY_TYPE = {
    int: ["abc", "1.5", "true", "[1]", "{a: 1}"],
    float: ["abc", ".inf", "-.inf", ".nan", "[1]", "true"],
    str: ["5", "[a]", "{a: 1}", "true"],
}


def generated_cases() -> list[Case]:
    """Every run setting with every bad value of its type, through --set."""
    cases = []
    for key in run_keys():
        kinds = [t for t in _allowed_types(key) if t is not type(None)]
        # --device would override a --set device=...
        base = RUN[:-2] if key == "device" else RUN
        for value in BAD_BY_TYPE[kinds[0]]:
            cases.append(
                Case(f"--set {key}={value}", [*base, "--set", f"{key}={value}"], f"{key}=")
            )
    return cases


ALL_CASES = hand_written_cases() + generated_cases()


def _snapshot(root: Path) -> dict[str, bytes | None]:
    def content(p: Path) -> bytes | None:
        if p.is_symlink():  # a link (a loop among them) is its target's name
            return b"-> " + os.fsencode(os.readlink(p))
        return None if p.is_dir() else p.read_bytes()

    return {str(p.relative_to(root)): content(p) for p in sorted(root.rglob("*"))}


def run_case(case: Case, root: Path) -> dict:
    """Run one case in ``root``; returns rc, stderr lines, traceback and files changed."""
    if case.setup:
        case.setup(root)
    before = _snapshot(root)
    err, out = io.StringIO(), io.StringIO()
    trace = None
    cwd = os.getcwd()
    os.chdir(root)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                rc = main(case.argv)
            except SystemExit as exc:
                rc = exc.code
            except BaseException:  # noqa: BLE001 - a traceback is what is counted here
                rc, trace = None, traceback.format_exc()
    finally:
        os.chdir(cwd)
    changed = before != _snapshot(root)
    return {
        "rc": rc,
        "lines": err.getvalue().strip().splitlines(),
        "trace": trace,
        "changed": changed,
    }


def verdict(case: Case, outcome: dict) -> str:
    if outcome["trace"] is not None or any("Traceback" in line for line in outcome["lines"]):
        return "traceback"
    lines = outcome["lines"]
    clean = outcome["rc"] == 2 and len(lines) == 1 and case.needle in lines[0]
    return "clean" if clean and not outcome["changed"] else "other"


@pytest.mark.parametrize("case", ALL_CASES, ids=[c.name for c in ALL_CASES])
def test_bad_input_is_one_line_exit_2_nothing_written(case: Case, tmp_path: Path) -> None:
    outcome = run_case(case, tmp_path)
    assert outcome["trace"] is None, outcome["trace"]
    assert outcome["rc"] == 2, outcome
    assert len(outcome["lines"]) == 1, outcome["lines"]
    assert case.needle in outcome["lines"][0]
    assert not outcome["changed"], "files were written or removed"


def test_the_installed_entry_point_prints_one_line(tmp_path: Path) -> None:
    """The same contract through a real process: no usage block, no traceback."""
    for argv, needle in (
        ([*RUN, "--set", "lr=.inf"], "lr=inf"),
        ([*RUN[:5], "x"], "'x'"),
        (["figures", str(tmp_path), "--formats", "xyz"], "xyz"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "lejepa_id.cli.main", *argv],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=300,
        )
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1 and needle in lines[0], proc.stderr
    assert sorted(tmp_path.iterdir()) == []


def tally() -> dict[str, int]:
    """Run every case in temporary directories; count the verdicts."""
    import tempfile

    counts = {"tried": 0, "clean": 0, "traceback": 0, "other": 0}
    for case in ALL_CASES:
        with tempfile.TemporaryDirectory() as tmp:
            v = verdict(case, run_case(case, Path(tmp)))
        counts["tried"] += 1
        counts[v] += 1
        if v != "clean":
            print(f"{v}: {case.name}", file=sys.stderr)
    return counts


if __name__ == "__main__":
    print(tally())
