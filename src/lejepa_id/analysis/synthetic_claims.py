"""The synthetic experiments' claims by their former function names, each judged by the
current version of its registered rule (:mod:`lejepa_id.analysis.claims`, one module per
claim). ``claim_x(frame)`` is ``judge(current(id), Evidence(frame=frame))``."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from lejepa_id.analysis.claims.base import Claim
from lejepa_id.analysis.claims.published_2d import PUBLISHED_2D
from lejepa_id.analysis.claims.registry import Evidence, current, judge

__all__ = ["PUBLISHED_2D", "judged"]


def judged(claim_id: str, frame: pd.DataFrame) -> Claim:
    """Claim ``claim_id`` judged by its current rule on the runs of ``frame``."""
    return judge(current(claim_id), Evidence(frame=frame))


def _by(claim_id: str) -> Callable[[pd.DataFrame], Claim]:
    def provider(frame: pd.DataFrame) -> Claim:
        return judged(claim_id, frame)

    provider.__name__ = f"claim_{claim_id}"
    return provider


claim_gap = _by("alignment_gap")
claim_gaussian_peak = _by("gaussian_peak")
claim_bound = _by("theorem3_bound")
claim_scaling = _by("scaling")
claim_scaling_table = _by("scaling_reproduces_table")
claim_published_2d = _by("published_2d")
claim_anisotropic_boundary = _by("anisotropic_boundary")
claim_anisotropic = _by("anisotropic_r2")
claim_codedim = _by("code_size")
claim_whitened_optimum = _by("whitened_optimum_reached")
claim_action = _by("action_lqr")
