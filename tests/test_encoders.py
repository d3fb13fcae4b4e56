"""Encoders: shapes, stacking and the matched encoder's exact inversion."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from lejepa_id.encoders.cnn import CNNEncoder
from lejepa_id.encoders.stacked import StackedMatched, StackedMLP, build_encoder
from lejepa_id.errors import UsageError
from lejepa_id.worlds import Coupling


def test_matched_encoder_with_the_mixings_weights_inverts_it(gen):
    dim, layers = 16, 4
    g = Coupling(dim, layers, seed=11).double()
    enc = StackedMatched(dim, seeds=[0, 1], layers=layers).double()
    enc.load_mixing_weights(g.weights)
    z = torch.randn(2, 300, dim, generator=gen, dtype=torch.float64)
    assert torch.allclose(enc(g(z)), z, atol=1e-12)


def test_matched_encoder_init_is_scaled_gaussian():
    enc = StackedMatched(64, seeds=[3], layers=8)
    w = enc.weight.detach()
    assert w.shape == (1, 8, 32, 32)
    assert abs(w.var().item() - 1 / 32) < 0.1 / 32


def test_stacked_mlp_run_equals_a_plain_mlp():
    stacked = StackedMLP(2, seeds=[5, 6], hidden=32, depth=4)
    layers: list[nn.Module] = []
    for i, lin in enumerate(stacked.layers):
        plain = nn.Linear(*lin.weight.shape[1:])
        plain.weight.data = lin.weight[1].detach().T.clone()
        plain.bias.data = lin.bias[1, 0].detach().clone()
        layers += [plain] + ([nn.GELU()] if i < 4 else [])
    x = torch.randn(2, 50, 2)
    assert len(stacked.layers) == 5  # Linear(N,H), 3 x Linear(H,H), Linear(H,N)
    assert torch.allclose(stacked(x)[1], nn.Sequential(*layers)(x[1]), atol=1e-6)


def test_each_run_is_initialized_from_its_own_seed():
    a = StackedMLP(2, seeds=[1, 2])
    b = StackedMLP(2, seeds=[2])
    assert torch.equal(a.layers[0].weight[1], b.layers[0].weight[0])
    assert not torch.equal(a.layers[0].weight[0], a.layers[0].weight[1])


def test_cnn_maps_pixels_to_codes():
    enc = CNNEncoder(code_dim=2, seed=0)
    out = enc(torch.rand(4, 3, 64, 64))
    assert out.shape == (4, 2)
    assert torch.equal(CNNEncoder(seed=0).head[0].weight, enc.head[0].weight)


def test_build_encoder_rejects_unknown_names():
    import pytest

    with pytest.raises(ValueError, match="encoder='resnet'"):
        build_encoder("resnet", 2, [0])


def test_an_encoder_declares_its_own_shape_rule(monkeypatch):
    # The config and the trainer ask an encoder's shape rule, never its name.
    from lejepa_id.config.run import make_run_config
    from lejepa_id.encoders import stacked

    for table in ("_ENCODERS", "_COSTS", "_SHAPES"):
        monkeypatch.setattr(stacked, table, dict(getattr(stacked, table)))

    def square(n: int, D: int, m: int) -> str | None:
        return None if m == D else f"the square encoder needs m = D, got D={D}, m={m}"

    @stacked.register_encoder("square", shapes=square)
    def _square(obs_dim, code_dim, seeds, **options):
        return stacked.StackedMLP(obs_dim, seeds, 8, 1, code_dim)

    assert make_run_config({"encoder": "square"}).encoder == "square"
    with pytest.raises(UsageError, match=r"^the square encoder needs m = D, got D=2, m=3$"):
        make_run_config({"encoder": "square", "code_dim": 3})
    assert stacked.shape_problem("mlp", 2, 5, 1) is None  # the mlp maps any sizes
    assert stacked.shape_problem("matched", 3, 3, 3) == "dim=3 must be even for the matched encoder"
    assert stacked.shape_problem("matched", 4, 4, 2) == (
        "the matched encoder needs observations and codes of dim=4, got D=4, m=2"
    )
