"""The moments every metric is computed from: statistics of the evaluation latents (once
per run) and of each evaluation's codes against them (on demand)."""

from __future__ import annotations

from functools import cached_property

import torch

from lejepa_id.linalg import pinv_sym


class LatentMoments:
    """What the metrics need of the evaluation latents and their world, computed once.

    ``correlations`` (R, n) are the transition's per-coordinate correlations and
    ``gaussian`` (R,) whether the latent law is Gaussian: the spectral predictions hold
    only then (None: unknown, those metrics are NaN).

    Shape:
        z: (R, B, n) latents of each run's evaluation set (rows shared with h).
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
        self.samples, self.dim = z.shape[-2], z.shape[-1]
        self.z = z
        self.z_mean = z.mean(dim=-2)
        zc = z - self.z_mean.unsqueeze(-2)
        self.czz = zc.transpose(-2, -1) @ zc / self.samples
        self.czz_inv = pinv_sym(self.czz)
        self.zz_raw = z.transpose(-2, -1) @ z / self.samples
        self.z_sq = z.pow(2).sum(dim=(-2, -1)) / self.samples


class CodeMoments:
    """The moments of one evaluation's codes against the latents, each computed on demand.

    ``rho`` (R,) is the correlation Theorem 3 uses per run (NaN where it does not apply).

    Shape:
        h, h_prime: (R, B, m) codes of the evaluation latents and of one view each.
    """

    def __init__(
        self, latents: LatentMoments, h: torch.Tensor, h_prime: torch.Tensor, rho: torch.Tensor
    ) -> None:
        self.lat = latents
        self.h, self.h_prime = h.to(torch.float64), h_prime.to(torch.float64)
        self.rho = rho
        self.memo: dict[str, torch.Tensor] = {}  # values several metrics share
        self.samples = latents.samples
        self.latent_dim, self.code_dim = latents.dim, h.shape[-1]

    @cached_property
    def h_mean(self) -> torch.Tensor:
        return self.h.mean(dim=-2)

    @cached_property
    def hz_raw(self) -> torch.Tensor:
        """h^T z / B. Shape: (R, m, n)."""
        return self.h.transpose(-2, -1) @ self.lat.z / self.samples

    @cached_property
    def hh_raw(self) -> torch.Tensor:
        return self.h.transpose(-2, -1) @ self.h / self.samples

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
        return self.chh * (self.samples / (self.samples - 1))
