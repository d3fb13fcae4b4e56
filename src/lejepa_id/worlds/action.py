"""An action-driven world: z_{t+1} = A z_t + B a_t + S^{1/2} eps (docs/spectral.md).

Actions a_t ~ N(0, I_k) and noise eps ~ N(0, I_n) are independent of z_t, and the noise
covariance is S = I - A A^T - B B^T, so N(0, I) is the stationary law (Gaussian latents
only). A = rho O and B = gain U, with O a random orthogonal n x n matrix and U a random
n x k matrix with orthonormal columns, both drawn from one seed derived from the run's
mixing seed. Then S has eigenvalues 1 - rho^2 - gain^2 (on the span of U) and 1 - rho^2,
so it is PSD exactly when rho^2 + gain^2 <= 1, and A is stable exactly when rho < 1.

As a :class:`Transition`, :meth:`views` draws independent successors of z (each with its
own action, drawn from the generator unless given), so Corr(z_i, z'_i) = A_ii. Training
pairs are (z_t, z_{t+1}) with the action recorded: :func:`action_pairs`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from lejepa_id.errors import UsageError
from lejepa_id.runtime import derive_seed
from lejepa_id.theory import lqr as lqr
from lejepa_id.worlds.laws import LatentLaw
from lejepa_id.worlds.transitions import Transition, register_transition

# Purpose of the seed derived from the mixing seed for (A, B); fixed for reproducibility.
_ACTION_MATRICES = 11


def orthonormal(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """An n x k matrix with orthonormal columns, uniform (Haar) over such matrices."""
    q, r = np.linalg.qr(rng.standard_normal((n, k)))
    # Fixing the signs of R's diagonal makes the law of q the Haar measure.
    return q * np.sign(np.diag(r))


def action_matrices(dim: int, action_dim: int, rho: float, gain: float, seed: int):
    """(A, B) = (rho O, gain U): O orthogonal (n, n), U (n, k) orthonormal columns."""
    rng = np.random.default_rng(seed)
    return rho * orthonormal(rng, dim, dim), gain * orthonormal(rng, dim, action_dim)


@dataclass(frozen=True)
class ActionKeys:
    """The config keys of the linear_action transition."""

    action_dim: int | None = None
    """Action dimension k, in [1, dim]: B = action_gain x (dim x k matrix with orthonormal
    columns)."""
    action_gain: float | None = None
    """Action gain, > 0 with rho^2 + action_gain^2 <= 1 (so the noise covariance
    I - A A^T - B B^T is PSD)."""


@register_transition("linear_action")
@dataclass(frozen=True)
class LinearAction(Transition):
    """z' = A z + B a + S^{1/2} eps with A = rho O, B = gain U (see the module docstring)."""

    keys = ActionKeys
    stack_keys = ("action_dim",)
    takes_actions = True

    dim: int
    action_dim: int
    rho: float = 0.9
    gain: float = 0.3
    seed: int = 0
    A: np.ndarray = field(init=False, repr=False, compare=False)
    B: np.ndarray = field(init=False, repr=False, compare=False)
    noise_root: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.rho, bool) or not 0.0 < float(self.rho) < 1.0:
            raise UsageError(f"rho={self.rho!r} must lie in the open interval (0, 1)")
        if not 1 <= self.action_dim <= self.dim:
            raise UsageError(
                f"action_dim={self.action_dim!r} must lie in [1, dim={self.dim}] "
                "(B has orthonormal columns)"
            )
        if not float(self.gain) > 0.0:
            raise UsageError(f"action_gain={self.gain!r} must be > 0")
        A, B = action_matrices(self.dim, self.action_dim, self.rho, self.gain, self.seed)
        S = lqr.identity_noise(A, B)  # ValueError when S is not PSD
        # A symmetric square root; clipping removes round-off below 0 on the null space.
        w, V = np.linalg.eigh(S)
        object.__setattr__(self, "A", A)
        object.__setattr__(self, "B", B)
        object.__setattr__(self, "noise_root", (V * np.sqrt(np.clip(w, 0.0, None))) @ V.T)

    @classmethod
    def validate_config(cls, c: Any) -> None:
        """The settings of docs/spectral.md, "Action worlds"."""
        # What the objective declares, not its name: a subclass of lejepa_action counts.
        if not getattr(c.objective_class, "takes_actions", False):
            raise UsageError(
                f"mode={c.mode!r}: transition linear_action hands its objective the actions "
                "taken, and this objective takes none (lejepa_action does)"
            )
        if c.law != "gaussian":
            raise UsageError(
                f"law={c.law!r}: transition linear_action keeps only gaussian stationary"
            )
        if isinstance(c.rho, list):
            raise UsageError(f"rho={c.rho!r}: transition linear_action takes one rho (A = rho O)")
        if c.action_dim is None or not 1 <= c.action_dim <= c.dim:
            raise UsageError(
                f"action_dim={c.action_dim!r}: transition linear_action needs 1 <= action_dim "
                f"<= dim={c.dim}"
            )
        gain = c.action_gain
        if gain is None or not gain > 0 or c.rho**2 + gain**2 > 1.0:
            raise UsageError(
                f"action_gain={gain!r}: transition linear_action needs action_gain > 0 and "
                f"rho^2 + action_gain^2 <= 1 (rho={c.rho}), else I - A A^T - B B^T is not PSD"
            )
        if c.code_size != c.dim:
            raise UsageError(
                f"code_dim={c.code_dim!r}: transition linear_action compares codes with z, so "
                f"it needs code_dim = dim = {c.dim}"
            )

    @classmethod
    def from_config(cls, config: Any) -> LinearAction:
        seed = derive_seed(config.resolved_mixing_seed, _ACTION_MATRICES)
        return cls(config.dim, config.action_dim, config.rho, config.action_gain, seed)

    def action_size(self) -> int:
        return self.action_dim

    def check(self, dim: int) -> None:
        if dim != self.dim:
            raise UsageError(
                f"the linear_action transition was built for dim={self.dim}, not {dim}"
            )

    def correlations(self, dim: int) -> torch.Tensor:
        self.check(dim)
        return torch.tensor(np.diag(self.A).copy(), dtype=torch.float64)

    def views(
        self,
        z: torch.Tensor,
        n_views: int,
        law: LatentLaw,
        generator: torch.Generator,
        actions: torch.Tensor | None = None,
    ) -> torch.Tensor:
        if not law.is_gaussian:
            raise UsageError("the linear_action transition keeps only a Gaussian law stationary")
        shape = (n_views, z.shape[0])
        if actions is None:
            actions = torch.randn(
                (*shape, self.action_dim), generator=generator, device=z.device, dtype=z.dtype
            )
        if tuple(actions.shape) != (*shape, self.action_dim):
            raise UsageError(
                f"actions have shape {tuple(actions.shape)}; expected {(*shape, self.action_dim)}"
            )
        eps = torch.randn((*shape, self.dim), generator=generator, device=z.device, dtype=z.dtype)
        A, B, root = (
            torch.as_tensor(M, dtype=z.dtype, device=z.device)
            for M in (self.A, self.B, self.noise_root)
        )
        return z.unsqueeze(0) @ A.T + actions @ B.T + eps @ root.T


def action_pairs(
    world: Any, z: torch.Tensor, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """The pairs (z_t, z_{t+1}) of an action world, with the actions a_t taken.

    Shape:
        z: (B, n) -> views (2, B, n), actions (B, k)
    """
    k = world.transition.action_size()
    a = torch.randn((1, z.shape[0], k), generator=generator, device=z.device, dtype=z.dtype)
    nxt = world.sample_views(z, 1, generator, a)[0]
    return torch.stack([z, nxt]), a[0]
