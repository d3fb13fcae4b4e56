"""The built-in claims, in the order the report lists them: importing a module registers
its claim (every version)."""

from __future__ import annotations

import importlib

ORDER = (
    "alignment_gap",
    "gaussian_peak",
    "theorem3_bound",
    "scaling",
    "scaling_table",
    "stall_rate",
    "stall_is_optimization",
    "stall_lambda",
    "published_2d",
    "anisotropic_boundary",
    "anisotropic_r2",
    "code_size",
    "whitened_optimum",
    "action_lqr",
    "reacher_ou_plans_like_oracle",
    "reacher_traj_plans_worse",
    "reacher_gap_not_coverage",
    "reacher_ou_lqr_values_match",
)

# The claims' ids in the report's order (a module imported before the rest, e.g. by a
# test, must not reorder them).
IDS = (
    "alignment_gap",
    "gaussian_peak",
    "theorem3_bound",
    "scaling",
    "scaling_reproduces_table",
    "sigreg_stall_rate",
    "stall_is_optimization",
    "larger_lambda_removes_stall",
    "published_2d",
    "anisotropic_boundary",
    "anisotropic_r2",
    "code_size",
    "whitened_optimum_reached",
    "action_lqr",
    "reacher_ou_plans_like_oracle",
    "reacher_traj_plans_worse",
    "reacher_gap_not_coverage",
    "reacher_ou_lqr_values_match",
)

for _name in ORDER:
    importlib.import_module(f"lejepa_id.analysis.claims.{_name}")
