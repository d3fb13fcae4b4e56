"""A user's experiment kind in one file: estimating a coin's bias from its flips.

Registering it (the last line) is all it takes for ``lejepa-id sweep``, ``run``,
``aggregate`` and ``report`` to run and read it; nothing outside this file names it
(tests/sweeps/test_plugin_kind.py). A YAML file selects it::

    name: coins
    kind: coin
    runs:
      fair: {p: 0.5}
      loaded: {p: 0.8}
    seeds: [0, 1]

Each run flips its coin ``flips`` times with its seed and records the estimate ``p_hat``
and its error; the exact answer of a run is a binomial count, so a test can recompute it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

from lejepa_id.config.experiments import parse_set, read_tree
from lejepa_id.errors import UsageError
from lejepa_id.records.result import RunResult
from lejepa_id.sweeps.kinds import register_kind

NAME = "coin"


@dataclass(frozen=True)
class CoinConfig:
    """One run: the coin's bias, how often it is flipped, the seed of the flips."""

    p: float = 0.5
    flips: int = 1000
    seed: int = 0
    device: str = "cpu"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def validate(self) -> CoinConfig:
        if not 0.0 <= self.p <= 1.0:
            raise UsageError(f"p={self.p!r} must lie in [0, 1]")
        if self.flips < 1:
            raise UsageError(f"flips={self.flips!r} must be >= 1")
        return self


@dataclass
class CoinSpec:
    experiment: str
    run: str
    axes: dict[str, Any]
    config: CoinConfig
    plugins: tuple[str, ...] = (str(Path(__file__).resolve()),)
    kind = NAME

    @property
    def run_id(self) -> str:
        return f"{self.run}-seed{self.config.seed}"


@dataclass
class CoinExperiment:
    name: str
    runs: dict[str, dict[str, Any]]
    axes: dict[str, list[Any]] = field(default_factory=dict)
    description: str = ""
    defaults: dict[str, Any] = field(default_factory=dict)
    overrides: dict[str, Any] = field(default_factory=dict)

    def run_config(self, run: str, **values: Any) -> CoinConfig:
        return CoinConfig(**{**self.defaults, **self.runs[run], **values}).validate()

    def expand(self) -> list[CoinSpec]:
        seeds = self.axes.get("seeds", [0])
        return [
            CoinSpec(self.name, run, {"seeds": s}, self.run_config(run, seed=s))
            for run in self.runs
            for s in seeds
        ]


def flip(config: CoinConfig) -> torch.Tensor:
    """The run's flips (1: heads), from its seed alone."""
    gen = torch.Generator().manual_seed(config.seed)
    return (torch.rand(config.flips, generator=gen, dtype=torch.float64) < config.p).double()


class CoinKind:
    name = NAME
    progress_unit = "flips"
    stacks = False
    feeds_loggers = False

    def load(self, path: str | Path, sets: list[str] | None, only: str | None = None) -> Any:
        tree = read_tree(path)
        tree.update(parse_set(sets or []))
        runs = tree.get("runs")
        if not isinstance(runs, dict) or not runs:
            raise UsageError(f"{Path(path).name}: 'runs' must map names to {{p: BIAS}}")
        if only is not None:
            if only not in runs:
                raise UsageError(f"--run {only!r} is not in {Path(path).name}")
            runs = {only: runs[only]}
        seeds = tree.get("seeds", [0])
        exp = CoinExperiment(str(tree.get("name", Path(path).stem)), runs, {"seeds": seeds})
        exp.expand()  # every run checked before anything is written
        return exp

    def stack_key(self, spec: CoinSpec) -> tuple:
        return ("alone", spec.run_id)

    def members(self, spec: CoinSpec) -> int:
        return 1

    def member_cap(self, spec: CoinSpec, device_type: str, jobs: int, memory: int | None) -> int:
        return 1

    def cost(self, spec: CoinSpec) -> float:
        return float(spec.config.flips)

    def progress_total(self, spec: CoinSpec) -> int:
        return spec.config.flips

    def check_stored(self, spec: CoinSpec, stored: dict[str, Any], path: Path) -> None:
        return None

    def config_problem(self, config: dict[str, Any]) -> str | None:
        p = config.get("p")
        return None if isinstance(p, int | float) and 0 <= p <= 1 else f"config p={p!r}"

    def train_and_save(
        self,
        specs: Sequence[CoinSpec],
        root: Path,
        progress: bool = True,
        on_eval: Callable[[int, list[dict[str, float]]], None] | None = None,
        keep: Collection[str] = (),
        loggers: Sequence[str] = (),
    ) -> list[RunResult]:
        results = []
        for spec in specs:
            heads = flip(spec.config)
            p_hat = float(heads.mean())
            res = RunResult(
                config=spec.config,
                experiment_kind=NAME,
                metrics={"p_hat": p_hat, "abs_error": abs(p_hat - spec.config.p)},
                losses={"loss": (p_hat - spec.config.p) ** 2},
                curves={"step": [spec.config.flips], "p_hat": [p_hat]},
                weights={"heads": heads.sum().reshape(1)},
                name=spec.run_id,
            )
            if on_eval is not None:
                on_eval(spec.config.flips, [res.metrics])
            if spec.run_id not in keep:
                res.save(Path(root) / spec.run_id)
            results.append(res)
        return results


register_kind(CoinKind())
