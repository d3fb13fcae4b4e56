"""The paper's experiments at three budgets, as data, and their expansion into sweeps.

``lejepa-id paper`` (:mod:`lejepa_id.cli.paper`) runs what this module plans. A budget
says, per experiment, which ``--set`` overrides the shipped config gets (synthetic
experiments, ``configs/<name>.yaml``) or which datasets, epochs and grid the Reacher
experiment uses, and why. The paper's own sizes are never restated here: they are
read from the shipped configs (``full`` is the configs unchanged), so every reduction
is computed by comparing a budget's expanded runs with the configs' (:func:`compare`)
and written to ``budget.json`` for the report.

Budgets:

- ``smoke``: every code path on tiny sizes (CI runs it end to end; about 4 min on
  2 shared cores, benchmarks/results/smoke-cpu-2026-12-03.json): all mixings and
  objectives, best-of-K, gennorm laws, the lambda x rho grid, every Reacher dataset
  kind, both Reacher sweeps, planning, figures, report.
- ``cpu``: what 2 idle CPU cores finish in about 2 hours. Full length (the paper's
  steps and epochs) wherever the experiment is synthetic; fewer seeds and settings to
  fit. Each reduction is listed with its reason (:attr:`Part.why`).
- ``overnight``: every claim's smallest deciding subset that 2 CPU cores finish in at
  most 10 hours, projected from the paces committed runs recorded on such a machine
  (:mod:`lejepa_id.sweeps.committed`); docs/overnight.md gives the table per claim.
- ``full``: the paper's sizes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from lejepa_id.errors import UsageError

BUDGET_NAMES = ("smoke", "cpu", "overnight", "full")
EXPERIMENTS = ("2d", "gennorm", "scaling", "grid", "reacher")
BEYOND = ("anisotropic", "codedim", "action")
DOUBLED = tuple(f"{name}_x2" for name in BEYOND)
"""Each beyond family's runs trained again with the whole schedule twice as long (the
convergence premise of the claims judged on them since v4,
:mod:`lejepa_id.analysis.claims.spectral`); a budget plans them where it has a part."""
BUDGET_FILE = "budget.json"
SIZING_FILE = "sizing.json"  # lejepa_id.reacher.sizing writes it beside the plan


def configs_dir() -> Path:
    """The shipped experiment configs (``configs/`` of the source tree)."""
    return Path(__file__).resolve().parents[3] / "configs"


@dataclass(frozen=True)
class Part:
    """One synthetic experiment at a budget: the config's ``--set`` overrides, and why."""

    sets: tuple[str, ...] = ()
    why: str = ""
    doubles: str | None = None
    """The experiment of the same budget whose runs this part trains again with the whole
    schedule twice as long: that part's config and overrides, then ``sets`` (which seeds),
    its steps doubled, under this part's name (:func:`part_sweep`). None: an experiment of
    its own, ``configs/<name>.yaml``."""


@dataclass(frozen=True)
class ReacherPart:
    """The Reacher experiment at a budget (``None`` fields: the paper's value, read from
    configs/reacher.yaml by :func:`reacher_paper`)."""

    size: int | None = None
    look: str | None = None
    eval_n: int | None = None
    pairs: int | None = None
    episode_steps: int | None = None
    epochs: int | None = None
    batch: int | None = None
    lams: tuple[float, ...] | None = None
    seeds: tuple[int, ...] | None = None
    sweep_lams: tuple[float, ...] | None = None
    """Lambdas of the rho/delta sweeps (None: the grid's, as `reacher sweep` does)."""
    sweep_seeds: tuple[int, ...] | None = None
    rhos: tuple[float, ...] | None = None
    deltas: tuple[int, ...] | None = None
    traj_kinds: tuple[str, ...] | None = None
    plan_k: int | None = None
    fit_n: int | None = None
    identify_every: int | None = None
    """Epochs between identification checks of the grid's runs (the training setting of
    that name; None: the config's, 0 by default)."""
    data_per_seed: bool | None = None
    """Render the grid's training datasets once per seed (rendered with that seed), so that
    runs of one kind are replicates of the whole pipeline, data included, not only of the
    training seed (None: the paper's, one dataset a kind). Needs a budget without rho and
    delta sweeps."""
    stage_two: bool | None = None
    """After the grid, size the runs a side by the registered rule
    (:mod:`lejepa_id.reacher.sizing`) from the grid's runs, once (``sizing.json``), train the
    seeds it adds and plan again on all runs (None: no stage two). Needs ``data_per_seed``."""
    why: str = ""


@dataclass(frozen=True)
class ReacherSizes:
    """Every Reacher setting resolved (a budget's, or the paper's)."""

    size: int
    look: str
    target: str
    eval_n: int
    pairs: int
    episode_steps: int
    rho: float
    delta: int
    epochs: int
    batch: int
    lams: tuple[float, ...]
    seeds: tuple[int, ...]
    sweep_lams: tuple[float, ...]
    sweep_seeds: tuple[int, ...]
    rhos: tuple[float, ...]
    deltas: tuple[int, ...]
    traj_kinds: tuple[str, ...]
    plan_k: int
    fit_n: int
    identify_every: int = 0
    data_per_seed: bool = False
    stage_two: bool = False

    @property
    def grid_runs(self) -> int:
        return 3 * len(self.lams) * len(self.seeds)

    @property
    def sweep_labels(self) -> list[str]:
        labels = [f"ou_rho{r:g}" for r in self.rhos]
        return labels + [f"{k}_delta{d}" for k in self.traj_kinds for d in self.deltas]

    @property
    def sweep_runs(self) -> int:
        return len(self.sweep_labels) * len(self.sweep_lams) * len(self.sweep_seeds)

    def datasets(self) -> dict[str, dict[str, Any]]:
        """label -> RenderSpec keywords of every dataset the experiment renders."""
        common = {"size": self.size, "look": self.look, "target": self.target}
        pairs = {"n": self.pairs, "episode_steps": self.episode_steps, **common}
        out = {"eval": {"kind": "eval", "n": self.eval_n, **common}}
        for r in (self.rho, *self.rhos):
            out[f"ou_rho{r:g}"] = {"kind": "ou", "rho": float(r), **pairs}
        for kind in ("traj", "trajmatch"):
            deltas = (self.delta, *self.deltas) if kind in self.traj_kinds else (self.delta,)
            for d in deltas:
                out[f"{kind}_delta{d}"] = {"kind": kind, "delta": int(d), **pairs}
        if self.data_per_seed:
            if self.sweep_runs:
                raise ValueError("data_per_seed renders the grid's data only: no rho/delta sweeps")
            for base in self.grid_labels().values():
                spec = out.pop(base)
                for seed in self.seeds:
                    out[f"{base}_s{seed}"] = {**spec, "seed": int(seed)}
        return out

    def grid_labels(self, seed: int | str | None = None) -> dict[str, str]:
        """Grid run label -> dataset label (the paper's rho and delta); given a ``seed``
        (``data_per_seed``), the dataset rendered with it."""
        suffix = "" if seed is None else f"_s{seed}"
        return {
            "ou": f"ou_rho{self.rho:g}{suffix}",
            "traj": f"traj_delta{self.delta}{suffix}",
            "trajmatch": f"trajmatch_delta{self.delta}{suffix}",
        }

    def frames(self) -> int:
        """Frames rendered in all (each pair has two)."""
        return sum(d["n"] * (1 if d["kind"] == "eval" else 2) for d in self.datasets().values())


@dataclass(frozen=True)
class Budget:
    name: str
    parts: dict[str, Part | ReacherPart] = field(default_factory=dict)
    summary: str = ""
    jobs: int | None = None
    """Default concurrent groups (None: as ``sweep``); the smoke budget trains in one
    process, since starting pool workers takes longer than its tiny groups."""
    judges: bool = True
    """Whether a claim's verdict on runs of this budget means anything: the smoke
    budget's 30-step runs test code paths only, so the report shows its verdicts as
    ``not judged`` (budget), never ``fail`` or ``pass``."""
    paces: bool = False
    """Whether ``--dry-run`` projects from the paces committed runs recorded on this
    machine kind (:mod:`lejepa_id.sweeps.committed`) instead of probing here."""


# Smaller batches and evaluation sets: the smoke budget tests code paths, not numbers.
TINY = ("eval_size=1000", "batch=64")
SMOKE = Budget(
    "smoke",
    {
        "2d": Part(
            ("steps=30", "seeds=[1337]", "scatter=2000", *TINY),
            "code paths only: 30 steps, one seed, every mixing and objective",
        ),
        "gennorm": Part(
            (
                "steps=30",
                "seeds=[1337, 1338]",
                "alphas=[1, 2, 4]",
                "runs=[spiral_lejepa, spiral_whiten]",
                *TINY,
            ),
            "code paths only: 30 steps, spiral with lejepa and whiten, 3 alphas, 2 seeds",
        ),
        "scaling": Part(
            ("steps=30", "dims=[2, 4]", "seeds=[0, 1]", *TINY),
            "code paths only: 30 steps, N = 2 and 4 (best of 3 kept), 2 seeds",
        ),
        "grid": Part(
            ("steps=30", "lambs=[1.0e-3, 1.0e-1]", "rhos=[0.5, 0.95]", "seeds=[0]", *TINY),
            "code paths only: 30 steps, 2 lambdas x 2 rhos, one seed",
        ),
        "reacher": ReacherPart(
            size=32,
            look="fast",
            eval_n=240,
            pairs=128,
            episode_steps=200,
            epochs=2,
            batch=64,
            lams=(0.01,),
            seeds=(0, 1),
            sweep_seeds=(0,),
            rhos=(0.5, 0.95),
            deltas=(4, 16),
            traj_kinds=("traj",),
            plan_k=20,
            fit_n=128,
            why="code paths only: 32 x 32 fast-look frames, 128 pairs, 2 epochs",
        ),
        "anisotropic": Part(
            (
                "steps=30",
                "runs=[spiral, coupling8]",
                "rho_grid={first: [0.5, 0.95], rest: [0.5, 0.95]}",
                "seeds=[0]",
                *TINY,
            ),
            "code paths only",
        ),
        "codedim": Part(
            ("steps=30", "runs=[n2_m1, n2_m3, n8_m4]", "seeds=[0]", *TINY), "code paths only"
        ),
        "action": Part(
            ("steps=30", "runs=[n2_linear, n8_coupling]", "seeds=[0]", *TINY), "code paths only"
        ),
        **{
            f"{name}_x2": Part((), "code paths only: the same runs at twice the steps", name)
            for name in BEYOND
        },
    },
    "every code path on tiny sizes (about 4 min on 2 shared cores); no number means anything",
    jobs=1,
    judges=False,
)

CPU = Budget(
    "cpu",
    {
        "2d": Part(
            ("seeds=[1337]",),
            "full length; seed 1337 only (the seed the published values are quoted for)",
        ),
        "gennorm": Part(
            (
                "seeds=[1337, 1338]",
                "alphas=[1, 2, 4]",
                "runs=[spiral_lejepa, spiral_whiten]",
            ),
            "full length; spiral with lejepa and whiten (not infonce, not the other mixings), "
            "alpha 1, 2, 4 (Laplace, Gaussian, a lighter-tailed law), 2 seeds: the smallest "
            "sweep on which the peak at alpha = 2 can be tested",
        ),
        "scaling": Part(
            ("dims=[2, 4, 8]", "seeds=[0, 1]", "inits=1"),
            "full length; N = 2, 4, 8, 2 seeds, one initialization (not best of 3): "
            "N >= 16 and best of 3 do not fit 2 cores",
        ),
        "grid": Part(
            ("lambs=[1.0e-4, 1.0e-2, 1.0e-1]", "rhos=[0.5, 0.95]", "seeds=[0]"),
            "full length; 3 lambdas x 2 rhos, one seed",
        ),
        "reacher": ReacherPart(
            size=32,
            look="fast",
            eval_n=2000,
            pairs=5000,
            epochs=20,
            lams=(0.01,),
            seeds=(0, 1),
            sweep_seeds=(0,),
            rhos=(0.5, 0.95),
            deltas=(4, 16),
            traj_kinds=("traj",),
            plan_k=100,
            fit_n=2000,
            why="32 x 32 fast-look frames, 5,000 pairs, 20 of 100 epochs (FEWER EPOCHS), "
            "one lambda, 2 seeds, a 2,000-frame gallery; rho and delta sweeps at 2 values "
            "each (trajectory kind traj only), one seed",
        ),
        "anisotropic": Part(
            ("steps=3000", "runs=[spiral]", "seeds=[0]"),
            "3,000 of 20,000 steps (FEWER STEPS, the README's CPU size), spiral only, one seed",
        ),
        "codedim": Part(
            ("steps=3000", "runs=[n2_m1, n2_m3, n2_m4]", "seeds=[0]"),
            "3,000 of 20,000 steps (FEWER STEPS), N = 2 only, one seed",
        ),
        "action": Part(
            ("steps=1500", "runs=[n2_linear, n2_spiral]", "seeds=[0]"),
            "1,500 of 20,000 steps (FEWER STEPS, the README's CPU size), N = 2, one seed",
        ),
    },
    "the largest honest subset sized for 2 idle CPU cores in about 2 hours",
)

# The overnight budget: sized from the paces committed runs recorded on a 2-core CPU
# (lejepa_id.sweeps.committed, benchmarks/results/paces-cpu-2core.json) so that its
# projection is at most 10 hours on 2 workers of 1 thread; docs/overnight.md gives, per
# claim, what its premises need, what runs here, the projected time and what is left out.
OVERNIGHT = Budget(
    "overnight",
    {
        "2d": Part(
            ("runs=[spiral_lejepa, banana_lejepa, sinusoid_lejepa, nvp_lejepa, spiral_whiten]",),
            "full length, seeds 1337-1339 (published_2d needs the three seeds of the "
            "same-device reference, for a seed spread); the 5 settings published_2d reads "
            "(spiral, banana, sinusoid and nvp lejepa, spiral whiten): banana, sinusoid and "
            "nvp whiten left out for time (2026-12-03, to make room for 50 Reacher epochs)",
        ),
        "gennorm": Part(
            (
                "alphas=[1, 2, 4]",
                "runs=[spiral_lejepa, banana_lejepa, sinusoid_lejepa, nvp_lejepa]",
            ),
            "full length; lejepa on all four mixings (gaussian_peak judges lejepa series), "
            "3 alphas: the Gaussian and both its neighbours 1 and 4, the possible "
            "runners-up, 3 seeds; whiten and infonce, and the alphas 0.125 to 0.5, 8, 16, "
            "32, left out for time (0.5 since 2026-12-03, to make room for 50 Reacher "
            "epochs; 8 since 2026-12-06, to make room for a second rho_1 in anisotropic)",
        ),
        "scaling": Part(
            ("dims=[2, 4, 8, 16, 64, 256]", "seeds=[0, 1, 2]", "coupling_draw=published_cuda"),
            "full length on the paper's recorded worlds (published_cuda, recorded for N <= "
            "256), best of 3 for N <= 32 as the paper, 3 objectives x 3 seeds, N = 2 to 16, "
            "64 and 256; N = 512 and 1024 have no recorded world on a CPU and no CPU pace; "
            "N = 32 (best of 3, projected at the pace of N = 64 x 3) and N = 128 left out "
            "for time",
        ),
        "grid": Part(
            ("lambs=[1.0e-3, 1.0e-2, 1.0e-1]", "rhos=[0.5, 0.8, 0.95]", "seeds=[0, 1]"),
            "full length; 3 lambdas x 3 rhos x 2 seeds, lambda >= 1e-3 where "
            "theorem3_bound's bound is informative (both lambda = 1e-4 runs of the cpu "
            "budget collapsed)",
        ),
        "reacher": ReacherPart(
            size=32,
            look="fast",
            eval_n=2000,
            pairs=20000,
            epochs=50,
            lams=(0.01,),
            seeds=(0, 1, 2),
            rhos=(),
            deltas=(),
            traj_kinds=(),
            plan_k=100,
            fit_n=2000,
            identify_every=1,
            data_per_seed=True,
            stage_two=True,
            why="32 x 32 fast-look frames, 20,000 pairs, 50 of 100 epochs (FEWER EPOCHS: "
            "3,900 steps a run; 25 until 2026-12-03, when the registered Reacher "
            "identification study identified 1 of 3 seeds at 25 epochs and 2 of 3 at 50; "
            "every run records its curve after each epoch), one lambda, 3 seeds a side on "
            "ou, traj and trajmatch, each seed on datasets rendered with it (since "
            "2026-12-06: replicates of data and training, not of training alone); then stage "
            "two of the runs-a-side rule registered 2026-12-06 (lejepa_id.reacher.sizing): the "
            "seeds it adds from these runs, at most 10 a kind; no rho or delta sweep (no "
            "claim reads it)",
        ),
        "anisotropic": Part(
            (
                "runs=[spiral, spiral_whiten]",
                "rho_grid={first: [0.9, 0.95], rest: [0.93, 0.96]}",
            ),
            "full length; spiral with lejepa and whiten, 3 seeds, rho_1 = 0.9 and 0.95 x rest "
            "0.93 and 0.96: at rho_1 = 0.9 the two cells nearest the boundary min rho > max "
            "rho^2 (0.93 predicted linear, 0.96 not), at 0.95 both predicted linear (since "
            "2026-12-06: the claims read experiments sweeping both rho_1 and rest, and one "
            "rho_1 left every anisotropic claim unmeasured); the rest 0.9 and 0.99 left out "
            "for time (2026-12-03, to make room for 50 Reacher epochs)",
        ),
        "codedim": Part(
            ("runs=[n2_m1, n2_m2, n2_m3, n2_m1_whiten, n2_m3_whiten]",),
            "full length; n = 2 with m = 1, 2, 3 (m < n, m = n, m > n) with lejepa, m = 1 "
            "and 3 with whiten, 3 seeds; m = n whiten (2026-12-03, to make room for 50 "
            "Reacher epochs) and n = 8 left out for time",
        ),
        "action": Part(
            ("runs=[n2_linear, n2_spiral]",),
            "full length; n = 2, linear and spiral mixings, 3 seeds; n = 8 left out for time",
        ),
        **{
            f"{name}_x2": Part(
                ("seeds=[1]",),
                f"seed 1 of every {name} setting trained again with the whole schedule twice "
                "as long (40,000 steps): the convergence premise of the claims judged on "
                f"{name} since v4 (2026-12-06); seed 0's longer runs were measured before "
                "the rule was written, seeds 0 and 2 left out for time",
                name,
            )
            for name in BEYOND
        },
    },
    "every claim's smallest deciding subset, sized for 2 CPU cores in at most 10 hours "
    "(projected from committed paces)",
    paces=True,
)

FULL = Budget(
    "full",
    {
        **{name: Part((), "the paper's sizes") for name in EXPERIMENTS if name != "reacher"},
        "reacher": ReacherPart(why="the paper's sizes (configs/reacher.yaml)"),
        **{name: Part((), "the config's sizes") for name in BEYOND},
        **{
            f"{name}_x2": Part(
                ("seeds=[1]",),
                f"seed 1 of every {name} run, the whole schedule twice as long (the "
                "convergence premise since v4)",
                doubles=name,
            )
            for name in BEYOND
        },
    },
    "the paper's sizes (a GPU job)",
)

BUDGETS = {b.name: b for b in (SMOKE, CPU, OVERNIGHT, FULL)}


def get_budget(name: str) -> Budget:
    if name not in BUDGETS:
        raise UsageError(f"--budget {name!r}: choose from {', '.join(BUDGET_NAMES)}")
    return BUDGETS[name]


def selected(only: Sequence[str] | None, beyond: bool) -> list[str]:
    """The experiments to run, in order; unknown names are refused."""
    extra = (*BEYOND, *DOUBLED)
    allowed = (*EXPERIMENTS, *extra)
    if only:
        bad = [x for x in only if x not in allowed]
        if bad:
            raise UsageError(f"--only {bad[0]!r}: choose from {', '.join(allowed)}")
        if not beyond and any(x in extra for x in only):
            name = next(x for x in only if x in extra)
            raise UsageError(f"--only {name!r} is a beyond-the-paper family; add --beyond")
        return [x for x in allowed if x in only]
    return list(EXPERIMENTS) + (list(extra) if beyond else [])


def part_sweep(budget: Budget, name: str, configs: Path | None = None) -> tuple[Path, list[str]]:
    """The config and ``--set`` overrides of a synthetic part: its own, or for a part that
    doubles another, the other's with this part's sets, ``steps`` twice the other's and
    ``name`` this part's (so its runs keep the other's ids in a folder of their own)."""
    configs = configs or configs_dir()
    part = budget.parts[name]
    if not isinstance(part, Part):
        raise TypeError(f"{name} is not a synthetic part")
    if part.doubles is None:
        return configs / f"{name}.yaml", list(part.sets)
    config, base = part_sweep(budget, part.doubles, configs)
    from lejepa_id.config.experiments import load_experiment

    steps = {s.config.steps for s in load_experiment(config, base).expand()}
    if len(steps) != 1:
        raise ValueError(f"{name}: {part.doubles} trains {sorted(steps)} steps; one is needed")
    return config, [*base, *part.sets, f"steps={2 * steps.pop()}", f"name={name}"]


def in_budget(budget: Budget, names: Sequence[str]) -> list[str]:
    """``names`` that ``budget`` plans (a doubled family only where it has a part)."""
    return [n for n in names if n in budget.parts]


# --- the Reacher experiment ------------------------------------------------------------


def reacher_paper(configs: Path | None = None) -> ReacherSizes:
    """The paper's Reacher settings, from configs/reacher.yaml."""
    import yaml  # here: `lejepa-id --help` imports this module and needs no YAML

    path = (configs or configs_dir()) / "reacher.yaml"
    tree = yaml.safe_load(path.read_text())
    render, train, sweep, plan = (tree[k] for k in ("render", "defaults", "sweep", "plan"))
    lams, seeds = tree["lambs"], tree["seeds"]
    return ReacherSizes(
        size=int(render["size"]),
        look=str(render["look"]),
        target=str(render["target"]),
        eval_n=int(render["eval"]["n"]),
        pairs=int(render["ou"]["n"]),
        episode_steps=int(render["traj"]["episode_steps"]),
        rho=float(render["ou"]["rho"]),
        delta=int(render["traj"]["delta"]),
        epochs=int(train["epochs"]),
        batch=int(train["batch"]),
        lams=tuple(float(x) for x in lams),
        seeds=tuple(int(x) for x in seeds),
        sweep_lams=tuple(float(x) for x in lams),
        sweep_seeds=tuple(int(x) for x in seeds),
        rhos=tuple(float(x) for x in sweep["rhos"]),
        deltas=tuple(int(x) for x in sweep["deltas"]),
        traj_kinds=tuple(str(x) for x in sweep["traj_kinds"]),
        plan_k=int(plan["k"]),
        fit_n=int(train["fit_n"]),
        identify_every=int(train.get("identify_every", 0)),
    )


def reacher_sizes(part: ReacherPart, configs: Path | None = None) -> ReacherSizes:
    """A budget's Reacher settings: its own where given, else the paper's."""
    paper = reacher_paper(configs)
    values = {}
    for name in ReacherSizes.__dataclass_fields__:
        mine = getattr(part, name, None)
        values[name] = getattr(paper, name) if mine is None else mine
    if part.sweep_lams is None:
        values["sweep_lams"] = values["lams"]
    if part.sweep_seeds is None:
        values["sweep_seeds"] = values["seeds"]
    return ReacherSizes(**values)


def reacher_grid_sets(sizes: ReacherSizes, data: Path, device: str | None) -> list[str]:
    """``--set`` overrides of configs/reacher_grid.yaml for the budget's lambda x seed grid;
    with ``data_per_seed`` each run's ``data`` names its seed's dataset (``{seed}``)."""
    labels = sizes.grid_labels("{seed}" if sizes.data_per_seed else None)
    runs = {label: {"data": str(data / ds)} for label, ds in labels.items()}
    return _reacher_sets(sizes, data, runs, sizes.lams, sizes.seeds, device)


def reacher_sweep_sets(sizes: ReacherSizes, data: Path, device: str | None) -> list[str]:
    """``--set`` overrides of configs/reacher_grid.yaml for the rho and delta sweeps: an
    experiment named ``sweep`` (under OUT/reacher/) with one run per swept dataset."""
    runs = {label: {"data": str(data / label)} for label in sizes.sweep_labels}
    sets = _reacher_sets(sizes, data, runs, sizes.sweep_lams, sizes.sweep_seeds, device)
    return ["name=sweep", *sets]


def stage_two_seeds(sizes: ReacherSizes, reacher_dir: Path) -> dict[str, tuple[int, ...]]:
    """Kind -> the seeds stage two adds, read from ``sizing.json`` under ``reacher_dir``
    (OUT/reacher/), written once from the grid's runs; empty when the budget has no stage
    two or its grid has not been sized yet."""
    path = reacher_dir / SIZING_FILE
    if not sizes.stage_two or not path.is_file():
        return {}
    from lejepa_id.records.io import read_json

    kinds = read_json(path)["kinds"]
    return {k: tuple(int(s) for s in v["add_seeds"]) for k, v in kinds.items() if v["add_seeds"]}


def stage_two_datasets(
    sizes: ReacherSizes, kind: str, seeds: Sequence[int]
) -> dict[str, dict[str, Any]]:
    """label -> RenderSpec keywords of the training datasets of ``kind``'s added seeds."""
    base = sizes.grid_labels()[kind]
    more = replace(sizes, seeds=tuple(seeds)).datasets()
    return {label: spec for label, spec in more.items() if label.startswith(f"{base}_s")}


def reacher_stage_two_sets(
    sizes: ReacherSizes, data: Path, kind: str, seeds: Sequence[int], device: str | None
) -> list[str]:
    """``--set`` overrides of configs/reacher_grid.yaml training ``kind`` alone at the added
    ``seeds``, each on its own dataset: the same runs folder and settings as the grid."""
    runs = {kind: {"data": str(data / sizes.grid_labels("{seed}")[kind])}}
    return _reacher_sets(sizes, data, runs, sizes.lams, seeds, device)


def _reacher_sets(sizes, data, runs, lams, seeds, device) -> list[str]:
    sets = [
        f"eval={json.dumps(str(data / 'eval'))}",
        f"runs={json.dumps(runs)}",
        f"epochs={sizes.epochs}",
        f"batch={sizes.batch}",
        f"fit_n={sizes.fit_n}",
        f"lambs={json.dumps(list(lams))}",
        f"seeds={json.dumps(list(seeds))}",
    ]
    if sizes.identify_every:
        sets.append(f"identify_every={sizes.identify_every}")
    return sets + ([f"device={device}"] if device else [])


# --- comparing a budget with the paper ---------------------------------------------------


def synthetic_summary(config: Path, sets: Sequence[str]) -> dict[str, Any]:
    """Runs, steps, seeds and settings of a synthetic experiment under ``sets``."""
    from lejepa_id.config.experiments import load_experiment

    exp = load_experiment(config, list(sets))
    specs = exp.expand()
    steps = sorted({s.config.steps for s in specs})
    seeds = sorted({s.config.seed for s in specs})
    inits = sorted({s.config.effective_inits for s in specs})
    return {
        "runs": len(specs),
        "steps": steps[0] if len(steps) == 1 else steps,
        "seeds": len(seeds),
        "settings": len(specs) // max(len(seeds), 1),
        "encoders": sum(s.config.effective_inits for s in specs),
        "inits": inits[-1],
    }


def reacher_summary(sizes: ReacherSizes) -> dict[str, Any]:
    return {
        "runs": sizes.grid_runs + sizes.sweep_runs,
        "epochs": sizes.epochs,
        "seeds": len(sizes.seeds),
        "settings": 3 * len(sizes.lams) + len(sizes.sweep_labels) * len(sizes.sweep_lams),
        "pairs": sizes.pairs,
        "frame_size": sizes.size,
        "look": sizes.look,
    }


# Which quantities are a shortfall when the budget's value is below the paper's.
SHORTFALL_KEYS = ("steps", "epochs", "seeds", "settings", "runs", "pairs", "frame_size", "inits")


def compare(mine: dict[str, Any], paper: dict[str, Any]) -> list[str]:
    """Human-readable shortfalls of a budget against the paper (empty: the paper's sizes)."""
    out = []
    for key in SHORTFALL_KEYS:
        if key not in mine or key not in paper:
            continue
        a, b = mine[key], paper[key]
        if isinstance(a, list) or isinstance(b, list):
            if a != b:
                out.append(f"{key} {a} (paper {b})")
        elif a < b:
            out.append(f"{key.replace('_', ' ')} {a:,} of {b:,}")
    if mine.get("look") and paper.get("look") and mine["look"] != paper["look"]:
        out.append(f"look {mine['look']}, not {paper['look']}")
    return out


def budget_record(
    budget: Budget, names: Sequence[str], configs: Path | None = None
) -> dict[str, Any]:
    """What ``budget.json`` holds: per experiment, this budget's sizes, the paper's, the
    shortfalls and the reason."""
    configs = configs or configs_dir()
    experiments = {}
    for name in names:
        part = budget.parts[name]
        if isinstance(part, ReacherPart):
            mine = reacher_summary(reacher_sizes(part, configs))
            paper = reacher_summary(reacher_paper(configs))
        else:
            mine = synthetic_summary(*part_sweep(budget, name, configs))
            paper = synthetic_summary(*part_sweep(FULL, name, configs))
        experiments[name] = {
            "budget": mine,
            "paper": paper,
            "shortfalls": compare(mine, paper),
            "why": part.why,
            "sets": list(getattr(part, "sets", ())),
        }
    return {
        "schema": 1,
        "budget": budget.name,
        "summary": budget.summary,
        "judges": budget.judges,
        "experiments": experiments,
    }


def time_entry(
    before: Any, projected: tuple[float, float, float] | None, measured: float | None
) -> dict[str, Any]:
    """``budget.json``'s ``time`` of one experiment: the projection from committed paces
    (seconds, with its range) and the wall seconds measured, summed over the invocations
    that ran the experiment (``before``: the entry an earlier one wrote)."""
    out: dict[str, Any] = {}
    if projected is not None:
        low, mid, high = projected
        out["projected_s"] = round(mid, 1)
        out["projected_range_s"] = [round(low, 1), round(high, 1)]
    earlier = before.get("measured_s") if isinstance(before, dict) else None
    total = float(earlier) if isinstance(earlier, int | float) else 0.0
    if measured is not None:
        total += measured
    if measured is not None or earlier is not None:
        out["measured_s"] = round(total, 1)
    return out


def format_duration(seconds: float) -> str:
    """``42 s``, ``7 min``, ``2 h 05 min``, ``3.1 d``."""
    if not math.isfinite(seconds):
        return "?"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 3 * 86400:
        h, m = divmod(round(seconds / 60), 60)
        return f"{h} h {m:02d} min"
    return f"{seconds / 86400:.1f} d"
