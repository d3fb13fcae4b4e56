"""lejepa-identifiability: when does LeJEPA recover the true latents of a world?

Three lines in a notebook:

```python
from lejepa_id import RunConfig, train
result = train(RunConfig(mixing="spiral", steps=3000))
print(result.metrics["r2_hz"])
```
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# First, before anything imports torch: the OpenMP runtime reads how long to spin once.
from lejepa_id.openmp import bound_the_spin  # noqa: E402

bound_the_spin()

from lejepa_id.plugins import set_builtins  # noqa: E402

if TYPE_CHECKING:
    from lejepa_id.config.experiments import load_experiment
    from lejepa_id.config.run import RunConfig
    from lejepa_id.records.result import RunResult
    from lejepa_id.training.saving import load_encoder
    from lejepa_id.training.trainer import train
    from lejepa_id.worlds import World

# The public names are imported when first used (PEP 562), so that `import lejepa_id`
# and `lejepa-id --help` start without torch: name -> the module that defines it.
_PUBLIC = {
    "RunConfig": "lejepa_id.config.run",
    "RunResult": "lejepa_id.records.result",
    "World": "lejepa_id.worlds",
    "load_encoder": "lejepa_id.training.saving",
    "load_experiment": "lejepa_id.config.experiments",
    "train": "lejepa_id.training.trainer",
}

__all__ = ["RunConfig", "RunResult", "World", "load_encoder", "load_experiment", "train"]


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_PUBLIC[name]), name)
    globals()[name] = value  # once: later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})


def _load_builtins() -> None:
    """Import the built-in objectives, which register themselves with the config (the
    other registries sit below their readers and are complete by construction)."""
    import lejepa_id.objectives  # noqa: F401


# The config never imports an objective; it completes its registry through this loader
# on its first read, whatever a user imported first.
set_builtins(_load_builtins)
