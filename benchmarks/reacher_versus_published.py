"""Reacher training, whole process, this code beside the published ``run_reacher.py``.

    nice -n 19 python benchmarks/bench_reacher.py --out /tmp/vs \\
        --published /path/to/checkout/experiments --pairs 2048 --epochs 2 \\
        --json benchmarks/results/reacher-vs-published-cpu-DATE.json

Renders one OU set and one eval gallery with this code, writes them a second time in the
published layout (``img_t.npy`` ... NCHW uint8, ``img_mean.npy``/``img_std.npy``), then
runs, one fresh Python process each, interleaved over ``--repeat`` rounds so that drifting
background load hits all alike:

- ``published``: ``run_reacher.py`` as it is (its DataLoader with 4 workers, its
  per-epoch evaluation on 2,000 gallery frames, its final evaluation), from a copy of its
  ``configs/reacher.yaml`` with ``epochs``, ``out``, ``data_root``, one lambda (0.01) and
  one seed (0) replaced;
- ``ours_nchw``: this code's float32 NCHW reference (``channels_last: false``);
- ``ours``: this code's default (float32, NHWC);
- ``ours_bf16``: bfloat16 autocast (an opt-in that changes the numbers).

Each process loads the data, trains one encoder for ``--epochs`` epochs of batch 256 on
the same pairs, evaluates it and writes its results. The CPU time is the process's user +
system time including its children (the published DataLoader workers), from
``RUSAGE_CHILDREN``: on a machine shared with other jobs it moves far less than wall time,
so CPU-seconds per trained image (and its inverse, images per CPU-second) is the number to
compare; wall time is printed beside it. Both codes run with ``OMP_NUM_THREADS=1``.

The published code needs scikit-learn; ``--published-site`` adds a folder holding it to
that process's ``PYTHONPATH`` only. A benchmark, not a test.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import yaml

REPO = Path(__file__).resolve().parents[1]

# One Reacher run of this code as a whole process: load, train, evaluate, save.
OURS = """
import sys, torch
torch.set_num_threads(1)
from lejepa_id.reacher.datasets import load_dataset
from lejepa_id.reacher.training import TrainConfig, train_run
train, gallery = load_dataset(sys.argv[1], "pairs"), load_dataset(sys.argv[2], "eval")
cfg = TrainConfig(lam=0.01, seed=0, epochs=int(sys.argv[4]), device="cpu",
                  channels_last=sys.argv[5] == "1", bf16=sys.argv[6] == "1")
res = train_run(train, gallery, cfg, sys.argv[3], progress=False)
print(res.metrics["r2_hz"], res.metrics["orth_err_whitened"])
"""
# name -> (channels_last, bf16)
OUR_VARIANTS = {"ours_nchw": (False, False), "ours": (True, False), "ours_bf16": (True, True)}


def export_published(ours_pairs: Path, ours_eval: Path, root: Path) -> Path:
    """Write our rendered sets in the published layout under ``root``; returns the
    training folder (the gallery goes to ``root/eval``, where run_reacher.py looks)."""
    from lejepa_id.reacher.datasets import load_dataset

    pairs, gallery = load_dataset(ours_pairs, "pairs"), load_dataset(ours_eval, "eval")
    train_dir, eval_dir = root / "ou", root / "eval"
    train_dir.mkdir(parents=True, exist_ok=True)
    eval_dir.mkdir(parents=True, exist_ok=True)
    nchw = pairs.frames.transpose(0, 1, 4, 2, 3)  # (n, 2, 3, S, S)
    norm = pairs.meta["norm"]
    for name, arr in {
        "img_t": nchw[:, 0],
        "img_tp1": nchw[:, 1],
        "z_t": pairs.angles[:, 0].astype(np.float32),
        "z_tp1": pairs.angles[:, 1].astype(np.float32),
        "img_mean": np.asarray(norm["mean"], np.float32),
        "img_std": np.asarray(norm["std"], np.float32),
    }.items():
        np.save(train_dir / f"{name}.npy", np.ascontiguousarray(arr))
    (train_dir / "meta.json").write_text(json.dumps({"kind": "ou", "n": len(pairs.frames)}))
    g = gallery.frames[:, 0].transpose(0, 3, 1, 2)
    np.save(eval_dir / "img.npy", np.ascontiguousarray(g))
    np.save(eval_dir / "z.npy", gallery.angles[:, 0].astype(np.float32))
    gnorm = gallery.meta["norm"]
    np.save(eval_dir / "img_mean.npy", np.asarray(gnorm["mean"], np.float32))
    np.save(eval_dir / "img_std.npy", np.asarray(gnorm["std"], np.float32))
    return train_dir


def cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    """Wall and CPU (user + system, children included) seconds of one whole process."""
    cpu, start = cpu_children(), time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-3000:]}")
    return wall, cpu_children() - cpu, proc.stdout


def compare(args, pairs_dir: Path, eval_dir: Path) -> dict:
    """Run the rounds; print and return the rows and per-round ratios."""
    published = Path(args.published).resolve()
    work = args.out / "versus"
    train_dir = export_published(pairs_dir, eval_dir, work / "published_data")
    cfg = yaml.safe_load((published / "configs" / "reacher.yaml").read_text())
    cfg.update(
        epochs=args.epochs,
        out=str(work / "published_out"),
        data_root=str(work / "published_data"),
        lambs=[0.01],
        seeds=[0],
    )
    cfg_path = work / "reacher.yaml"
    cfg_path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    base.update(OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    pub_env = dict(base)
    if args.published_site:
        pub_env["PYTHONPATH"] = str(Path(args.published_site).resolve())
    ours_env = dict(base, PYTHONPATH=str(REPO / "src"))
    n = int(np.load(train_dir / "z_t.npy", mmap_mode="r").shape[0])
    images = args.epochs * (n // 256) * 512
    rows: list[dict] = []
    for rnd in range(args.repeat):
        cmds = {
            "published": (
                [sys.executable, str(published / "run_reacher.py"), "--config", str(cfg_path)]
                + ["--data_dir", str(train_dir)],
                pub_env,
                published,
            )
        }
        for name, (cl, bf) in OUR_VARIANTS.items():
            out = work / "ours_out" / f"{name}-{rnd}" / "run"
            cmd = [sys.executable, "-c", OURS, str(pairs_dir), str(eval_dir), str(out)]
            cmds[name] = (cmd + [str(args.epochs), str(int(cl)), str(int(bf))], ours_env, REPO)
        for name, (cmd, env, cwd) in cmds.items():
            load = os.getloadavg()[0]
            wall, cpu, _ = timed(cmd, env, cwd)
            row = {
                "round": rnd,
                "code": name,
                "wall_s": wall,
                "cpu_s": cpu,
                "trained_images": images,
                "cpu_ms_per_image": 1e3 * cpu / images,
                "images_per_cpu_s": images / cpu,
                "images_per_wall_s": images / wall,
                "load_1min_before": load,
            }
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    codes = ["published", *OUR_VARIANTS]
    summary = {}
    for code in codes:
        mine = [r for r in rows if r["code"] == code]
        summary[code] = {
            k: statistics.median(r[k] for r in mine)
            for k in ("cpu_s", "wall_s", "cpu_ms_per_image", "images_per_cpu_s")
        }
    ratios = {
        code: [
            p["cpu_s"] / o["cpu_s"]
            for p, o in zip(
                [r for r in rows if r["code"] == "published"],
                [r for r in rows if r["code"] == code],
                strict=True,
            )
        ]
        for code in OUR_VARIANTS
    }
    for code in codes:
        s = summary[code]
        print(
            f"{code:10s} cpu {s['cpu_s']:8.1f} s  wall {s['wall_s']:8.1f} s  "
            f"{s['cpu_ms_per_image']:.3f} CPU-ms/image  {s['images_per_cpu_s']:7.0f} images/CPU-s"
            + (f"  published/this CPU time per round: {ratios[code]}" if code in ratios else "")
        )
    return {
        "what": "Reacher training, whole process, ours vs published run_reacher.py",
        "cpu": platform.processor() or platform.machine(),
        "cpu_cores": os.cpu_count(),
        "threads": 1,
        "size": args.size,
        "look": args.look,
        "pairs": n,
        "epochs": args.epochs,
        "batch": 256,
        "rows": rows,
        "median": summary,
        "ratio_published_over_ours_cpu": ratios,
    }
