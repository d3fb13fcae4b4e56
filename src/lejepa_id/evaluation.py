"""Scoring a code on a fixed evaluation set, fast enough to run every few hundred steps.

Every metric of SPEC.md section 5 is a function of a few moments: the means and
(cross-)covariances of z and h. The evaluation set is fixed, so everything about z is
computed once; each evaluation then costs two (n x N) x (n x N) products for h. The
results equal :func:`lejepa_id.metrics.identifiability_metrics` to float64 precision
(tested), which remains the readable reference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from lejepa_id.metrics import grid_latents, r2, scale_free_from_gram, theorem3_bound
from lejepa_id.worlds import World


def _pinv_sym(a: torch.Tensor) -> torch.Tensor:
    return torch.linalg.pinv(a, hermitian=True)


def _trace(a: torch.Tensor) -> torch.Tensor:
    return torch.diagonal(a, dim1=-2, dim2=-1).sum(-1)


@dataclass
class EvalSet:
    """A fixed evaluation set of one world: latents, one fresh view, observations.

    Shape:
        z, z_prime, x, x_prime: (n, N); z_grid, x_grid: (G, 2) for N = 2, else None.
    """

    z: torch.Tensor
    z_prime: torch.Tensor
    x: torch.Tensor
    x_prime: torch.Tensor
    rho: float
    z_grid: torch.Tensor | None = None
    x_grid: torch.Tensor | None = None

    @classmethod
    def draw(cls, world: World, n: int, generator: torch.Generator) -> EvalSet:
        """Draw n latents and one OU view each, render both (and the 2D grid)."""
        z = world.sample_latents(n, generator)
        z_prime = world.sample_views(z, 1, generator)[0]
        z_grid = x_grid = None
        if world.dim == 2:
            z_grid = grid_latents().to(z)
            x_grid = world.render(z_grid)
        return cls(z, z_prime, world.render(z), world.render(z_prime), world.rho, z_grid, x_grid)

    def to(self, device: torch.device) -> EvalSet:
        move = {
            k: (v.to(device) if isinstance(v, torch.Tensor) else v)
            for k, v in self.__dict__.items()
        }
        return EvalSet(**move)

    def baseline(self) -> dict[str, float]:
        """R^2 of the mixing alone, both directions (the score to beat)."""
        return {"r2_xz": float(r2(self.x, self.z)), "r2_zx": float(r2(self.z, self.x))}


class Scorer:
    """Scores codes of stacked runs on their evaluation sets from precomputed z moments.

    Shape:
        z: (R, n, N) latents of each run's evaluation set (rows shared with h).
    """

    def __init__(self, z: torch.Tensor, rho: torch.Tensor) -> None:
        z = z.to(torch.float64)
        self.n, self.dim = z.shape[-2], z.shape[-1]
        self.rho = rho.to(torch.float64)
        self.z = z
        self.z_mean = z.mean(dim=-2)
        zc = z - self.z_mean.unsqueeze(-2)
        self.czz = zc.transpose(-2, -1) @ zc / self.n
        self.czz_inv = _pinv_sym(self.czz)
        self.z_sq = z.pow(2).sum(dim=(-2, -1)) / self.n
        self.eye = torch.eye(self.dim, dtype=torch.float64, device=z.device)

    def score(self, h: torch.Tensor, h_prime: torch.Tensor) -> dict[str, torch.Tensor]:
        """Every metric of SPEC.md section 5 except the mixing baseline (see EvalSet)."""
        h, h_prime = h.to(torch.float64), h_prime.to(torch.float64)
        n = self.n
        h_mean = h.mean(dim=-2)
        hz_raw = h.transpose(-2, -1) @ self.z / n  # (R, N, N): h^T z / n
        hh_raw = h.transpose(-2, -1) @ h / n
        chz = hz_raw - h_mean.unsqueeze(-1) * self.z_mean.unsqueeze(-2)
        chh = hh_raw - h_mean.unsqueeze(-1) * h_mean.unsqueeze(-2)
        czh = chz.transpose(-2, -1)
        # R^2(h -> z) and R^2(z -> h) from the explained variance of the affine fits.
        explained_z = _trace(czh @ _pinv_sym(chh) @ chz)
        r2_hz = explained_z / _trace(self.czz)
        w_zh = self.czz_inv @ czh  # h ~ z @ w_zh + c
        explained_h = _trace(chz @ w_zh)
        r2_zh = explained_h / _trace(chh)
        gram = w_zh @ w_zh.transpose(-2, -1)
        orth = torch.linalg.matrix_norm(gram - self.eye)
        orth_free, scale = scale_free_from_gram(gram)
        cov_unbiased = chh * (n / (n - 1))
        epsilon = torch.linalg.matrix_norm(cov_unbiased - self.eye)
        trace_cov = _trace(cov_unbiased)
        L_h = (h_prime - h).pow(2).sum(dim=-1).mean(dim=-1)
        delta = torch.clamp(L_h - 2.0 * (1.0 - self.rho) * trace_cov, min=0.0)
        D, bound = theorem3_bound(epsilon, delta, 0.0 + self.rho)
        # min_Q mean |h - z Q^T|^2 = mean|h|^2 + mean|z|^2 - 2 * nuclear norm of h^T z / n.
        nuclear = torch.linalg.svdvals(hz_raw).sum(-1)
        procrustes = _trace(hh_raw) + self.z_sq - 2.0 * nuclear
        centered = _trace(chh) + _trace(self.czz) - 2.0 * torch.linalg.svdvals(chz).sum(-1)
        return {
            "r2_hz": r2_hz,
            "r2_zh": r2_zh,
            "orth_err": orth,
            "orth_err_normalized": orth / math.sqrt(self.dim),
            "orth_err_scale_free": orth_free,
            "code_scale": scale,
            "epsilon": epsilon,
            "L_h": L_h,
            "trace_cov": trace_cov,
            "delta": delta,
            "D_bound": D,
            "approx_bound": bound,
            "procrustes_mse": procrustes,
            "procrustes_mse_centered": centered,
        }
