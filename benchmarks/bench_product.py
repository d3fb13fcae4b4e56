"""Pace of the 2d step's matrix product on this CPU, per torch thread count.

    python benchmarks/bench_product.py --threads 1 2 --repeat 2

Times ``torch.mm`` of a 512 x 256 by a 256 x 256 float32 matrix (one hidden layer of the
2d mlp on 256 latents x 2 views) and prints microseconds per product and GFLOP/s: the
arithmetic ceiling a 2d training step sits under (nine such products per step). A
benchmark, not a test; alternate the counts with ``--repeat`` to see the spread.
"""

from __future__ import annotations

import argparse
import time

import torch

ROWS, INNER, COLS = 512, 256, 256


def pace(threads: int, products: int) -> float:
    """Seconds per product with ``threads`` intra-op threads (after a warm-up)."""
    torch.set_num_threads(threads)
    a, b = torch.randn(ROWS, INNER), torch.randn(INNER, COLS)
    for _ in range(products // 10):
        a @ b
    start = time.perf_counter()
    for _ in range(products):
        a @ b
    return (time.perf_counter() - start) / products


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--products", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    flop = 2 * ROWS * INNER * COLS
    for _ in range(args.repeat):
        for threads in args.threads:
            dt = pace(threads, args.products)
            print(
                f"threads {threads}: {dt * 1e6:7.1f} us per product, {flop / dt / 1e9:6.1f} GFLOP/s"
            )


if __name__ == "__main__":
    main()
