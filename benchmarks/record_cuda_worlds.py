"""Record the coupling worlds that the published draw procedure gives on a CUDA device.

The paper's scaling worlds were drawn on a GPU, and CUDA's random stream differs from the
CPU's, so a CPU can only train on them if their weights travel as data. This script draws
``coupling_weights(N, 4, seed, draw="published", device="cuda")`` for every N of the
scaling sweep and seeds 0..4, and writes the weights (float32, key ``N{N}_seed{seed}``) in
npz files of at most about 12 MiB, and a JSON manifest with the SHA-256 of each array's
bytes, the device name and the torch version. It also checks, per world, that the
generator path equals the published code's global-seed path (``torch.manual_seed`` then
``torch.randn`` on the default CUDA generator) bit for bit.

Usage (on a machine with CUDA):  python benchmarks/record_cuda_worlds.py OUT_DIR
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import torch

from lejepa_id.worlds.mixings import coupling_weights

DIMS = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
SEEDS = (0, 1, 2, 3, 4)
LAYERS = 4
CHUNK_BYTES = 12 * 2**20


def global_seed_draw(dim: int, seed: int) -> torch.Tensor:
    """The published code's procedure as written there: the default generator, per layer."""
    torch.manual_seed(seed)
    mats = []
    for _ in range(LAYERS):
        q, _ = torch.linalg.qr(torch.randn(dim // 2, dim // 2, device="cuda"))
        mats.append(2.0 * q)
    return torch.stack(mats)


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    manifest: dict = {
        "device": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "layers": LAYERS,
        "worlds": {},
    }
    chunks: list[dict[str, np.ndarray]] = [{}]
    size = 0
    for dim in DIMS:
        for seed in SEEDS:
            W = coupling_weights(dim, LAYERS, seed, draw="published", device="cuda")
            same = torch.equal(W, global_seed_draw(dim, seed))
            arr = W.cpu().numpy().astype(np.float32)
            if size + arr.nbytes > CHUNK_BYTES and chunks[-1]:
                chunks.append({})
                size = 0
            key = f"N{dim}_seed{seed}"
            chunks[-1][key] = arr
            size += arr.nbytes
            manifest["worlds"][key] = {
                "sha256": hashlib.sha256(arr.tobytes()).hexdigest(),
                "file": f"cuda_worlds_{len(chunks) - 1}.npz",
                "equals_global_seed_path": same,
            }
    for i, chunk in enumerate(chunks):
        np.savez(out / f"cuda_worlds_{i}.npz", **chunk)
    (out / "cuda_worlds.json").write_text(json.dumps(manifest, indent=1) + "\n")
    bad = [k for k, v in manifest["worlds"].items() if not v["equals_global_seed_path"]]
    print(
        f"recorded {len(manifest['worlds'])} worlds in {len(chunks)} files; "
        f"generator path differs from the global-seed path for: {bad or 'none'}"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
