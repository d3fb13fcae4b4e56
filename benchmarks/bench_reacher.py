"""Reacher pace on one machine: rendering frames/s, training images/s, and the full sweep.

Renders a small OU set and the eval gallery, trains short runs of the cnn encoder in
three layouts (float32 NCHW, float32 channels-last, bfloat16 autocast + channels-last),
checks that the faster layouts leave the results unchanged, and extrapolates the paper's
full configuration (docs/model.md, section 8: 10,000 + 2 x 100,000 pairs rendered; 2 datasets x
4 lambdas x 3 seeds x 100 epochs x 100,000 pairs trained). Prints one JSON summary.

    MUJOCO_GL=egl python benchmarks/bench_reacher.py --out /tmp/bench_reacher

With ``--published DIR`` (the ``experiments/`` folder of a checkout of the published
code) it instead renders one set and times whole processes of this code beside the
published ``run_reacher.py`` on it (:mod:`reacher_versus_published`; CPU-seconds per
trained image, 1 thread), and ``--json`` writes the rows:

    nice -n 19 python benchmarks/bench_reacher.py --out /tmp/vs --published DIR \
        --published-site DIR_WITH_SKLEARN --size 64 --look fast --pairs 2048 --eval-n 2000 \
        --epochs 2 --json benchmarks/results/reacher-vs-published-cpu.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

FULL = {"eval": 10_000, "pairs": 100_000, "datasets": 2, "lams": 4, "seeds": 3, "epochs": 100}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", type=Path, required=True, help="scratch directory")
    ap.add_argument("--pairs", type=int, default=16_384, help="OU pairs to render and train on")
    ap.add_argument("--eval-n", type=int, default=10_000, help="eval gallery frames")
    ap.add_argument("--epochs", type=int, default=8, help="epochs of each timed run")
    ap.add_argument("--size", type=int, default=64, help="frame side")
    ap.add_argument("--device", default="auto", choices=["auto", "cpu", "cuda"])
    ap.add_argument("--workers", type=int, default=0, help="render processes (0: all cores)")
    ap.add_argument("--published", type=Path, help="published experiments/ folder: compare")
    ap.add_argument("--published-site", type=Path, help="PYTHONPATH folder with scikit-learn")
    ap.add_argument("--look", default="paper", choices=["paper", "fast"], help="with --published")
    ap.add_argument("--repeat", type=int, default=1, help="rounds, with --published")
    ap.add_argument("--json", type=Path, help="write the --published comparison here")
    args = ap.parse_args(argv)
    os.environ.setdefault("MUJOCO_GL", "egl")

    import torch

    from lejepa_id.reacher.datasets import RenderSpec, load_dataset, render_dataset
    from lejepa_id.reacher.training import TrainConfig, train_run
    from lejepa_id.runtime import resolve_device

    if args.published is not None:
        return _versus_published(args)
    device = resolve_device(args.device)
    summary: dict = {
        "device": torch.cuda.get_device_name(0) if device.type == "cuda" else "cpu",
        "cpu_cores": os.cpu_count(),
        "mujoco_gl": os.environ["MUJOCO_GL"],
    }

    def timed_render(spec: RenderSpec, name: str) -> float:
        t = time.perf_counter()
        meta = render_dataset(spec, args.out / name, workers=args.workers)
        # A resumed render (rerun of this script) did less work: time only what was done.
        fps = meta["frames_rendered_this_call"] / max(time.perf_counter() - t, 1e-9)
        print(f"render {name}: {fps:.0f} frames/s", file=sys.stderr, flush=True)
        return fps

    summary["render_fast_fps"] = timed_render(
        RenderSpec("eval", 4000, size=args.size, look="fast", seed=99), "eval_fast"
    )
    summary["render_paper_fps"] = timed_render(
        RenderSpec("eval", args.eval_n, size=args.size, look="paper"), "eval"
    )
    timed_render(RenderSpec("ou", args.pairs, size=args.size, look="paper"), "ou")
    gallery = load_dataset(args.out / "eval", "eval")
    train = load_dataset(args.out / "ou", "pairs")

    layouts = {
        "fp32_nchw": {"channels_last": False, "bf16": False},
        "fp32_channels_last": {"channels_last": True, "bf16": False},
        "bf16_channels_last": {"channels_last": True, "bf16": True},
    }
    # Every layout runs on the CPU too (bf16 is fast there only with bfloat16 arithmetic).
    runs = {}
    for name, opts in layouts.items():
        cfg = TrainConfig(lam=0.01, seed=0, epochs=args.epochs, device=device.type, **opts)
        res = train_run(train, gallery, cfg, args.out / "runs" / name, progress=False)
        # The first epoch includes cudnn autotuning and warm-up: report the later ones.
        later = [h["images_per_s"] for h in res.history[1:]] or [res.history[0]["images_per_s"]]
        runs[name] = {
            "images_per_s": sum(later) / len(later),
            "r2_hz": res.metrics["r2_hz"],
            "orth_err_whitened": res.metrics["orth_err_whitened"],
            "final_loss": res.history[-1]["loss"],
            "wall_s": res.wall_s,
        }
        print(f"train {name}: {json.dumps(runs[name])}", file=sys.stderr, flush=True)
    summary["train"] = runs
    ref = runs["fp32_nchw"]
    # "Unchanged" = the same identifiability to within seed-to-seed noise of short runs.
    ok = {n: abs(r["r2_hz"] - ref["r2_hz"]) < 0.02 for n, r in runs.items()}
    summary["layout_matches_fp32"] = ok
    best = max((n for n in runs if ok[n]), key=lambda n: runs[n]["images_per_s"])
    summary["chosen_layout"] = best

    n_runs = FULL["datasets"] * FULL["lams"] * FULL["seeds"]
    images = n_runs * FULL["epochs"] * FULL["pairs"] * 2
    frames = FULL["eval"] + FULL["datasets"] * FULL["pairs"] * 2
    summary["full_sweep"] = {
        "runs": n_runs,
        "train_images": images,
        "train_hours_sequential": images / runs[best]["images_per_s"] / 3600,
        "render_frames": frames,
        "render_minutes_paper_look": frames / summary["render_paper_fps"] / 60,
        "render_minutes_fast_look": frames / summary["render_fast_fps"] / 60,
        "dataset_gb_uint8": FULL["pairs"] * 2 * args.size * args.size * 3 / 1e9,
    }
    print(json.dumps(summary, indent=1))
    return 0


def _versus_published(args: argparse.Namespace) -> int:
    """Render one OU set and gallery, then time both codes on them (whole processes)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from reacher_versus_published import compare

    from lejepa_id.reacher.datasets import RenderSpec, render_dataset

    look = args.look
    render_dataset(RenderSpec("eval", args.eval_n, size=args.size, look=look), args.out / "eval")
    render_dataset(RenderSpec("ou", args.pairs, size=args.size, look=look), args.out / "ou")
    result = compare(args, args.out / "ou", args.out / "eval")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
