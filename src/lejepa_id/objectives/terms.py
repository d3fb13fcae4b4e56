"""Loss terms: pure functions of the view tensor (docs/model.md, section 4).

Every function accepts optional leading "run" dimensions, so R stacked runs are scored in
one call: ``H`` of shape (..., V, B, m) gives a loss of shape (...). With no leading
dimension the result is a scalar. SIGReg lives in :mod:`lejepa_id.objectives.sigreg`.
"""

from __future__ import annotations

import torch

from lejepa_id.errors import UsageError


def alignment(H: torch.Tensor) -> torch.Tensor:
    """Mean squared deviation of each view from the mean over views.

    Shape:
        H: (..., V, B, m) -> (...)
    """
    centered = H - H.mean(dim=-3, keepdim=True)
    return centered.pow(2).mean(dim=(-3, -2, -1))


def whitening(H: torch.Tensor) -> torch.Tensor:
    """VICReg-style second-moment penalty: mean over entries of (Cov - I)^2.

    Shape:
        H: (..., V, B, m) -> (...)
    """
    batch = H.shape[:-3]
    X = H.reshape(*batch, -1, H.shape[-1])
    Xc = X - X.mean(dim=-2, keepdim=True)
    cov = Xc.transpose(-2, -1) @ Xc / (X.shape[-2] - 1)
    eye = torch.eye(H.shape[-1], dtype=H.dtype, device=H.device)
    return (cov - eye).pow(2).mean(dim=(-2, -1))


def infonce(H: torch.Tensor, sigma: float = 1.0) -> torch.Tensor:
    """Symmetric InfoNCE with Gaussian similarity s(u, v) = -|u - v|^2 / (2 sigma^2).

    Row i of view 1 is matched to column i of view 2; the cross-entropy is averaged over
    both directions.

    Shape:
        H: (..., 2, B, m) -> (...)
    """
    if H.shape[-3] != 2:
        raise UsageError(f"infonce needs exactly 2 views, got V={H.shape[-3]}")
    u, v = H[..., 0, :, :], H[..., 1, :, :]
    sq = (
        (u * u).sum(-1, keepdim=True)
        + (v * v).sum(-1).unsqueeze(-2)
        - 2.0 * u @ v.transpose(-2, -1)
    )
    logits = -sq / (2.0 * sigma * sigma)  # (..., B, B)
    diag = torch.diagonal(logits, dim1=-2, dim2=-1)
    row = torch.logsumexp(logits, dim=-1) - diag
    col = torch.logsumexp(logits, dim=-2) - diag
    return 0.5 * (row.mean(-1) + col.mean(-1))
