"""Seeds are a pure function of their parts: known values, stable across platforms."""

from __future__ import annotations

import torch

from lejepa_id.runtime import derive_seed, generator, software_versions


def test_derived_seeds_are_distinct_per_purpose_and_repeatable():
    assert derive_seed(0, 1) == derive_seed(0, 1)
    assert len({derive_seed(0, p) for p in range(50)}) == 50
    assert 0 <= derive_seed(123, 4, 5) < 2**63


def test_a_generator_is_seeded_with_the_derived_seed():
    a = torch.rand(3, generator=generator(torch.device("cpu"), 7, 2))
    b = torch.rand(3, generator=torch.Generator().manual_seed(derive_seed(7, 2)))
    assert torch.equal(a, b)


def test_software_versions_name_the_package_and_torch():
    v = software_versions()
    assert v["torch"] == torch.__version__ and set(v) >= {"lejepa_id", "python", "numpy"}
