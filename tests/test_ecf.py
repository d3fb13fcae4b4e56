"""The compiled and the PyTorch recurrences give the direct trigonometric values."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch

from lejepa_id.objectives import ecf as ecf


@pytest.fixture(params=["numba", "torch"])
def backend(request, monkeypatch):
    if request.param == "torch":
        monkeypatch.setattr(ecf, "_kernels", lambda: None)
    elif ecf._kernels() is None:
        pytest.fail("numba is a dependency and must be importable")
    return request.param


@pytest.mark.parametrize("dtype, tol", [(torch.float64, 1e-12), (torch.float32, 2e-6)])
def test_means_and_series_equal_direct_formulas(backend, dtype, tol, gen):
    a = 0.3 * torch.randn(3, 100, 70, generator=gen, dtype=torch.float64)  # S not a block multiple
    K = 16
    k = torch.arange(1, K + 1, dtype=torch.float64).view(K, 1, 1, 1)
    want_c, want_s = torch.cos(k * a).mean(-2), torch.sin(k * a).mean(-2)
    got_c, got_s = ecf.ecf_means(torch.cos(a).to(dtype), torch.sin(a).to(dtype), K)
    assert got_c.shape == (K, 3, 70)
    assert torch.allclose(got_c.double(), want_c, atol=tol)
    assert torch.allclose(got_s.double(), want_s, atol=tol)
    coef_c = torch.randn(K, 3, 70, generator=gen, dtype=torch.float64)
    coef_s = torch.randn(K, 3, 70, generator=gen, dtype=torch.float64)
    want = (coef_c.unsqueeze(-2) * torch.cos(k * a) + coef_s.unsqueeze(-2) * torch.sin(k * a)).sum(
        0
    )
    got = ecf.ecf_series(
        torch.cos(a).to(dtype), torch.sin(a).to(dtype), coef_c.to(dtype), coef_s.to(dtype)
    )
    assert got.shape == a.shape
    assert torch.allclose(got.double(), want, atol=20 * tol)


@pytest.mark.parametrize("threads", [2, 3])
def test_splitting_the_kernels_across_threads_changes_no_bit(threads, gen):
    if ecf._kernels() is None:
        pytest.fail("numba is a dependency and must be importable")
    a = 0.3 * torch.randn(3, 100, 200, generator=gen)  # 3 runs x 4 blocks, the last partial
    c1, s1 = torch.cos(a), torch.sin(a)
    coef_c, coef_s = torch.randn(2, 16, 3, 200, generator=gen)
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = (*ecf.ecf_means(c1, s1, 16), ecf.ecf_series(c1, s1, coef_c, coef_s))
        torch.set_num_threads(threads)
        split = (*ecf.ecf_means(c1, s1, 16), ecf.ecf_series(c1, s1, coef_c, coef_s))
    finally:
        torch.set_num_threads(before)
    for x, y in zip(one, split, strict=True):
        assert torch.equal(x, y)


def test_a_forked_child_splits_with_helpers_of_its_own(gen):
    a = 0.3 * torch.randn(2, 50, 200, generator=gen)
    c1, s1 = torch.cos(a), torch.sin(a)
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        want = ecf.ecf_means(c1, s1, 8)  # the parent's helper threads now exist
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(1) as pool:
            got = pool.apply_async(_means_in_child, (c1, s1)).get(timeout=60)
    finally:
        torch.set_num_threads(before)
    assert all(torch.equal(x, y) for x, y in zip(want, got, strict=True))


def _means_in_child(c1, s1):
    torch.set_num_threads(2)
    return ecf.ecf_means(c1, s1, 8)


def test_kernels_called_from_several_python_threads_agree_with_one(gen):
    a = 0.3 * torch.randn(2, 80, 300, generator=gen)
    c1, s1 = torch.cos(a), torch.sin(a)
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        want = ecf.ecf_means(c1, s1, 8)
        torch.set_num_threads(3)
        with ThreadPoolExecutor(4) as callers:
            got = list(callers.map(lambda _: ecf.ecf_means(c1, s1, 8), range(8)))
    finally:
        torch.set_num_threads(before)
    for means in got:
        assert all(torch.equal(x, y) for x, y in zip(want, means, strict=True))


# A child process on a copy of the package whose in-tree cache folder cannot be made (a
# file stands where numba would put it), as where the package is installed read-only:
# it prints whether the means kernel's machine code came from the disk cache (a miss is a
# compile), the cache's folder, and its largest error against the direct formula.
CACHED_CHILD = """
import json, torch
from lejepa_id.objectives import ecf
assert ecf.__file__.startswith({root!r}), ecf.__file__
a = 0.3 * torch.randn(2, 50, 70, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
got, _ = ecf.ecf_means(torch.cos(a), torch.sin(a), 4)
k = torch.arange(1, 5, dtype=torch.float64).view(4, 1, 1, 1)
stats = ecf._kernels()[0].stats
print(json.dumps({{"hits": len(stats.cache_hits), "misses": len(stats.cache_misses),
                  "cache": stats.cache_path,
                  "error": (got - torch.cos(k * a).mean(-2)).abs().max().item()}}))
"""


def _read_only_copy(tmp_path):
    import shutil
    from pathlib import Path

    src = tmp_path / "src"
    shutil.copytree(
        Path(ecf.__file__).parents[1],
        src / "lejepa_id",
        ignore=shutil.ignore_patterns("__pycache__", "*.npz"),
    )
    (src / "lejepa_id" / "objectives" / "__pycache__").write_text("not a folder")
    return src


def _cached_child(src, cache_home):
    import json
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=str(src), XDG_CACHE_HOME=str(cache_home), HOME=str(cache_home))
    code = CACHED_CHILD.format(root=str(src))
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def test_a_second_process_loads_the_compiled_kernel_from_the_user_cache(tmp_path):
    src = _read_only_copy(tmp_path)
    first = _cached_child(src, tmp_path / "cache")
    second = _cached_child(src, tmp_path / "cache")
    assert (first["hits"], first["misses"]) == (0, 1)  # compiled, and saved
    assert (second["hits"], second["misses"]) == (1, 0)  # nothing compiled
    assert first["cache"] == second["cache"]
    assert first["cache"].startswith(str(tmp_path / "cache" / "numba"))
    assert list((tmp_path / "cache" / "numba").rglob("ecf._means_loops-*.nbi"))
    assert first["error"] < 1e-12 and second["error"] < 1e-12


def test_with_nowhere_to_cache_the_kernels_compile_in_each_process(tmp_path):
    src = _read_only_copy(tmp_path)
    blocked = tmp_path / "file"
    blocked.write_text("")  # no folder can be made below a file, not even by root
    child = _cached_child(src, blocked / "cache")
    assert (child["hits"], child["misses"], child["cache"]) == (0, 1, None)  # no cache
    assert child["error"] < 1e-12
