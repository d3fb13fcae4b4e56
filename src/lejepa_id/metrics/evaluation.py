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
from functools import cached_property

import torch

from lejepa_id.metrics import builtin as _builtin_metrics
from lejepa_id.metrics import spectral as _spectral_metrics
from lejepa_id.metrics.reference import grid_latents, pinv_sym, r2
from lejepa_id.metrics.registry import metric_infos
from lejepa_id.worlds import World

del _builtin_metrics, _spectral_metrics  # imported for their registrations


@dataclass
class EvalSet:
    """A fixed evaluation set of one world: latents, one fresh view, observations.

    Shape:
        z, z_prime: (n_eval, n); x, x_prime: (n_eval, D); z_grid: (G, 2) and
        x_grid: (G, D) for n = 2, else None.
    """

    z: torch.Tensor
    z_prime: torch.Tensor
    x: torch.Tensor
    x_prime: torch.Tensor
    z_grid: torch.Tensor | None = None
    x_grid: torch.Tensor | None = None

    @classmethod
    def draw(cls, world: World, n: int, generator: torch.Generator) -> EvalSet:
        """Draw n latents and one view each, render both (and the 2D grid)."""
        z = world.sample_latents(n, generator)
        z_prime = world.sample_views(z, 1, generator)[0]
        z_grid = x_grid = None
        if world.dim == 2:
            z_grid = grid_latents().to(z)
            x_grid = world.render(z_grid)
        return cls(z, z_prime, world.render(z), world.render(z_prime), z_grid, x_grid)

    def baseline(self) -> dict[str, float]:
        """R^2 of the mixing alone, both directions (the score to beat)."""
        return {"r2_xz": float(r2(self.x, self.z)), "r2_zx": float(r2(self.z, self.x))}


class LatentMoments:
    """What the metrics need of the evaluation latents and their world, computed once.

    ``correlations`` (R, n) are the transition's per-coordinate correlations and
    ``gaussian`` (R,) whether the latent law is Gaussian: the spectral predictions hold
    only then (None: unknown, those metrics are NaN).

    Shape:
        z: (R, n_eval, n) latents of each run's evaluation set (rows shared with h).
    """

    def __init__(
        self,
        z: torch.Tensor,
        correlations: torch.Tensor | None = None,
        gaussian: list[bool] | None = None,
    ) -> None:
        self.correlations, self.gaussian = correlations, gaussian
        self.cache: dict = {}  # per-code-size values that metrics derive from z once
        z = z.to(torch.float64)
        self.n, self.dim = z.shape[-2], z.shape[-1]
        self.z = z
        self.z_mean = z.mean(dim=-2)
        zc = z - self.z_mean.unsqueeze(-2)
        self.czz = zc.transpose(-2, -1) @ zc / self.n
        self.czz_inv = pinv_sym(self.czz)
        self.zz_raw = z.transpose(-2, -1) @ z / self.n
        self.z_sq = z.pow(2).sum(dim=(-2, -1)) / self.n


class CodeMoments:
    """The moments of one evaluation's codes against the latents, each computed on demand.

    ``rho`` (R,) is the correlation Theorem 3 uses per run (NaN where it does not apply).

    Shape:
        h, h_prime: (R, n_eval, m) codes of the evaluation latents and of one view each.
    """

    def __init__(
        self, latents: LatentMoments, h: torch.Tensor, h_prime: torch.Tensor, rho: torch.Tensor
    ) -> None:
        self.lat = latents
        self.h, self.h_prime = h.to(torch.float64), h_prime.to(torch.float64)
        self.rho = rho
        self.memo: dict[str, torch.Tensor] = {}  # values several metrics share
        self.n = latents.n
        self.latent_dim, self.code_dim = latents.dim, h.shape[-1]

    @cached_property
    def h_mean(self) -> torch.Tensor:
        return self.h.mean(dim=-2)

    @cached_property
    def hz_raw(self) -> torch.Tensor:
        """h^T z / n_eval. Shape: (R, m, n)."""
        return self.h.transpose(-2, -1) @ self.lat.z / self.n

    @cached_property
    def hh_raw(self) -> torch.Tensor:
        return self.h.transpose(-2, -1) @ self.h / self.n

    @cached_property
    def chz(self) -> torch.Tensor:
        """Cov(h, z). Shape: (R, m, n)."""
        return self.hz_raw - self.h_mean.unsqueeze(-1) * self.lat.z_mean.unsqueeze(-2)

    @cached_property
    def chh(self) -> torch.Tensor:
        return self.hh_raw - self.h_mean.unsqueeze(-1) * self.h_mean.unsqueeze(-2)

    @cached_property
    def w_zh(self) -> torch.Tensor:
        """The linear part of the affine fit h ~ z @ w_zh + c. Shape: (R, n, m)."""
        return self.lat.czz_inv @ self.chz.transpose(-2, -1)

    @cached_property
    def gram(self) -> torch.Tensor:
        """A^T A for A = w_zh^T when m >= n, else A A^T: the Gram that is I exactly for
        a (partial) isometry. Shape: (R, min(n, m), min(n, m))."""
        w = self.w_zh
        if self.code_dim >= self.latent_dim:
            return w @ w.transpose(-2, -1)
        return w.transpose(-2, -1) @ w

    @cached_property
    def cov_unbiased(self) -> torch.Tensor:
        return self.chh * (self.n / (self.n - 1))


class Scorer:
    """Scores codes of stacked runs on their evaluation sets with every registered metric.

    Shape:
        z: (R, n_eval, n) latents of each run's evaluation set; rho: (R,).
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
        ``final=False`` skips the ``final_only`` ones."""
        moments = CodeMoments(self.latents, h, h_prime, self.rho)
        return {
            name: info.compute(moments)
            for name, info in metric_infos().items()
            if info.compute is not None and (final or not info.final_only)
        }
