"""The fabricated results directory the analysis tests share (built once)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from analysis_fakes import metrics as _metrics
from analysis_fakes import write_run as _write

from lejepa_id.config.run import RunConfig


@pytest.fixture(scope="session")
def results(tmp_path_factory) -> Path:
    """A gennorm sweep peaking at alpha = 2, a scaling sweep with InfoNCE degrading, a 2d
    sweep (Gaussian latents) and a lambda x rho grid; a diverged run, a corrupt file."""
    root = tmp_path_factory.mktemp("results")
    for seed in (0, 1):
        for alpha in (0.5, 1.0, 2.0, 8.0):
            for mode in ("lejepa", "infonce"):
                cfg = RunConfig(law="gennorm", alpha=alpha, mode=mode, seed=seed)
                r2 = 0.99 - 0.01 * abs(math.log2(alpha / 2)) - 0.001 * seed
                _write(
                    root,
                    "gennorm",
                    f"spiral_{mode}",
                    f"spiral_{mode}-alpha{alpha:g}-seed{seed}",
                    cfg,
                    _metrics(r2, 2, 0.95, 0.5, 0.1),
                )
        for dim in (2, 4, 8):
            for mode, r2 in (
                ("lejepa", 0.99999),
                ("whiten", 0.99998),
                ("infonce", 0.9 - dim / 100),
            ):
                cfg = RunConfig(mixing="coupling", encoder="matched", dim=dim, mode=mode, seed=seed)
                _write(
                    root,
                    "scaling",
                    mode,
                    f"{mode}-dim{dim}-seed{seed}",
                    cfg,
                    _metrics(r2 - 1e-6 * seed, dim, 0.95, 1e-3, 1e-4),
                )
        for mode in ("lejepa", "whiten"):
            cfg = RunConfig(mode=mode, seed=seed)
            _write(root, "2d", f"spiral_{mode}", f"spiral_{mode}-seed{seed}", cfg,
                   _metrics(0.985 - 0.001 * seed, grid_r2=0.97 - 0.001 * seed))  # fmt: skip
        for lam in (1e-2, 1e-1):
            for rho in (0.5, 0.9):
                cfg = RunConfig(lam=lam, rho=rho, seed=seed)
                r2 = 0.99 - lam - (1 - rho) / 10 - 0.001 * seed
                run_id = f"spiral_lejepa-lam{lam:g}-rho{rho:g}-seed{seed}"
                _write(root, "grid", "spiral_lejepa", run_id, cfg,
                       _metrics(r2, 2, rho, 0.2, 0.05 * (1 - rho)))  # fmt: skip
    cfg = RunConfig(mode="whiten", lr=1e3)
    _write(root, "scaling", "whiten", "whiten-dim2-seed9", cfg, {}, status="diverged")
    bad = root / "scaling" / "lejepa-dim2-seed7" / "result.json"
    bad.parent.mkdir(parents=True)
    bad.write_text('{"config": {"dim": 2}, "status": "finis')  # truncated by hand
    # Reacher output of another format must be ignored, not reported as corrupt.
    (root / "reacher" / "runs" / "x").mkdir(parents=True)
    (root / "reacher" / "runs" / "x" / "result.json").write_text("{}")
    return root
