"""Shared test helpers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_configure(config):
    """Ctrl-C as at a terminal, and one thread per xdist worker.

    Under pytest-xdist (scripts/test.sh: a worker per core) every core already runs a
    worker: a second thread per worker would only make the workers' threads wait for each
    other. Runs then take one thread unless a test or the user chose (the 2d mlp's weights
    do not depend on the count; tests/test_threads.py sets the count it checks)."""
    import os
    import signal

    # A shell starts a background job (`pytest &`, a CI step run with `&`) with Ctrl-C
    # ignored, and an ignored signal stays ignored in every child: the tests that send
    # SIGINT to a child would then see it ignored. They test the product as started at a
    # terminal, so the test process takes a terminal's Ctrl-C back first.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)

    if os.environ.get("PYTEST_XDIST_WORKER") and not (
        {"LEJEPA_ID_THREADS", "OMP_NUM_THREADS"} & set(os.environ)
    ):
        os.environ["LEJEPA_ID_THREADS"] = "1"
        torch.set_num_threads(1)


@pytest.fixture(scope="session", autouse=True)
def _wandb_offline(tmp_path_factory):
    """W&B offline in every test, its files in a temporary folder: no test needs an
    account or a network, and none writes to the home folder. A test that wants another
    mode sets it itself."""
    import os

    home = tmp_path_factory.mktemp("wandb")
    wanted = {"WANDB_MODE": "offline", "WANDB_SILENT": "true"}
    wanted |= {f"WANDB_{k}_DIR": str(home / k.lower()) for k in ("CONFIG", "CACHE", "DATA")}
    wanted["WANDB_DIR"] = str(home / "runs")
    before = {k: os.environ.get(k) for k in wanted}
    for key, value in wanted.items():
        os.environ.setdefault(key, value)
    yield
    for key, value in before.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(autouse=True)
def _pace_store(tmp_path_factory, monkeypatch):
    """Each test's dry runs store their measured paces in a file of its own: none reads a
    pace another test (or the user's ~/.cache) stored (lejepa_id.sweeps.pace.STORE_VAR;
    named here so that no test starts with the sweeps imported)."""
    monkeypatch.setenv("LEJEPA_ID_PACE_STORE", str(tmp_path_factory.mktemp("paces") / "p.json"))


@pytest.fixture(scope="session")
def reference():
    """Arrays and the values the published code computes on them (see fixtures/)."""
    arrays = dict(np.load(FIXTURES / "metrics_fixture.npz", allow_pickle=False))
    values = json.loads((FIXTURES / "metrics_fixture.json").read_text())
    return arrays, values


@pytest.fixture
def gen():
    return torch.Generator().manual_seed(1234)


@pytest.fixture(scope="session")
def rendering_problem() -> str | None:
    """Why the Reacher cannot be rendered here (None: it can). Rendering needs mujoco,
    dm_control and an OpenGL backend."""
    from lejepa_id.errors import UsageError

    try:
        from lejepa_id.reacher.render import ReacherRenderer

        ReacherRenderer(16, "fast").close()
    except (ImportError, UsageError) as exc:
        return str(exc)
    return None


# --------------------------------------------------------------------------- scheduling
# scripts/test.sh runs pytest-xdist with ``--dist loadfile``, whose scheduler the hook
# pytest_xdist_make_scheduler below replaces by one that
# - still sends a whole file to one worker (its module fixtures built once), except the
#   files in SPLIT, whose tests that do not share the named module fixture are dealt to
#   parts of their own (each part builds its other module fixtures once);
# - queues the groups longest first (WORK_SECONDS; a group not listed runs after these, in
#   collection order), so that no long file starts last and leaves the other core idle at
#   the end (longest processing time first).
# Only the grouping and the order change: every test runs, with the same fixtures. The
# seconds are each file alone, serially, on the loaded 2-core machine (docs/speed.md,
# "Test suite").
#
# tests/test_verify.py holds most of the suite's Coq work: the audit of the real tree (one
# compile shared through its module fixture real_report) and some thirty audits of
# planted cheats of a small copy. As one group it is one worker's tail (17 minutes
# loaded); its tests that do not use real_report are dealt to two parts (each part builds
# the small copy's pins, the module fixture small_pins, once: two audits more per part).
SPLIT: dict[str, tuple[str, frozenset[str], int]] = {
    "tests/test_verify.py": (
        "real_report",
        frozenset(
            {
                "test_real_development_compiles_and_passes",
                "test_no_prop_parameter_and_axiom_budget",
                "test_concrete_results_need_no_project_assumption",
                "test_general_theorems_are_law_relative",
                "test_markdown_table_lists_everything",
                "test_committed_table_is_current",
                "test_committed_statements_are_current",
            }
        ),
        2,
    )
}
WORK_SECONDS = {
    "tests/test_verify.py:part0": 385,
    "tests/test_verify.py:part1": 385,
    "tests/reacher/test_reacher_cli.py": 285,
    "tests/test_verify.py": 280,
    "tests/sweeps/test_paper_smoke.py": 233,
    "tests/test_plugins.py": 140,
    "tests/sweeps/test_paper.py": 100,
    "tests/test_faults.py": 95,
    "tests/test_wheel.py": 41,
}
_SCOPES: dict[str, str] = {}


def deal(nodeids: list[str]) -> None:
    """Fix the group of every test (``scope_of``): its file, or for a file in SPLIT, the
    file for the tests listed there and otherwise a part, dealt in turn over the sorted
    test names (a parametrized test's cases stay together). The same ids give the same
    groups in every process, whatever their order."""
    names: dict[str, set[str]] = {}
    for nodeid in nodeids:
        file, _, rest = nodeid.partition("::")
        if file in SPLIT and rest.split("[")[0] not in SPLIT[file][1]:
            names.setdefault(file, set()).add(rest.split("[")[0])
    part = {
        (file, name): f"{file}:part{k % SPLIT[file][2]}"
        for file, found in names.items()
        for k, name in enumerate(sorted(found))
    }
    for nodeid in nodeids:
        file, _, rest = nodeid.partition("::")
        _SCOPES[nodeid] = part.get((file, rest.split("[")[0]), file)


def scope_of(nodeid: str) -> str:
    """The group of a test, as ``deal`` fixed it (its file if not dealt)."""
    return _SCOPES.get(nodeid) or nodeid.partition("::")[0]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Check SPLIT against the fixtures the tests request (a test of a split file that
    uses the shared fixture but is dealt to a part would build it again: an error), and
    under pytest-xdist put the longest groups first (each group's tests stay in order)."""
    import os

    for item in items:
        file, _, rest = item.nodeid.partition("::")
        if file in SPLIT:
            fixture, together, _ = SPLIT[file]
            name = rest.split("[")[0]
            if (fixture in getattr(item, "fixturenames", ())) != (name in together):
                raise pytest.UsageError(
                    f"{item.nodeid}: tests/conftest.py SPLIT must list exactly the tests "
                    f"of {file} that use {fixture}; update it"
                )
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return  # a serial run keeps pytest's order
    deal([item.nodeid for item in items])
    first: dict[str, int] = {}
    for item in items:
        first.setdefault(scope_of(item.nodeid), len(first))
    items.sort(
        key=lambda it: (-WORK_SECONDS.get(scope_of(it.nodeid), 0), first[scope_of(it.nodeid)])
    )


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """``--dist loadfile``: file groups as above, queued in collection order (which the
    workers sorted longest first). Any other mode is pytest-xdist's own."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def schedule(self) -> None:
            if self.collection is None and self.registered_collections:
                deal(list(next(iter(self.registered_collections.values()))))
            super().schedule()

        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

    config.option.loadscopereorder = False
    return Scheduling(config, log)
