"""The one device-name rule, and every config that obeys it (synthetic run, Reacher run)."""

from __future__ import annotations

import pytest
import torch

from lejepa_id.config.run import RunConfig
from lejepa_id.errors import UsageError
from lejepa_id.reacher.training import TrainConfig
from lejepa_id.runtime import check_device, resolve_device
from lejepa_id.runtime.devices import is_cuda


@pytest.mark.parametrize("name", ["auto", "cpu", "cuda", "cuda:0", "cuda:12"])
def test_valid_names_pass_by_name(name):
    assert check_device(name) == name


@pytest.mark.parametrize("name", ["cudafoo", "cuda:", "cuda:x", "gpu", "CPU", "", "cuda0"])
def test_every_config_refuses_a_bad_name_with_one_message(name):
    expected = f"device={name!r} is not one of auto, cpu, cuda, cuda:N"
    with pytest.raises(UsageError) as shared:
        check_device(name)
    with pytest.raises(UsageError) as synthetic:
        RunConfig(device=name).validate()
    with pytest.raises(UsageError) as reacher:
        TrainConfig(device=name).validate()
    assert str(shared.value) == str(synthetic.value) == str(reacher.value) == expected


def test_is_cuda_is_the_name_rule_not_a_prefix():
    assert is_cuda("cuda") and is_cuda("cuda:3")
    assert not is_cuda("cudafoo") and not is_cuda("cuda:")


def test_resolve_device_picks_a_present_device():
    assert resolve_device("cpu") == torch.device("cpu")
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert resolve_device("auto").type == expected
