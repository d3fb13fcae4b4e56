"""Known answers for latent laws, the OU channel and the mixings."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import numpy as np
import pytest
import torch
from scipy import stats

from lejepa_id.config.run import RunConfig
from lejepa_id.errors import UsageError
from lejepa_id.worlds import (
    OU,
    Banana,
    Coupling,
    LatentLaw,
    Sinusoid,
    Spiral,
    World,
    coupling_weights,
    cuda_worlds,
)
from lejepa_id.worlds.build import world_for as make_world

N_SAMPLES = 400_000
PUBLISHED = Path(__file__).parent / "fixtures" / "published_coupling_worlds.npz"


@pytest.mark.parametrize(
    "law",
    [
        LatentLaw("gaussian"),
        LatentLaw("laplace"),
        *(LatentLaw("gennorm", a) for a in (0.5, 1.0, 2.0, 4.0, 32.0)),
    ],
)
def test_laws_have_zero_mean_unit_variance(law, gen):
    x = law.sample((N_SAMPLES,), gen, dtype=torch.float64)
    # Standard errors: mean 1/sqrt(n); variance sqrt((kurtosis - 1) / n).
    var = x.var().item()
    kurt = ((x - x.mean()) ** 4).mean().item() / var**2
    assert abs(x.mean().item()) < 5 / math.sqrt(N_SAMPLES)
    assert abs(var - 1.0) < 5 * math.sqrt((kurt - 1) / N_SAMPLES)


@pytest.mark.parametrize("alpha", [0.5, 1.0, 2.0, 8.0])
def test_gennorm_matches_scipy_distribution(alpha, gen):
    law = LatentLaw("gennorm", alpha)
    x = law.sample((50_000,), gen, dtype=torch.float64).numpy()
    ref = stats.gennorm(alpha, scale=law.gennorm_scale)
    assert stats.kstest(x, ref.cdf).pvalue > 1e-3


def test_gennorm_alpha_two_is_gaussian_and_one_is_laplace(gen):
    assert LatentLaw("gennorm", 2.0).gennorm_scale == pytest.approx(math.sqrt(2.0))
    g = LatentLaw("gennorm", 2.0).sample((50_000,), gen, dtype=torch.float64).numpy()
    assert stats.kstest(g, stats.norm.cdf).pvalue > 1e-3
    lap = LatentLaw("gennorm", 1.0).sample((50_000,), gen, dtype=torch.float64).numpy()
    assert stats.kstest(lap, stats.laplace(scale=1 / math.sqrt(2)).cdf).pvalue > 1e-3
    lap2 = LatentLaw("laplace").sample((50_000,), gen, dtype=torch.float64).numpy()
    assert stats.kstest(lap2, stats.laplace(scale=1 / math.sqrt(2)).cdf).pvalue > 1e-3


def test_samplers_are_deterministic_given_the_generator():
    for name in ("gaussian", "laplace", "gennorm"):
        law = LatentLaw(name, 0.7)
        a = law.sample((100,), torch.Generator().manual_seed(5))
        b = law.sample((100,), torch.Generator().manual_seed(5))
        assert torch.equal(a, b)


@pytest.mark.parametrize("bad", [0.0, -1.0, float("inf")])
def test_bad_alpha_is_rejected(bad):
    with pytest.raises(ValueError, match="alpha"):
        LatentLaw("gennorm", bad)


def test_unknown_law_is_rejected():
    with pytest.raises(ValueError, match="law='cauchy'"):
        LatentLaw("cauchy")


@pytest.mark.parametrize("d", [1, 2, 3, 4])
@pytest.mark.parametrize("rho", [0.3, 0.9])
def test_ou_channel_satisfies_mehler(d, rho, gen):
    """E[He_d(z) He_d(z')] = d! rho^d for the Gaussian OU channel (probabilists' Hermite)."""
    law = LatentLaw("gaussian")
    z = law.sample((N_SAMPLES, 1), gen, dtype=torch.float64)
    zp = OU(rho).views(z, 1, law, gen)[0]
    he = np.polynomial.hermite_e.hermeval
    coef = [0] * d + [1]
    prod = he(z.numpy()[:, 0], coef) * he(zp.numpy()[:, 0], coef)
    se = prod.std() / math.sqrt(N_SAMPLES)
    assert abs(prod.mean() - math.factorial(d) * rho**d) < 5 * se


def test_ou_channel_keeps_second_moments_but_not_a_non_gaussian_law(gen):
    # With Laplace latents and Laplace noise, z' = r z + sqrt(1 - r^2) eta keeps the mean,
    # the unit variance and the correlation r: stationary to second order. Its law is not
    # the Laplace law, though (only the Gaussian is stable under this sum, the paper's
    # claim 2): the excess kurtosis of a sum of independent terms is
    # (r^4 k_z + (1 - r^2)^2 k_eta) with k = 3 for Laplace, 3 (0.2401 + 0.2601) = 1.5006.
    law = LatentLaw("laplace")
    z = law.sample((N_SAMPLES, 1), gen, dtype=torch.float64)
    zp = OU(0.7).views(z, 3, law, gen)
    assert zp.shape == (3, N_SAMPLES, 1)
    views = zp[:, :, 0].numpy()
    assert np.abs(views.mean(axis=1)).max() < 0.01
    assert np.abs(views.var(axis=1) - 1.0).max() < 0.01
    for v in views:
        assert np.corrcoef(z[:, 0].numpy(), v)[0, 1] == pytest.approx(0.7, abs=0.01)
        assert stats.kurtosis(v) == pytest.approx(3 * (0.7**4 + 0.51**2), abs=0.08)
    assert stats.kurtosis(z[:, 0].numpy()) == pytest.approx(3.0, abs=0.1)  # the law's own


@pytest.mark.parametrize("rho", [0.0, 1.0, -0.5, 1.5])
def test_rho_outside_open_unit_interval_is_rejected(rho, gen):
    with pytest.raises(ValueError, match="rho"):
        OU(rho)


def test_spiral_rotates_by_pi_times_radius_and_preserves_norm(gen):
    z = torch.randn(1000, 2, generator=gen, dtype=torch.float64)
    x = Spiral()(z)
    assert torch.allclose(x.norm(dim=-1), z.norm(dim=-1))
    turn = torch.atan2(x[:, 1], x[:, 0]) - torch.atan2(z[:, 1], z[:, 0])
    want = math.pi * z.norm(dim=-1)
    assert torch.allclose(torch.cos(turn), torch.cos(want), atol=1e-10)
    assert torch.allclose(torch.sin(turn), torch.sin(want), atol=1e-10)


def test_banana_and_sinusoid_formulas():
    z = torch.tensor([[1.5, -0.5], [0.0, 2.0]], dtype=torch.float64)
    assert torch.allclose(Banana()(z), torch.tensor([[1.5, 1.75], [0.0, 2.0]], dtype=torch.float64))
    s = Sinusoid()(z)
    assert torch.allclose(s[:, 0], z[:, 0] + torch.sin(1.5 * z[:, 1]))
    assert torch.equal(s[:, 1], z[:, 1])


def test_coupling_weights_are_twice_orthogonal_and_seeded():
    w = coupling_weights(8, 4, seed=3)
    assert w.shape == (4, 4, 4)
    eye = torch.eye(4, dtype=torch.float64)
    assert torch.allclose(w.transpose(-2, -1) @ w / 4.0, eye.expand(4, 4, 4), atol=1e-12)
    assert torch.equal(w, coupling_weights(8, 4, seed=3))
    assert not torch.equal(w, coupling_weights(8, 4, seed=4))


def test_coupling_inverse_is_exact(gen):
    g = Coupling(16, layers=4, seed=0).double()
    z = torch.randn(500, 16, generator=gen, dtype=torch.float64)
    assert torch.allclose(g.inverse(g(z)), z, atol=1e-12)


@pytest.mark.parametrize("dim", [3, 0])
def test_coupling_needs_even_dim(dim):
    with pytest.raises(ValueError, match=f"dim={dim}"):
        Coupling(dim)


def test_world_accepts_a_user_callable(gen):
    world = World.make(lambda z: z**3 + z, dim=3, rho=0.5)
    z = world.sample_latents(10, gen)
    assert torch.allclose(world.render(z), z**3 + z)
    views = world.sample_views(z, 4, gen)
    assert views.shape == (4, 10, 3)


def test_2d_mixings_refuse_other_dims():
    with pytest.raises(ValueError, match="dim = 2"):
        World.make("spiral", dim=4)


def _published_cases() -> list[tuple[int, int, int]]:
    cases = [(n, 4, s) for n in (2, 4, 8, 64, 1024) for s in range(5)]
    return cases + [(2, 8, s) for s in range(5)]


@pytest.mark.parametrize("dim, layers, seed", _published_cases())
def test_published_draw_reproduces_the_published_worlds(dim, layers, seed):
    """Weights and g(z) as the published code draws them on a CPU (stored fixture).

    The residual is float32 round-off of LAPACK's QR and of the four layers, which
    grows like sqrt(N); a different random stream would differ by O(1).
    """
    ref = np.load(PUBLISHED)
    key = f"N{dim}_L{layers}_seed{seed}"
    g = Coupling(dim, layers, seed, draw="published", device="cpu")
    assert g.weights.dtype == torch.float32
    if f"{key}_W" in ref:
        np.testing.assert_allclose(g.weights.numpy(), ref[f"{key}_W"], rtol=0, atol=1e-6 * dim**0.5)
    z = torch.from_numpy(ref["z"][:, :dim])
    np.testing.assert_allclose(g(z).numpy(), ref[f"{key}_gz"], rtol=0, atol=1e-5 * dim**0.5)


def test_published_draw_is_a_different_world_from_the_float64_draw():
    z = torch.from_numpy(np.load(PUBLISHED)["z"][:, :4])
    published = Coupling(4, 4, 0, draw="published")(z)
    float64 = Coupling(4, 4, 0, draw="float64")(z)
    assert (published - float64).abs().max() > 1.0


def test_the_config_chooses_the_draw_and_the_device():
    cfg = RunConfig(mixing="coupling", dim=8, seed=2, coupling_draw="published", device="cpu")
    ref = np.load(PUBLISHED)["N8_L4_seed2_W"]
    w = make_world(cfg).mixing.weights
    assert w.device.type == "cpu"
    np.testing.assert_allclose(w.numpy(), ref, rtol=0, atol=1e-6)
    cfg.coupling_draw = "float64"
    assert not np.allclose(make_world(cfg).mixing.weights.numpy(), ref, atol=0.1)


def test_unknown_draw_is_refused():
    match = "coupling_draw='cuda' is not one of float64, published, published_cuda"
    with pytest.raises(ValueError, match=match):
        coupling_weights(4, 4, 0, draw="cuda")


def test_recorded_cuda_worlds_are_the_listed_bytes():
    info = cuda_worlds.manifest()
    assert len(info["sha256"]) == 50 and info["layers"] == 4
    dims = (2, 4, 8, 16, 32, 64, 128, 256)
    assert info["shipped"] == [cuda_worlds.world_key(n, s) for n in dims for s in range(5)]
    for n in dims:
        for seed in range(5):
            w = cuda_worlds.recorded_world(n, 4, seed).numpy()
            assert w.dtype == np.float32 and w.shape == (4, n // 2, n // 2)
            key = cuda_worlds.world_key(n, seed)
            assert hashlib.sha256(w.tobytes()).hexdigest() == info["sha256"][key], key


@pytest.mark.parametrize("dim", [2, 4, 64, 256])
def test_published_cuda_draw_on_a_cpu_reads_the_recorded_world(dim):
    w = coupling_weights(dim, 4, 3, draw="published_cuda", device="cpu")
    torch.testing.assert_close(w, cuda_worlds.recorded_world(dim, 4, 3), rtol=0, atol=0)
    q = w.double() / 2  # each layer is 2 x an orthogonal matrix
    eye = torch.eye(dim // 2, dtype=torch.float64).expand_as(q)
    torch.testing.assert_close(q @ q.transpose(-1, -2), eye, rtol=0, atol=1e-5)
    if dim > 2:  # CUDA's stream differs from the CPU's: another world than the CPU draw
        assert (w - coupling_weights(dim, 4, 3, draw="published", device="cpu")).abs().max() > 0.1


def test_published_cuda_without_a_recorded_world_is_refused():
    with pytest.raises(ValueError, match="no recorded CUDA coupling world for dim=512"):
        coupling_weights(512, 4, 0, draw="published_cuda", device="cpu")
    with pytest.raises(ValueError, match="layers=8"):
        coupling_weights(8, 8, 0, draw="published_cuda", device="cpu")
    cfg = dict(mixing="coupling", dim=8, coupling_draw="published_cuda", device="cpu")
    assert RunConfig(**cfg, seed=4).validate()
    with pytest.raises(UsageError, match="no recorded world for dim=8, layers=4, seed=5"):
        RunConfig(**cfg, seed=5).validate()


def test_reading_obs_dim_leaves_the_mixing_where_it_is():
    # World.obs_dim used to move the mixing to the CPU as a side effect; it now probes
    # on the mixing's own device (the meta device stands in for a GPU here).
    world = World.make("linear", dim=3, obs_dim=5)
    world.mixing.to("meta")
    assert world.obs_dim == 5
    assert world.mixing.matrix.device.type == "meta"
