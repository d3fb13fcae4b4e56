"""Objectives: cross-checks against the published code's values and closed forms."""

from __future__ import annotations

import pytest
import torch

from lejepa_id.objectives import (
    alignment,
    infonce,
    objective,
    random_directions,
    sigreg,
    sigreg_knots,
    whitening,
)
from lejepa_id.objectives.sigreg import unit_columns


def test_losses_match_published_values(reference):
    arrays, values = reference
    H = torch.from_numpy(arrays["H"])
    ref = values["losses_on_H"]
    assert alignment(H).item() == pytest.approx(ref["alignment"], rel=1e-12)
    assert whitening(H).item() == pytest.approx(ref["whitening"], rel=1e-12)
    assert infonce(H, 1.0).item() == pytest.approx(ref["infonce_sigma_1"], rel=1e-12)
    assert infonce(H, 0.5).item() == pytest.approx(ref["infonce_sigma_0.5"], rel=1e-12)


def test_sigreg_with_fixed_directions_matches_published_value(reference):
    arrays, values = reference
    H, A = torch.from_numpy(arrays["H"]), torch.from_numpy(arrays["A"])
    want = values["losses_on_H"]["sigreg_fixed_directions_A"]
    assert sigreg(H, A).item() == pytest.approx(want, rel=1e-12)
    assert sigreg(H, A, fast=False).item() == pytest.approx(want, rel=1e-12)


def test_sigreg_random_directions_match_published_spread(reference):
    arrays, values = reference
    H = torch.from_numpy(arrays["H"])
    ref = values["losses_on_H"]
    gen = torch.Generator().manual_seed(0)
    draws = torch.stack([sigreg(H, generator=gen) for _ in range(400)])
    # The mean of 400 draws has standard error std / 20.
    assert abs(draws.mean().item() - ref["sigreg_random_256_directions_mean_over_400_draws"]) < (
        4 * ref["sigreg_random_256_directions_std_over_400_draws"] / 20
    )
    assert draws.std().item() == pytest.approx(
        ref["sigreg_random_256_directions_std_over_400_draws"], rel=0.2
    )


def test_fast_sigreg_equals_direct_formula_value_and_gradient(gen):
    H = (1.3 * torch.randn(3, 2, 64, 5, generator=gen, dtype=torch.float64) + 0.2).requires_grad_()
    D = random_directions(5, 32, gen, batch=(3,), dtype=torch.float64)
    for knots, t_max in [(17, 3.0), (9, 5.0)]:
        fast = sigreg(H, D, knots=knots, t_max=t_max)
        slow = sigreg(H, D, knots=knots, t_max=t_max, fast=False)
        assert fast.shape == (3,)
        assert torch.allclose(fast, slow, rtol=1e-12, atol=1e-14)
        (g_fast,) = torch.autograd.grad(fast.sum(), H)
        (g_slow,) = torch.autograd.grad(slow.sum(), H)
        assert torch.allclose(g_fast, g_slow, rtol=1e-10, atol=1e-14)


def test_fast_sigreg_passes_gradcheck(gen):
    H = torch.randn(2, 16, 3, generator=gen, dtype=torch.float64, requires_grad=True)
    D = random_directions(3, 8, gen, dtype=torch.float64)
    assert torch.autograd.gradcheck(lambda h: sigreg(h, D), (H,))


def test_fast_sigreg_float32_agrees_with_float64_to_1e6(gen):
    H = torch.randn(2, 256, 4, generator=gen, dtype=torch.float64)
    D = random_directions(4, 256, gen, dtype=torch.float64)
    a = sigreg(H.float(), D.float()).item()
    b = sigreg(H, D).item()
    assert a == pytest.approx(b, rel=1e-5)


def test_sigreg_small_for_gaussian_large_for_shifted_or_scaled(gen):
    def stat(H):
        return sigreg(H, generator=torch.Generator().manual_seed(7)).item()

    gauss = torch.randn(2, 2048, 8, generator=gen)
    base = stat(gauss)
    # For an exact N(0, I) sample the statistic is O(1) (a U-statistic times M).
    assert base < 3.0
    assert stat(gauss + 1.0) > 50 * base
    assert stat(2.0 * gauss) > 50 * base
    assert stat(torch.rand(2, 2048, 8, generator=gen) * 3.46 - 1.73) > 5 * base


def test_knot_weights_integrate_the_gaussian_kernel():
    t, w = sigreg_knots(1001, 8.0)
    # Weights are 2 x trapezoid x exp(-t^2/2): they integrate exp(-t^2/2) over the line.
    assert w.sum().item() == pytest.approx(2.5066282746, rel=1e-6)  # sqrt(2 pi)
    with pytest.raises(ValueError, match="knots"):
        sigreg_knots(1, 3.0)


def test_alignment_zero_for_identical_views_and_known_value():
    h = torch.randn(1, 10, 3).expand(2, 10, 3)
    assert alignment(h).item() == 0.0
    H = torch.stack([torch.zeros(4, 2), torch.ones(4, 2)])
    assert alignment(H).item() == pytest.approx(0.25)  # each view is 0.5 from the mean


def test_whitening_zero_for_whitened_codes():
    x = torch.randn(2, 500, 3, dtype=torch.float64)
    flat = x.reshape(-1, 3)
    flat = flat - flat.mean(0)
    L = torch.linalg.cholesky(flat.T @ flat / (flat.shape[0] - 1))
    white = (flat @ torch.linalg.inv(L).T).reshape(2, 500, 3)
    assert whitening(white).item() < 1e-20


def test_infonce_perfect_separation_and_uniform_limits():
    B = 8
    far = torch.eye(B, B) * 100.0
    H = torch.stack([far, far])
    assert infonce(H, 1.0).item() < 1e-6
    same = torch.zeros(2, B, 3)
    assert infonce(same, 1.0).item() == pytest.approx(torch.log(torch.tensor(float(B))).item())
    with pytest.raises(ValueError, match="2 views"):
        infonce(torch.zeros(3, 4, 2))


def test_objective_modes_combine_terms(gen):
    H = torch.randn(2, 32, 4, generator=gen, dtype=torch.float64)
    D = random_directions(4, 16, gen, dtype=torch.float64)
    loss, terms = objective(H, "lejepa", lam=0.25, directions=D)
    assert loss.item() == pytest.approx(0.25 * sigreg(H, D).item() + 0.75 * alignment(H).item())
    loss, terms = objective(H, "whiten", lam=0.5)
    assert loss.item() == pytest.approx(0.5 * whitening(H).item() + 0.5 * alignment(H).item())
    loss, terms = objective(H, "infonce", sigma=0.5)
    assert loss.item() == pytest.approx(infonce(H, 0.5).item())
    with pytest.raises(ValueError, match="mode='vicreg'"):
        objective(H, "vicreg")


def test_stacked_runs_score_like_separate_calls(gen):
    H = torch.randn(4, 2, 32, 3, generator=gen, dtype=torch.float64)
    D = random_directions(3, 16, gen, batch=(4,), dtype=torch.float64)
    lam = torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.float64)
    stacked, _ = objective(H, "lejepa", lam=lam, directions=D)
    for r in range(4):
        single, _ = objective(H[r], "lejepa", lam=lam[r].item(), directions=D[r])
        assert stacked[r].item() == pytest.approx(single.item(), rel=1e-12)
    for fn in (alignment, whitening, infonce):
        assert torch.allclose(fn(H), torch.stack([fn(h) for h in H]))


@pytest.mark.parametrize("loss", [whitening, lambda H: infonce(H, 0.7), alignment])
def test_shift_invariant_terms_give_no_gradient_along_a_common_shift(loss, gen):
    # Why an encoder's output bias only random-walks under these objectives (tests/test_cuda.py).
    H = torch.randn(2, 64, 3, dtype=torch.float64, generator=gen).requires_grad_()
    (grad,) = torch.autograd.grad(loss(H), H)
    assert grad.sum(dim=(0, 1)).abs().max() < 1e-12 * grad.abs().max() + 1e-15
    (sig,) = torch.autograd.grad(sigreg(H, num_directions=16, generator=gen), H)
    assert sig.sum(dim=(0, 1)).abs().max() > 1e-3 * sig.abs().max()  # SIGReg is not


def test_a_zero_draw_becomes_e1_and_every_other_column_is_unchanged():
    d = torch.tensor([[0.0, 3.0, -2.0, 0.0], [0.0, 4.0, 0.0, 0.0]])
    got = unit_columns(d)
    assert torch.equal(got[:, 0], torch.tensor([1.0, 0.0]))
    assert torch.equal(got[:, 3], torch.tensor([1.0, 0.0]))
    assert torch.equal(got[:, 1:3], d[:, 1:3] / d[:, 1:3].norm(dim=0, keepdim=True))
    one_dim = unit_columns(torch.tensor([[0.0, -0.5, 2.0]]))
    assert torch.equal(one_dim, torch.tensor([[1.0, -1.0, 1.0]]))


def test_the_one_dimensional_draw_that_made_a_codedim_run_nan_is_a_unit_direction():
    """codedim n2_m1 (m = 1, lejepa), seed 2, was recorded as diverged at step 2147: the
    float32 randn behind that step's SIGReg directions holds an exact 0, which plain
    division made NaN. The training stream now gives unit directions there, and the
    steps before it are the divided draws, as before."""
    from lejepa_id.objectives import build_objective
    from lejepa_id.runtime import generator
    from lejepa_id.training.streams import CHUNK, DrawStream
    from lejepa_id.training.trainer import _DIRECTIONS

    def gen() -> torch.Generator:
        return generator(torch.device("cpu"), 2, _DIRECTIONS, 0)

    step = 2146  # 0-based
    raw_gen = gen()
    for _ in range(step // CHUNK + 1):
        raw = torch.randn((CHUNK, 1, 256), generator=raw_gen)
    hit = raw[step % CHUNK]
    assert int((hit == 0).sum()) >= 1 and int((raw[: step % CHUNK] == 0).sum()) == 0
    assert not torch.isfinite(hit / hit.norm(dim=-2, keepdim=True)).all()

    stream = DrawStream(build_objective("lejepa"), 1, [gen()])
    for _ in range(step):
        assert torch.equal(stream.next().abs(), torch.ones(1, 1, 256))
    draw = stream.next()[0]
    assert torch.equal(draw.abs(), torch.ones(1, 256))
    assert torch.equal(draw[hit != 0], torch.sign(hit[hit != 0]))
