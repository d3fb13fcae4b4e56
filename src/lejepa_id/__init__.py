"""lejepa-identifiability: when does LeJEPA recover the true latents of a world?

Three lines in a notebook::

    from lejepa_id import RunConfig, train
    result = train(RunConfig(mixing="spiral", steps=3000))
    print(result.metrics["r2_hz"])
"""

__version__ = "0.1.0"

# First, before anything imports torch: the OpenMP runtime reads how long to spin once.
from lejepa_id.openmp import bound_the_spin  # noqa: E402

bound_the_spin()

from lejepa_id.config.experiments import load_experiment  # noqa: E402
from lejepa_id.config.run import RunConfig  # noqa: E402
from lejepa_id.records.result import RunResult  # noqa: E402
from lejepa_id.training.saving import load_encoder  # noqa: E402
from lejepa_id.training.trainer import train  # noqa: E402
from lejepa_id.worlds import World  # noqa: E402

__all__ = ["RunConfig", "RunResult", "World", "load_encoder", "load_experiment", "train"]
