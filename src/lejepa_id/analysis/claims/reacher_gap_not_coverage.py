"""Claim ``reacher_gap_not_coverage``: coverage-matched trajectory encoders still plan
worse than OU encoders. Versions: see :mod:`.reacher_common`."""

from __future__ import annotations

from lejepa_id.analysis.claims.reacher_traj_plans_worse import amended, register, statement

V1 = statement(
    "reacher_gap_not_coverage",
    "Coverage-matched trajectory encoders (the OU data's angle range, no wrap-around, and "
    "with it marginals nearer Gaussian and a higher lag correlation than the trajectory "
    "pairs) still plan worse than OU encoders",
    "trajmatch",
)
V2 = amended(V1, "trajmatch")
register(V1, V2, "trajmatch")
