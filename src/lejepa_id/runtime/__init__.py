"""The run's ground floor: seeds and generators, device names, software versions.

Every other package may import this one and it imports none of them (besides
:mod:`lejepa_id.errors`), so a world, a record or the Reacher training draw their seeds,
resolve their device and record their versions the same way without reaching up into
the training loop (docs/layout.md, the package graph).
"""

from lejepa_id.runtime.devices import check_device, resolve_device
from lejepa_id.runtime.seeds import derive_seed, generator
from lejepa_id.runtime.versions import software_versions

__all__ = ["check_device", "derive_seed", "generator", "resolve_device", "software_versions"]
