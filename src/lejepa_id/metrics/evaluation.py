"""Scoring a code on a fixed evaluation set, fast enough to run every few hundred steps.

Every metric of docs/model.md, section 5, is a function of a few moments: the means and
(cross-)covariances of z and h. The evaluation set is fixed, so everything about z is
computed once; each evaluation then costs two (n x m) x (n x N) products for h. The
metrics themselves are registered in :mod:`lejepa_id.metrics.builtin` (and any other
module that registers one); their results equal
:func:`lejepa_id.metrics.reference.identifiability_metrics` to float64 precision (tested), which
remains the readable reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from lejepa_id.errors import UsageError, origin
from lejepa_id.linalg import r2
from lejepa_id.metrics.moments import CodeMoments, LatentMoments
from lejepa_id.metrics.reference import grid_latents
from lejepa_id.metrics.registry import metric_infos
from lejepa_id.worlds import World


@dataclass
class EvalSet:
    """A fixed evaluation set of one world: latents, one fresh view, observations.

    Shape:
        z, z_prime: (B, n); x, x_prime: (B, D) for B evaluation latents; z_grid: (G, 2) and
        x_grid: (G, D) for n = 2, else None.
    """

    z: torch.Tensor
    z_prime: torch.Tensor
    x: torch.Tensor
    x_prime: torch.Tensor
    z_grid: torch.Tensor | None = None
    x_grid: torch.Tensor | None = None

    @classmethod
    def draw(cls, world: World, samples: int, generator: torch.Generator) -> EvalSet:
        """Draw ``samples`` latents and one view each, render both (and the 2D grid)."""
        z = world.sample_latents(samples, generator)
        z_prime = world.sample_views(z, 1, generator)[0]
        z_grid = x_grid = None
        if world.dim == 2:
            z_grid = grid_latents().to(z)
            x_grid = world.render(z_grid)
        return cls(z, z_prime, world.render(z), world.render(z_prime), z_grid, x_grid)

    def baseline(self) -> dict[str, float]:
        """R^2 of the mixing alone, both directions (the score to beat)."""
        return {"r2_xz": float(r2(self.x, self.z)), "r2_zx": float(r2(self.z, self.x))}


class Scorer:
    """Scores codes of stacked runs on their evaluation sets with every registered metric.

    Shape:
        z: (R, B, n) latents of each run's evaluation set; rho: (R,).
    """

    def __init__(
        self,
        z: torch.Tensor,
        rho: torch.Tensor,
        correlations: torch.Tensor | None = None,
        gaussian: list[bool] | None = None,
    ) -> None:
        self.latents = LatentMoments(z, correlations, gaussian)
        self.rho = rho.to(torch.float64)

    def score(
        self, h: torch.Tensor, h_prime: torch.Tensor, final: bool = True
    ) -> dict[str, torch.Tensor]:
        """Every metric with a ``compute`` (the baseline and grid scores are apart);
        ``final=False`` skips the ``final_only`` ones.

        Shape:
            h, h_prime: (R, B, m) codes of the B evaluation latents and of one view each
            -> {name: (R,)}
        """
        moments = CodeMoments(self.latents, h, h_prime, self.rho)
        scores = {}
        for name, info in metric_infos().items():
            if info.compute is not None and (final or not info.final_only):
                scores[name] = _computed(name, info.compute, moments, h.shape[0])
        return scores


def _computed(name: str, compute: Any, moments: CodeMoments, runs: int) -> torch.Tensor:
    """A metric's scores; a plugin's that raise or are not one score per run (R,) are a
    one-line UsageError naming it, not a traceback in the bookkeeping."""
    where = origin(compute)
    if where.startswith("built-in"):
        return compute(moments)
    label = f"metric {name!r} ({where})"
    try:
        value = compute(moments)
    except Exception as exc:  # noqa: BLE001 - any failure of user code is one line
        first = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise UsageError(f"{label} failed: {first}") from None
    if not isinstance(value, torch.Tensor) or tuple(value.shape) != (runs,):
        what = (
            f"a tensor of shape {tuple(value.shape)}"
            if isinstance(value, torch.Tensor)
            else f"a {type(value).__name__}"
        )
        raise UsageError(f"{label} returned {what}, not a tensor of shape ({runs},), one per run")
    return value
