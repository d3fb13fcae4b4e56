"""FusedAdamW against torch.optim.AdamW(fused=True): the same weights bit for bit, the same
state_dict layout (checkpoints load either way), and its refusals."""

from __future__ import annotations

import copy
import subprocess
import sys

import pytest
import torch

from lejepa_id.training.adamw import FusedAdamW

SHAPES = [(2, 3, 16), (2, 16), (2, 16, 16), (2, 16), (2, 16, 4)]  # stacked members first


def _params(seed: int = 0) -> list[torch.nn.Parameter]:
    gen = torch.Generator().manual_seed(seed)
    return [torch.nn.Parameter(torch.randn(s, generator=gen)) for s in SHAPES]


def _grads(step: int) -> list[torch.Tensor]:
    gen = torch.Generator().manual_seed(1000 + step)
    # Gradients over several magnitudes, so the second moment's eps and the bias
    # corrections matter.
    return [torch.randn(s, generator=gen) * 10.0 ** (step % 5 - 3) for s in SHAPES]


def _train(opt, params, steps: range) -> None:
    for step in steps:
        opt.param_groups[0]["lr"] = 1e-2 * (1 - step / 40)  # set per step, as the engine does
        opt.zero_grad(set_to_none=True)
        for p, g in zip(params, _grads(step)):
            p.grad = g.clone()
        opt.step()


def _pair(weight_decay: float = 0.05):
    ours, ref = _params(), _params()
    return (
        ours,
        FusedAdamW(ours, lr=1e-2, weight_decay=weight_decay),
        ref,
        torch.optim.AdamW(ref, lr=1e-2, weight_decay=weight_decay, fused=True),
    )


def _assert_same_state(a: dict, b: dict) -> None:
    assert a["param_groups"] == b["param_groups"]
    assert a["state"].keys() == b["state"].keys()
    for i, entry in a["state"].items():
        assert entry.keys() == b["state"][i].keys()
        for k, v in entry.items():
            other = b["state"][i][k]
            assert v.dtype == other.dtype and v.device == other.device, (i, k)
            assert torch.equal(v, other), (i, k)


@pytest.mark.parametrize("weight_decay", [0.0, 0.05])
def test_weights_and_state_equal_torch_fused_adamw_bit_for_bit(weight_decay: float) -> None:
    ours, opt, ref, ref_opt = _pair(weight_decay)
    _train(opt, ours, range(30))
    _train(ref_opt, ref, range(30))
    for a, b in zip(ours, ref):
        assert torch.equal(a, b)
    _assert_same_state(opt.state_dict(), ref_opt.state_dict())
    # The update moved the weights: equality is not two untouched copies.
    assert not torch.equal(ours[0], _params()[0])


@pytest.mark.parametrize("direction", ["torch to ours", "ours to torch"])
def test_a_checkpoint_of_either_continues_in_the_other(direction: str) -> None:
    ours, opt, ref, ref_opt = _pair()
    first, second = (ref_opt, opt) if direction == "torch to ours" else (opt, ref_opt)
    first_params = ref if first is ref_opt else ours
    second_params = ours if second is opt else ref
    _train(first, first_params, range(12))
    # A checkpoint is a copy (torch.save): torch.optim's load keeps the tensors it is given.
    saved = copy.deepcopy(first.state_dict())
    with torch.no_grad():
        for a, b in zip(second_params, first_params):
            a.copy_(b)
    second.load_state_dict(saved)
    _train(second, second_params, range(12, 30))
    _train(first, first_params, range(12, 30))
    for a, b in zip(first_params, second_params):
        assert torch.equal(a, b)


def test_a_missing_gradient_or_mixed_parameters_are_refused() -> None:
    params = _params()
    opt = FusedAdamW(params, lr=1e-3, weight_decay=0.0)
    for p in params[1:]:
        p.grad = torch.zeros_like(p)
    with pytest.raises(RuntimeError, match=r"parameters \[0\] have no gradient"):
        opt.step()
    mixed = [torch.nn.Parameter(torch.zeros(2)), torch.nn.Parameter(torch.zeros(2).double())]
    with pytest.raises(ValueError, match="one device and floating dtype"):
        FusedAdamW(mixed, lr=1e-3, weight_decay=0.0)
    with pytest.raises(ValueError, match="empty parameter list"):
        FusedAdamW([], lr=1e-3, weight_decay=0.0)
    with pytest.raises(ValueError, match="state for 2 parameters"):
        opt.load_state_dict(FusedAdamW(params[:2], lr=1e-3, weight_decay=0.0).state_dict())


def test_a_cpu_run_never_imports_torch_dynamo() -> None:
    # The reason FusedAdamW exists: building torch.optim's optimizer imports the compiler
    # (about a second of start-up). A short CPU run in a fresh process must not.
    code = (
        "import sys\n"
        "from lejepa_id import RunConfig, train\n"
        "train(RunConfig(mixing='spiral', mode='lejepa', steps=3, eval_every=3, "
        "eval_every_early=3, eval_size=256, device='cpu'))\n"
        "print('torch._dynamo' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"
