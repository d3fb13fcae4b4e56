"""The Reacher identification curve: is the encoder identified, and after how many steps?

    python scripts/reacher_identification.py RUNS [RUNS ...] --out docs/img/reacher-identification

RUNS are Reacher run folders, or folders above them, trained with ``identify_every`` > 0
(``lejepa-id reacher train ... --set identify_every=1``), so that each result.json holds
the encoder's scores during training. Runs are grouped into settings by what they were
trained on and how (frame size, look, pairs, epochs, batch, lambda); seeds are the
replicates of a setting. For every setting the figure draws, against optimizer steps,
R²(h → z), R²(h → sin/cos of the angles) and the whitened orthogonality error of each seed,
with the thresholds of the Reacher claims' premise "identified" (R² ≥ 0.95 and
orthogonality error ≤ 0.2, :data:`THRESHOLDS`). ``OUT.json`` and ``OUT.txt`` state, per
setting, the seeds identified at the end and the first step at which each seed met the
premise (and kept it to the end). It judges no claim: the claims read the planned runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from lejepa_id.analysis.claims.reacher_common import THRESHOLDS_V2
from lejepa_id.errors import UsageError

THRESHOLDS = {"r2": THRESHOLDS_V2["r2"], "orth": THRESHOLDS_V2["orth"]}
PANELS = (
    ("r2_hz", "R²(h → z)"),
    ("r2_h_sincos", "R²(h → sin/cos z)"),
    ("orth_err_whitened", "orthogonality error (whitened)"),
)


def setting_of(record: dict[str, Any]) -> tuple[str, ...]:
    """What a run was trained on and how, less its seed: the key replicates share."""
    config, data = record.get("config") or {}, (record.get("data") or {})
    train = data.get("train_identity") or {}
    return (
        str(train.get("kind", record.get("kind", "?"))),
        f"{train.get('size', '?')} px {train.get('look', '?')}",
        f"{train.get('n', '?')} pairs",
        f"{config.get('epochs', '?')} epochs",
        f"batch {config.get('batch', '?')}",
        f"λ {config.get('lam', '?')}",
    )


def read_runs(paths: list[Path]) -> dict[tuple[str, ...], list[dict[str, Any]]]:
    """Finished runs with an identification curve, by setting (seeds sorted)."""
    files: list[Path] = []
    for path in paths:
        if not path.exists():
            raise UsageError(f"RUNS {str(path)!r} does not exist")
        files += [path] if path.is_file() else sorted(path.rglob("result.json"))
    settings: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for file in files:
        try:
            record = json.loads(file.read_text())
        except (OSError, ValueError) as err:
            raise UsageError(f"{file}: not a readable result.json ({err})") from None
        curve = record.get("identification") if isinstance(record, dict) else None
        if record.get("status") != "finished" or not isinstance(curve, dict):
            continue
        run = {"path": str(file.parent), "seed": (record.get("config") or {}).get("seed")}
        settings.setdefault(setting_of(record), []).append({**run, "curve": curve})
    if not settings:
        raise UsageError(
            "RUNS: no finished Reacher run with an identification curve (train with "
            "--set identify_every=1)"
        )
    for runs in settings.values():
        runs.sort(key=lambda r: (r["seed"] is None, r["seed"]))
    return settings


def identified(curve: dict[str, list[float]], k: int) -> bool:
    return (
        curve["r2_hz"][k] >= THRESHOLDS["r2"]
        and curve["orth_err_whitened"][k] <= THRESHOLDS["orth"]
    )


def first_identified_step(curve: dict[str, list[float]]) -> int | None:
    """The first step from which the premise holds at every later check (None: it does
    not hold at the end)."""
    n = len(curve["step"])
    first = None
    for k in range(n - 1, -1, -1):
        if not identified(curve, k):
            break
        first = int(curve["step"][k])
    return first


def summary(settings: dict[tuple[str, ...], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    out = []
    for key, runs in settings.items():
        seeds = []
        for run in runs:
            c = run["curve"]
            seeds.append(
                {
                    "seed": run["seed"],
                    "run": run["path"],
                    "steps": int(c["step"][-1]),
                    "final": {name: float(c[name][-1]) for name, _ in PANELS},
                    "identified_at_end": identified(c, len(c["step"]) - 1),
                    "identified_from_step": first_identified_step(c),
                }
            )
        out.append(
            {
                "setting": ", ".join(key),
                "seeds": seeds,
                "identified": sum(s["identified_at_end"] for s in seeds),
                "of": len(seeds),
            }
        )
    return out


def text(rows: list[dict[str, Any]]) -> str:
    lines = [
        f"Identified: R²(h → z) ≥ {THRESHOLDS['r2']} and whitened orthogonality error ≤ "
        f"{THRESHOLDS['orth']} (the Reacher claims' premise)",
        "",
    ]
    for row in rows:
        lines.append(f"{row['setting']}: {row['identified']} of {row['of']} seeds identified")
        for s in row["seeds"]:
            when = s["identified_from_step"]
            lines.append(
                f"  seed {s['seed']}: {s['steps']} steps, R² {s['final']['r2_hz']:.4f}, "
                f"orth {s['final']['orth_err_whitened']:.3f}, "
                + (f"identified from step {when}" if when is not None else "not identified")
            )
    return "\n".join(lines) + "\n"


def draw(settings: dict[tuple[str, ...], list[dict[str, Any]]], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6), constrained_layout=True)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (key, runs) in enumerate(settings.items()):
        colour = colours[i % len(colours)]
        for j, run in enumerate(runs):
            c = run["curve"]
            for ax, (name, _) in zip(axes, PANELS, strict=True):
                ax.plot(c["step"], c[name], marker="o", ms=3, color=colour,
                        alpha=0.85, label=", ".join(key) if j == 0 else None)  # fmt: skip
    axes[0].axhline(THRESHOLDS["r2"], color="k", ls="--", lw=0.8)
    axes[1].axhline(THRESHOLDS["r2"], color="k", ls=":", lw=0.8)
    axes[2].axhline(THRESHOLDS["orth"], color="k", ls="--", lw=0.8)
    for ax, (_, label) in zip(axes, PANELS, strict=True):
        ax.set_xlabel("optimizer steps")
        ax.set_title(label, fontsize=10)
    axes[2].set_yscale("log")
    axes[0].legend(fontsize=7, loc="lower right", frameon=False)
    from lejepa_id.records.io import atomic_save_figure

    atomic_save_figure(fig, out.with_suffix(".png"), dpi=150)
    # No creation date, so that a figure drawn again from the same runs is the same file.
    atomic_save_figure(fig, out.with_suffix(".pdf"), metadata={"CreationDate": None})
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run folders or folders above them")
    parser.add_argument(
        "--out", type=Path, required=True, help="output stem (.png .pdf .json .txt)"
    )
    args = parser.parse_args(argv)
    try:
        settings = read_runs(args.runs)
    except UsageError as err:
        print(f"reacher_identification: {err}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    rows = summary(settings)
    draw(settings, args.out)
    from lejepa_id.records.io import atomic_write_bytes, atomic_write_json

    atomic_write_json(args.out.with_suffix(".json"), {"thresholds": THRESHOLDS, "settings": rows})
    atomic_write_bytes(args.out.with_suffix(".txt"), text(rows).encode())
    print(text(rows), end="")
    print(f"wrote {args.out}.png, .pdf, .json, .txt")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
