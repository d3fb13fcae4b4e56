"""The shared training step: equal to a plain hand-written loop, divergence recorded with
its step (never raised), the schedule and the chunked draws; the graph-ready program
(GraphedEngine without capture) equal to the reference step bit for bit on the CPU."""

from __future__ import annotations

import math

import pytest
import torch

from lejepa_id import RunConfig, train
from lejepa_id.encoders.stacked import build_encoder
from lejepa_id.errors import UsageError
from lejepa_id.objectives import build_objective
from lejepa_id.runtime import generator
from lejepa_id.training.engine import (
    STEP_VAR,
    Engine,
    GraphedEngine,
    Schedule,
    run_loop,
    step_engine,
)
from lejepa_id.training.streams import CHUNK, DrawStream

CPU = torch.device("cpu")
R, V, B, D = 2, 2, 32, 3


class Stream:
    """Gaussian pairs from a fixed generator; ``poison`` sets member 0's inputs to NaN
    at that 0-based step."""

    def __init__(self, seed: int, members: int = R, poison: int | None = None) -> None:
        self.gen = torch.Generator().manual_seed(seed)
        self.members, self.poison, self.calls = members, poison, 0

    def next(self) -> torch.Tensor:
        x = torch.randn(self.members, V, B, D, generator=self.gen)
        if self.calls == self.poison:
            x[0] = float("nan")
        self.calls += 1
        return x


def _parts(members: int, seeds=(11, 12), mode="lejepa"):
    enc = build_encoder("mlp", D, list(seeds[:members]), D, hidden=16, depth=2)

    def encode(X: torch.Tensor) -> torch.Tensor:
        r, v, b, d = X.shape
        return enc(X.reshape(r, v * b, d)).reshape(r, v, b, -1)

    obj = build_objective(mode, **({"num_directions": 8} if mode == "lejepa" else {}))
    gens = [generator(CPU, 5, 4, k) for k in range(members)]
    lam = torch.tensor([0.1, 0.4][:members])
    return enc, encode, obj, DrawStream(obj, D, gens), lam


def _engine(members=R, poison=None, clip=None, steps=20, cls=Engine, mode="lejepa"):
    enc, encode, obj, draws, lam = _parts(members, mode=mode)
    per_run = {k: lam for k in obj.per_run}
    engine = cls(
        enc, encode, Stream(0, members, poison), obj, draws, Schedule(1e-2, steps, hold=0),
        weight_decay=1e-3, per_run=per_run, device=CPU, members=members, clip=clip,
    )  # fmt: skip
    return engine, enc


@pytest.mark.parametrize("clip", [None, 0.05])
def test_engine_equals_a_plain_adamw_loop(clip):
    members = 1 if clip else R  # clipping couples stacked members: one member only
    steps = 20
    engine, enc = _engine(members, clip=clip, steps=steps)
    for step in range(steps):
        engine.step(step)
    # The same training written out by hand.
    ref, encode, obj, _, lam = _parts(members)
    data = Stream(0, members)
    gens = [generator(CPU, 5, 4, k) for k in range(members)]
    chunks = [obj.draw(D, g, CHUNK) for g in gens]
    opt = torch.optim.AdamW(ref.parameters(), lr=1e-2, weight_decay=1e-3, fused=True)
    for step in range(steps):
        directions = torch.stack([c[step % CHUNK] for c in chunks])
        if step % CHUNK == CHUNK - 1:
            chunks = [obj.draw(D, g, CHUNK) for g in gens]
        loss, _ = obj.loss(encode(data.next()), directions, lam=lam)
        for g in opt.param_groups:
            g["lr"] = 1e-2 * 0.5 * (1 + math.cos(math.pi * step / steps))
        opt.zero_grad()
        loss.sum().backward()
        if clip:
            torch.nn.utils.clip_grad_norm_(ref.parameters(), clip)
        opt.step()
    for a, b in zip(enc.parameters(), ref.parameters()):
        assert torch.equal(a, b)
    assert engine.diverged_steps() == [None] * members


def test_a_diverged_member_is_recorded_with_its_step_and_the_others_go_on():
    engine, enc = _engine(poison=6)
    losses = [engine.step(step)[0] for step in range(10)]  # never raises
    assert not math.isfinite(float(losses[6][0])) and math.isfinite(float(losses[6][1]))
    assert engine.diverged_steps() == [7, None]  # 1-based: the 7th step
    assert engine.any_alive()
    assert all(torch.isfinite(p).all() for p in enc.parameters())  # dead slices stay finite
    # The survivor trained exactly as it would have next to a healthy member.
    healthy, ref = _engine()
    for step in range(10):
        healthy.step(step)
    for a, b in zip(enc.parameters(), ref.parameters()):
        assert torch.equal(a[1], b[1])
    assert not torch.equal(next(enc.parameters())[0], next(ref.parameters())[0])


def test_a_lone_member_that_diverges_stops_everything():
    engine, _ = _engine(members=1, poison=0, clip=1.0)
    engine.step(0)
    assert engine.diverged_steps() == [1] and not engine.any_alive()


@pytest.mark.parametrize(("sync", "stopped"), [(True, 3), (False, 5)])
def test_run_loop_evaluates_on_time_and_stops_when_no_member_trains(sync, stopped):
    # The lone member diverges at its 3rd step: a synced loop stops right there, the
    # other at the next evaluation (after step 5), as a GPU run reads its flags then.
    engine, _ = _engine(members=1, poison=2, steps=10)
    engine.sync_each_step = sync
    seen: list[tuple[str, int]] = []
    done = run_loop(
        engine,
        10,
        {1, 5, 10},
        lambda n: seen.append(("eval", n)),
        lambda step, loss, terms: seen.append(("step", step)),
    )
    assert done == stopped and engine.diverged_steps() == [3]
    steps = [("step", s) for s in range(stopped)]
    assert seen == [steps[0], ("eval", 1), *steps[1:]] + ([("eval", 5)] if not sync else [])
    # A healthy run does every step and every evaluation, in order.
    healthy, _ = _engine(members=1, steps=10)
    evals: list[int] = []
    assert run_loop(healthy, 10, {4, 10}, evals.append) == 10 and evals == [4, 10]


def test_schedule_holds_then_decays_and_hold_zero_is_plain_cosine():
    plain = Schedule(3e-3, 100, hold=0)
    for step in (0, 10, 50, 99, 100):
        want = 0.5 * 3e-3 * (1 + math.cos(math.pi * step / 100))
        assert plain.at(step) == pytest.approx(want, rel=1e-12, abs=1e-18)
    held = Schedule(1.0, 100)
    assert held.at(49) == 1.0 and held.at(75) == pytest.approx(0.5)


def test_draw_stream_hands_out_chunks_in_order_per_member():
    obj = build_objective("lejepa", num_directions=4)
    stream = DrawStream(obj, 2, [generator(CPU, 1, 4, 0), generator(CPU, 2, 4, 0)])
    got = torch.stack([stream.next() for _ in range(CHUNK + 1)])  # (CHUNK + 1, 2, 2, 4)
    for r, seed in enumerate((1, 2)):
        gen = generator(CPU, seed, 4, 0)
        first, second = obj.draw(2, gen, CHUNK), obj.draw(2, gen, CHUNK)
        assert torch.equal(got[:CHUNK, r], first) and torch.equal(got[CHUNK, r], second[0])
    assert DrawStream(build_objective("whiten"), 2, [generator(CPU, 1)]).next() is None


@pytest.mark.parametrize(
    ("mode", "members", "clip", "poison"),
    [
        ("lejepa", R, None, None),
        ("whiten", R, None, None),
        ("infonce", R, None, None),
        ("lejepa", 1, 0.05, None),
        ("lejepa", R, None, 6),  # member 0 diverges at its 7th step
    ],
)
def test_graph_ready_program_equals_the_reference_step_bit_for_bit(mode, members, clip, poison):
    steps = 2 * CHUNK + 3  # crosses two chunk boundaries of data and directions
    ref, ref_enc = _engine(members, poison, clip, steps, mode=mode)
    new, new_enc = _engine(members, poison, clip, steps, cls=GraphedEngine, mode=mode)
    assert not new.capture  # off CUDA the program runs eagerly
    for step in range(steps):
        loss_ref, terms_ref = ref.step(step)
        loss_new, terms_new = new.step(step)
        torch.testing.assert_close(loss_new, loss_ref, rtol=0, atol=0, equal_nan=True)
        assert terms_new.keys() == terms_ref.keys()
    for a, b in zip(ref_enc.parameters(), new_enc.parameters()):
        assert torch.equal(a, b)
    assert new.diverged_steps() == ref.diverged_steps()
    assert new.diverged_steps() == ([7, None] if poison else [None] * members)
    assert int(new.step_t) == steps


def test_a_cuda_graph_is_refused_off_cuda():
    with pytest.raises(ValueError, match="CUDA device"):
        _engine(cls=lambda *a, **k: GraphedEngine(*a, capture=True, **k))


def test_step_path_from_the_environment():
    cuda = torch.device("cuda")
    assert step_engine(CPU, {}) is Engine
    assert step_engine(CPU, {STEP_VAR: "eager"}) is Engine
    static = step_engine(CPU, {STEP_VAR: "static"})
    assert static.func is GraphedEngine and static.keywords == {"capture": False}
    assert step_engine(cuda, {}).keywords == {"capture": True}
    assert step_engine(cuda, {STEP_VAR: "eager"}) is Engine
    with pytest.raises(UsageError, match=f"{STEP_VAR}='fast' is not one of auto, eager"):
        step_engine(CPU, {STEP_VAR: "fast"})
    with pytest.raises(UsageError, match="graph needs a CUDA device, got cpu"):
        step_engine(CPU, {STEP_VAR: "graph"})


def test_a_run_on_the_graph_ready_program_equals_the_reference_run(monkeypatch):
    cfg = RunConfig(
        steps=40, eval_size=300, hidden=32, num_directions=16, device="cpu", eval_every=20
    )
    reference = train(cfg, progress=False)
    monkeypatch.setenv(STEP_VAR, "static")
    program = train(cfg, progress=False)
    assert program.metrics == reference.metrics and program.curves == reference.curves
    for k, v in reference.weights.items():
        assert torch.equal(v, program.weights[k]), k
