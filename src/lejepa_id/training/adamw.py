"""AdamW as one call of PyTorch's fused kernel, without ``torch.optim``'s wrapper.

``torch.optim.AdamW(fused=True)`` runs the whole update as one fused pass over every
parameter, but its Python wrapper costs a training step of a small model more than the
pass itself: building the optimizer imports ``torch._dynamo`` (about a second of process
start-up on a 2-core CPU, for a compiler these runs never use), and every ``step()``
re-imports it, marks two graph breaks, runs the profiler hooks and rebuilds the lists of
parameters, gradients and moments. :class:`FusedAdamW` keeps those lists once and calls the
same kernel (``torch._fused_adamw_``) with the same arguments, after the same step-counter
increment, so the weights it produces equal ``torch.optim.AdamW(fused=True)``'s bit for bit
(tests/training/test_adamw.py), and its ``state_dict`` has the same layout, so a checkpoint
written by either loads into the other.

It covers what the training engine uses: one parameter group, one device and dtype, no
AMSGrad, no gradient scaling. ``torch.optim.AdamW`` stays the reference and the optimizer of
the CUDA graph path (capturable state, a learning rate held in a tensor).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import torch

# torch.optim.AdamW's defaults, written into state_dict() as it writes them.
BETAS = (0.9, 0.999)
EPS = 1e-8
_FIXED_GROUP_KEYS = {
    "amsgrad": False,
    "foreach": None,
    "maximize": False,
    "capturable": False,
    "differentiable": False,
    "fused": True,
    "decoupled_weight_decay": True,
}


class FusedAdamW:
    """AdamW (decoupled weight decay) over a fixed list of parameters.

    Args:
        params: the tensors to update, all on one device with one floating dtype.
        lr: the learning rate; ``param_groups[0]["lr"]`` may be set before each step.
        weight_decay: the decoupled weight decay.
        betas: the moments' decay rates.
        eps: added to the second moment's root.

    Attributes:
        param_groups: one group, ``{"params", "lr", "betas", "eps", "weight_decay"}`` and
            the fixed keys torch.optim.AdamW records, so code that sets ``group["lr"]``
            works with either optimizer.
    """

    def __init__(
        self,
        params: Iterable[torch.Tensor],
        lr: float,
        weight_decay: float,
        betas: tuple[float, float] = BETAS,
        eps: float = EPS,
    ) -> None:
        self.params = list(params)
        if not self.params:
            raise ValueError("FusedAdamW got an empty parameter list")
        kinds = {(p.device, p.dtype) for p in self.params}
        if len(kinds) != 1 or not self.params[0].is_floating_point():
            raise ValueError(
                f"FusedAdamW needs one device and floating dtype, got {sorted(map(str, kinds))}"
            )
        self.param_groups: list[dict[str, Any]] = [
            {
                "params": self.params,
                "lr": lr,
                "betas": betas,
                "eps": eps,
                "weight_decay": weight_decay,
                **_FIXED_GROUP_KEYS,
            }
        ]
        self.exp_avgs: list[torch.Tensor] = []
        self.exp_avg_sqs: list[torch.Tensor] = []
        self.steps: list[torch.Tensor] = []

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Drop (or zero) every parameter's gradient."""
        for p in self.params:
            if set_to_none:
                p.grad = None
            elif p.grad is not None:
                p.grad.zero_()

    def _init_state(self) -> None:
        # As torch.optim.AdamW(fused=True) creates it at its first step: zero moments and a
        # float32 step counter on the parameters' device.
        device = self.params[0].device
        self.exp_avgs = [
            torch.zeros_like(p, memory_format=torch.preserve_format) for p in self.params
        ]
        self.exp_avg_sqs = [
            torch.zeros_like(p, memory_format=torch.preserve_format) for p in self.params
        ]
        self.steps = [torch.zeros((), dtype=torch.float32, device=device) for _ in self.params]

    @torch.no_grad()
    def step(self) -> None:
        """One update of every parameter from its gradient (all must have one)."""
        grads = [p.grad for p in self.params]
        if any(g is None for g in grads):
            # The engine's every parameter takes part in the loss; one without a gradient
            # would silently keep its moments while torch.optim skips it.
            missing = [i for i, g in enumerate(grads) if g is None]
            raise RuntimeError(f"FusedAdamW: parameters {missing} have no gradient")
        if not self.steps:
            self._init_state()
        group = self.param_groups[0]
        beta1, beta2 = group["betas"]
        torch._foreach_add_(self.steps, 1)
        torch._fused_adamw_(
            self.params,
            grads,  # type: ignore[arg-type]
            self.exp_avgs,
            self.exp_avg_sqs,
            [],
            self.steps,
            amsgrad=False,
            lr=group["lr"],
            beta1=beta1,
            beta2=beta2,
            weight_decay=group["weight_decay"],
            eps=group["eps"],
            maximize=False,
            grad_scale=None,
            found_inf=None,
        )

    def state_dict(self) -> dict[str, Any]:
        """The state in torch.optim.AdamW's layout (parameters by index)."""
        state = {
            i: {"step": s, "exp_avg": m, "exp_avg_sq": v}
            for i, (s, m, v) in enumerate(zip(self.steps, self.exp_avgs, self.exp_avg_sqs))
        }
        group = {k: v for k, v in self.param_groups[0].items() if k != "params"}
        group["params"] = list(range(len(self.params)))
        return {"state": state, "param_groups": [group]}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load a state written by :meth:`state_dict` or by ``torch.optim.AdamW`` over the
        same parameters (moments cast to each parameter's device and dtype)."""
        (group,) = state_dict["param_groups"]
        if len(group["params"]) != len(self.params):
            raise ValueError(
                f"optimizer state for {len(group['params'])} parameters, "
                f"this optimizer has {len(self.params)}"
            )
        state = state_dict["state"]
        if any(i not in state for i in group["params"]) and state:
            raise ValueError("optimizer state misses some parameters")
        if state:
            entries = [state[i] for i in group["params"]]
            self.exp_avgs = [
                e["exp_avg"].to(p.device, p.dtype, copy=True) for e, p in zip(entries, self.params)
            ]
            self.exp_avg_sqs = [
                e["exp_avg_sq"].to(p.device, p.dtype, copy=True)
                for e, p in zip(entries, self.params)
            ]
            self.steps = [
                torch.as_tensor(e["step"], dtype=torch.float32).to(self.params[0].device).clone()
                for e in entries
            ]
        else:
            self.exp_avgs, self.exp_avg_sqs, self.steps = [], [], []
        own = self.param_groups[0]
        own.update({k: v for k, v in group.items() if k != "params"})
        own["betas"] = tuple(own["betas"])
