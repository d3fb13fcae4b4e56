"""The shared numerics: known answers."""

from __future__ import annotations

import numpy as np
import torch

from lejepa_id.linalg import as_float64, r2


def test_python_numbers_are_read_in_float64():
    # Through torch's default float32, 0.2 would read back as 0.20000000298.
    assert as_float64(0.2).item() == 0.2
    assert as_float64([0.1, 1 / 3]).tolist() == [0.1, 1 / 3]
    assert as_float64(np.float32(0.5)).dtype == torch.float64


def test_r2_of_an_affine_map_is_one_and_of_noise_about_zero():
    g = torch.Generator().manual_seed(0)
    z = torch.randn(20_000, 2, generator=g, dtype=torch.float64)
    assert abs(float(r2(3.0 * z + 1.0, z)) - 1.0) < 1e-12
    noise = torch.randn(20_000, 2, generator=g, dtype=torch.float64)
    assert abs(float(r2(noise, z))) < 1e-3
