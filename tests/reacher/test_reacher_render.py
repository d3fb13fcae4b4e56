"""Rendering, the controller and the on-disk datasets (needs mujoco + dm_control + GL)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from lejepa_id.errors import UsageError
from lejepa_id.reacher import controller
from lejepa_id.reacher.datasets import RenderSpec, load_dataset, render_dataset
from lejepa_id.reacher.render import (
    CAMERA_FOVY,
    CAMERA_HEIGHT,
    TARGET_XY,
    ReacherRenderer,
    arm_points,
    world_to_pixel,
)


def test_frames_are_a_deterministic_function_of_the_angles(needs_rendering):
    r = ReacherRenderer(32, "fast")
    try:
        a = r.render(np.array([0.3, -0.5]))
        b = r.render_batch(np.array([[0.3, -0.5], [1.2, 0.8]]))
    finally:
        r.close()
    assert a.shape == (32, 32, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b[0])
    assert not np.array_equal(b[0], b[1])


def test_scene_matches_the_spec(needs_rendering):
    r = ReacherRenderer(64, "paper")
    try:
        p = r.physics
        assert np.allclose(p.named.model.geom_pos["target"][:2], TARGET_XY)
        # the published renderer never calls env.reset(): the model's default radius
        assert p.named.model.geom_size["target", 0] == pytest.approx(0.05)
        assert p.model.cam_pos[0][2] == pytest.approx(CAMERA_HEIGHT)
        assert p.model.cam_fovy[0] == pytest.approx(CAMERA_FOVY)
        q = np.array([0.6, -1.1])
        frame = r.render(q)
        assert np.allclose(p.data.qvel, 0.0)
        tip = p.named.data.geom_xpos["finger"][:2]
        assert np.allclose(tip, arm_points(q)[2], atol=1e-6)  # the figure's geometry
    finally:
        r.close()
    # The target's pixel is red-dominated: the projection used for annotations is right.
    col, row = np.round(world_to_pixel(np.array(TARGET_XY), 64)).astype(int)
    pixel = frame[row, col].astype(int)
    assert pixel[0] > pixel[2] + 40


def test_small_target_is_the_reset_size_and_the_big_one_covers_more_pixels(needs_rendering):
    q = np.array([0.5, 0.4])  # the fingertip near the target: the big target covers the arm
    frames = {}
    for target in ("big", "small"):
        r = ReacherRenderer(64, "paper", target)
        try:
            radius = r.physics.named.model.geom_size["target", 0]
            assert radius == pytest.approx({"big": 0.05, "small": 0.015}[target])
            frames[target] = r.render(q).astype(int)
        finally:
            r.close()
    differ = np.any(frames["big"] != frames["small"], axis=-1)
    rows, cols = np.nonzero(differ)
    col, row = world_to_pixel(np.array(TARGET_XY), 64)
    # Every changed pixel lies within the big target's disk (radius 0.05 seen from the
    # camera, plus two pixels of shadow and antialiasing), and the disk is mostly changed.
    r_px = world_to_pixel(np.array([TARGET_XY[0] + 0.05, TARGET_XY[1]]), 64)[0] - col
    dist = np.hypot(cols - col, rows - row)
    assert differ.sum() > 0.5 * np.pi * r_px**2
    assert dist.max() < r_px + 3
    with pytest.raises(UsageError, match="target='huge' is not one of big, small"):
        ReacherRenderer(16, "fast", "huge")


def test_looks_differ(needs_rendering):
    frames = []
    for look in ("paper", "fast"):
        r = ReacherRenderer(32, look)
        frames.append(r.render(np.zeros(2)))
        r.close()
    assert not np.array_equal(*frames)


def test_bad_look_and_size_are_usage_errors(needs_rendering):
    with pytest.raises(UsageError, match="look"):
        ReacherRenderer(32, "pretty")
    with pytest.raises(UsageError, match="size"):
        ReacherRenderer(4, "fast")


@pytest.mark.parametrize("backend", ["bogus", "disable"])
def test_unusable_gl_backend_is_one_line_exit_2(needs_rendering, tmp_path, backend):
    out = tmp_path / "never"
    env = {**os.environ, "MUJOCO_GL": backend}
    cmd = [
        sys.executable,
        "-m",
        "lejepa_id.cli.reacher",
        "reacher",
        "render",
        "eval",
        "--out",
        str(out),
        "--n",
        "4",
        "--size",
        "16",
    ]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    line = [s for s in proc.stderr.splitlines() if s.startswith("error:")]
    assert len(line) == 1
    assert "libegl1" in line[0] and "libosmesa6" in line[0]
    assert "MUJOCO_GL=egl" in line[0] and "MUJOCO_GL=osmesa" in line[0]
    assert not out.exists()  # nothing half-written


def test_controller_reaches_its_goals(needs_rendering):
    from lejepa_id.reacher.render import load_physics, set_angles

    physics = load_physics()
    set_angles(physics, np.zeros(2))
    goal = np.array([1.0, -1.0])
    cfg = controller.ControllerConfig(noise_std=0.0)
    for _ in range(100):
        q, qd = physics.data.qpos.copy(), physics.data.qvel.copy()
        physics.set_control(np.clip(cfg.kp * (goal - q) - cfg.kd * qd, -1, 1))
        physics.step()
    assert np.allclose(physics.data.qpos, goal, atol=0.05)


def test_trajectory_pairs_are_deterministic_and_prefix_stable(needs_rendering):
    a = controller.trajectory_pairs(300, delta=16, seed=3, episode_steps=200)
    b = controller.trajectory_pairs(100, delta=16, seed=3, episode_steps=200)
    assert a.shape == (300, 2, 2)
    assert np.array_equal(a[:100], b)
    assert np.all(np.abs(a[..., 0]) <= np.pi)


def test_pair_diagnostics_known_answers():
    rng = np.random.default_rng(0)
    z = rng.standard_normal((20000, 2))
    ou = np.stack([z, 0.9 * z + np.sqrt(1 - 0.81) * rng.standard_normal(z.shape)], 1)
    d = controller.pair_diagnostics(ou)
    for j in d["per_joint"]:
        assert j["lag_corr"] == pytest.approx(0.9, abs=0.01)
        assert abs(j["skew"]) < 0.05 and abs(j["excess_kurtosis"]) < 0.1
        assert j["normaltest_p"] > 1e-3
    u = rng.uniform(-np.pi, np.pi, (20000, 2, 2))
    d = controller.pair_diagnostics(u)
    assert all(j["excess_kurtosis"] < -1.0 and j["normaltest_p"] < 1e-6 for j in d["per_joint"])


def test_datasets_have_the_spec_layout(tiny_data):
    g = load_dataset(tiny_data / "eval", "eval")
    assert g.frames.shape == (240, 1, 32, 32, 3) and g.frames.dtype == np.uint8
    assert g.angles.shape == (240, 1, 2)
    ou = load_dataset(tiny_data / "ou", "pairs")
    assert ou.frames.shape == (160, 2, 32, 32, 3)
    assert len(ou.meta["norm"]["mean"]) == 3 and min(ou.meta["norm"]["std"]) > 0
    x = ou.frames.reshape(-1, 3) / 255.0
    assert np.allclose(x.mean(0), ou.meta["norm"]["mean"], atol=1e-9)
    traj = load_dataset(tiny_data / "traj", "pairs")
    assert "diagnostics" in traj.meta and "controller" in traj.meta
    # eval and ou draw from different streams even with equal seeds
    assert not np.allclose(g.angles[:10, 0], ou.angles[:10, 0])


def test_interrupted_render_resumes_identically(needs_rendering, tmp_path):
    spec = RenderSpec("ou", 60, size=16, look="fast", shard_size=20)
    render_dataset(spec, tmp_path / "a", workers=1)
    first = load_dataset(tmp_path / "a").frames.copy()
    # Simulate a crash: one shard lost, a stray temp file, the completion mark not written.
    meta_path = tmp_path / "a" / "dataset.json"
    meta = json.loads(meta_path.read_text())
    meta["complete"] = False
    meta_path.write_text(json.dumps(meta))
    (tmp_path / "a" / "shards" / "frames_00001.npy").unlink()
    (tmp_path / "a" / "shards" / ".frames_00002.npy.x.tmp").write_bytes(b"junk")
    with pytest.raises(UsageError, match="partial"):
        load_dataset(tmp_path / "a")
    meta = render_dataset(spec, tmp_path / "a", workers=1)
    assert meta["frames_rendered_this_call"] == 40  # only the missing shard (20 pairs)
    assert np.array_equal(load_dataset(tmp_path / "a").frames, first)


def test_render_refuses_a_different_dataset_in_place(tiny_data):
    with pytest.raises(UsageError, match="different dataset"):
        render_dataset(RenderSpec("ou", 999, size=32, look="fast"), tiny_data / "ou", workers=1)


def test_missing_and_wrong_kind_datasets_are_usage_errors(tiny_data, tmp_path):
    with pytest.raises(UsageError, match="not a reacher dataset"):
        load_dataset(tmp_path / "nothing")
    with pytest.raises(UsageError, match="eval gallery"):
        load_dataset(tiny_data / "eval", "pairs")
    with pytest.raises(UsageError, match="--eval needs"):
        load_dataset(tiny_data / "ou", "eval")


def test_angle_coverage_known_answers():
    rng = np.random.default_rng(0)
    u = rng.uniform(-np.pi, np.pi, (50000, 1, 1))
    g = rng.standard_normal((50000, 1, 1))
    assert controller.angle_coverage(u)[0]["circle_fraction"] == 1.0
    # N(0, 1) reaches a tenth of the uniform density (1 / 20 pi) at |a| = 2.49: 5/6 of
    # the 72 bins, give or take the two edge bins.
    assert controller.angle_coverage(g)[0]["circle_fraction"] == pytest.approx(60 / 72, abs=2 / 72)
    pairs = np.array([[[3.0], [-3.0]], [[0.1], [0.2]], [[-3.1], [3.1]], [[1.0], [1.5]]])
    cov = controller.angle_coverage(pairs)[0]
    assert cov["wrap_fraction"] == 0.5 and cov["std"] == pytest.approx(np.std(pairs[:, 0, 0]))


def test_coverage_matched_trajectories_stay_in_the_ou_range(needs_rendering):
    cfg = controller.ControllerConfig(goals="gaussian")
    pairs = controller.trajectory_pairs(2000, delta=16, seed=0, episode_steps=500, cfg=cfg)
    circle = controller.trajectory_pairs(2000, delta=16, seed=0, episode_steps=500)
    matched, wrapped = controller.angle_coverage(pairs)[0], controller.angle_coverage(circle)[0]
    assert matched["wrap_fraction"] == 0.0 and wrapped["wrap_fraction"] > 0.02
    assert matched["q01"] > -2.6 and matched["q99"] < 2.6  # OU (std 1): +-2.33
    assert wrapped["std"] > 1.5 > matched["std"]
    with pytest.raises(UsageError, match="goals='ring' is not one of circle, gaussian"):
        controller.trajectory_pairs(10, cfg=controller.ControllerConfig(goals="ring"))


def test_datasets_report_coverage_and_refuse_a_mixed_look(tiny_data, tmp_path):
    from lejepa_id.reacher.datasets import check_same_size

    for kind in ("eval", "ou", "traj", "trajmatch"):
        meta = load_dataset(tiny_data / kind).meta
        assert len(meta["coverage"]) == 2 and meta["identity"]["target"] == "big"
    tm = load_dataset(tiny_data / "trajmatch")
    assert tm.meta["controller"]["goals"] == "gaussian"
    assert tm.meta["coverage"][0]["wrap_fraction"] == 0.0
    small = tmp_path / "eval_small_target"
    render_dataset(RenderSpec("eval", 20, size=32, look="fast", target="small"), small, workers=1)
    with pytest.raises(UsageError, match="looks differ"):
        check_same_size(tm, load_dataset(small))


def _children(pid: int) -> list[int]:
    """Pids of the render workers (spawned processes) whose parent is ``pid``."""
    from pathlib import Path

    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid and b"spawn_main" in cmdline:
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    from pathlib import Path

    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_render_workers_die_with_a_killed_parent(needs_rendering, tmp_path):
    import signal
    import time

    out = tmp_path / "big"
    code = (
        "from lejepa_id.reacher.datasets import RenderSpec, render_dataset\n"
        f"render_dataset(RenderSpec('eval', 200000, size=16, look='fast', shard_size=100), "
        f"{str(out)!r}, workers=2)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 240
        shards = out / "shards"
        while time.monotonic() < deadline and not (shards.is_dir() and any(shards.iterdir())):
            assert parent.poll() is None
            time.sleep(0.2)
        workers = _children(parent.pid)
        assert len(workers) == 2, workers
    finally:
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers)
    count = len(list(shards.glob("*.npy")))
    time.sleep(2)
    assert len(list(shards.glob("*.npy"))) == count  # nothing written after the kill


def test_render_bar_shows_unless_progress_is_off(needs_rendering, tmp_path, capfd):
    # `paper --no-progress` passes progress=False: no render bar on stderr.
    spec = RenderSpec("eval", 20, size=16, look="fast")
    render_dataset(spec, tmp_path / "shown", workers=1)
    assert "render eval" in capfd.readouterr().err
    render_dataset(spec, tmp_path / "hidden", workers=1, progress=False)
    assert "render eval" not in capfd.readouterr().err
