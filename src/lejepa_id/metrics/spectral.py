"""Metrics of the spectral theory (docs/spectral.md), registered beside the paper's.

- ``mcc``: mean |correlation| of latent and code coordinates after the optimal matching,
  the ICA literature's disentanglement score (1 only when the code fixes the rotation).
- ``predicted_feature_r2``: R^2 of the code from the predicted optimal features, the m
  normalized Hermite products with the largest eigenvalues under the run's transition
  (with every feature tied at the m-th place, since then the optimum is any subspace of
  their span). 1 when the code spans exactly the predicted subspace.
- ``predicted_alignment_gap``: (1 / 2m) E|g(z') - g(z)|^2 minus its predicted minimum
  1 - (1/m) sum of the m largest eigenvalues, for the code g whitened by its own
  covariance, on the evaluation pairs (z, one view z'). At least 0 up to sampling noise;
  0 exactly when g spans the top-m eigenfunctions.

The predictions assume Gaussian latents: for other laws the last two are NaN.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from lejepa_id.linalg import pinv_sym, r2
from lejepa_id.metrics.mcc import mcc as mcc_score
from lejepa_id.metrics.registry import register_metric
from lejepa_id.theory.spectral import hermite_features, predicted_features

if TYPE_CHECKING:
    from lejepa_id.metrics.moments import CodeMoments


@register_metric(
    "mcc", "MCC", "mean |corr| after optimal matching of coordinates", True, True, True
)
def mcc(m: CodeMoments) -> torch.Tensor:
    return mcc_score(m.lat.z, m.h)


def _predictions(m: CodeMoments) -> list[tuple[torch.Tensor, float] | None]:
    """Per run: the predicted features on the evaluation latents and the predicted
    minimum of the whitened one-step alignment; None where no prediction applies."""
    key = ("spectral", m.code_dim)
    lat = m.lat
    if key not in lat.cache:
        out: list[tuple[torch.Tensor, float] | None] = []
        for r in range(lat.z.shape[0]):
            if lat.correlations is None or not lat.gaussian or not lat.gaussian[r]:
                out.append(None)
                continue
            rhos = [float(v) for v in lat.correlations[r]]
            pred = predicted_features(rhos, m.code_dim)
            features = hermite_features(lat.z[r], list(pred.indices) + list(pred.ties_at_m))
            minimum = 1.0 - sum(pred.eigenvalues) / m.code_dim
            out.append((features, minimum))
        lat.cache[key] = out
    return lat.cache[key]


@register_metric(
    "predicted_feature_r2",
    "R²(predicted features→h)",
    "R^2 of the code from the predicted optimal Hermite features (Gaussian latents)",
    summary=True,
    final_only=True,
)
def predicted_feature_r2(m: CodeMoments) -> torch.Tensor:
    nan = torch.tensor(float("nan"), dtype=torch.float64, device=m.h.device)
    values = [r2(p[0], m.h[r]) if p is not None else nan for r, p in enumerate(_predictions(m))]
    return torch.stack(values)


@register_metric(
    "predicted_alignment_gap",
    "alignment gap to prediction",
    "whitened one-step alignment minus its predicted minimum (Gaussian latents)",
    summary=True,
    final_only=True,
)
def predicted_alignment_gap(m: CodeMoments) -> torch.Tensor:
    diff = m.h_prime - m.h
    step = diff.transpose(-2, -1) @ diff / m.samples  # E[(h' - h)(h' - h)^T]
    whitened = torch.diagonal(pinv_sym(m.chh) @ step, dim1=-2, dim2=-1).sum(-1)
    measured = whitened / (2 * m.code_dim)
    minimum = [float("nan") if p is None else p[1] for p in _predictions(m)]
    return measured - torch.tensor(minimum, dtype=torch.float64, device=measured.device)
