"""Mean correlation coefficient (MCC): the ICA literature's disentanglement score.

Match code coordinates to latent coordinates one-to-one so the summed absolute Pearson
correlation is largest, then average the matched correlations. MCC is 1 when every code
coordinate is a (signed, scaled, shifted) copy of its own latent coordinate, so unlike R^2
and the orthogonality error it also tells whether a world fixes the rotation: a code
h = Q z with a generic rotation Q has R^2 = 1 but MCC < 1.
"""

from __future__ import annotations

import numpy as np
import torch

from lejepa_id.errors import UsageError
from lejepa_id.linalg import ArrayLike


def abs_correlation(z: ArrayLike, h: ArrayLike) -> torch.Tensor:
    """|Pearson correlation| between every latent and every code coordinate, float64.

    A constant column (zero variance) correlates with nothing: its entries are 0, not NaN.

    Shape:
        z: (..., B, n), h: (..., B, m) -> (..., n, m) over B samples
    """
    z = torch.as_tensor(z).to(torch.float64)
    h = torch.as_tensor(h).to(torch.float64)
    if z.shape[:-1] != h.shape[:-1]:
        raise UsageError(
            f"z shape {tuple(z.shape)} and h shape {tuple(h.shape)} must agree but for the last dim"
        )
    zc = z - z.mean(dim=-2, keepdim=True)
    hc = h - h.mean(dim=-2, keepdim=True)
    zs = zc.pow(2).sum(dim=-2).sqrt()  # (..., n)
    hs = hc.pow(2).sum(dim=-2).sqrt()  # (..., m)
    denom = zs.unsqueeze(-1) * hs.unsqueeze(-2)
    cov = zc.transpose(-2, -1) @ hc
    safe = torch.where(denom > 0, denom, torch.ones_like(denom))
    return torch.where(denom > 0, cov.abs() / safe, torch.zeros_like(cov)).clamp(max=1.0)


def mcc(z: ArrayLike, h: ArrayLike) -> torch.Tensor:
    """Mean |correlation| over the optimal one-to-one matching of latent and code coordinates.

    The matching (scipy's linear_sum_assignment, maximizing the summed |correlation|) pairs
    min(n, m) coordinates; when m != n the surplus coordinates of the wider side stay
    unmatched and do not count, so a code with extra dimensions is not penalized for them
    (R^2(z -> h) reports that).

    Shape:
        z: (..., B, n), h: (..., B, m) -> (...) over B samples
    """
    # Imported at the first score, not with the metrics: scipy.optimize costs every
    # command that loads the registry (`config show`, a run's start) a few tenths of a second.
    from scipy.optimize import linear_sum_assignment

    corr = abs_correlation(z, h)
    lead = corr.shape[:-2]
    flat = corr.detach().reshape(-1, *corr.shape[-2:]).cpu().numpy()
    scores = np.empty(flat.shape[0], dtype=np.float64)
    for k, c in enumerate(flat):
        rows, cols = linear_sum_assignment(c, maximize=True)
        scores[k] = c[rows, cols].mean()
    return torch.from_numpy(scores).reshape(lead)
