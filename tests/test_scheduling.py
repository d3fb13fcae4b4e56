"""The test scheduling of tests/conftest.py (scripts/test.sh, pytest-xdist ``loadfile``):
whole files stay together, a split file's tests that share its expensive module fixture
stay together, the others are dealt to parts in a way that does not depend on the order
the ids arrive in (the workers sort them, the scheduler sees the sorted list)."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

FILE = "tests/test_verify.py"
# Loaded from its path: the module name ``conftest`` may be another folder's conftest.
_spec = importlib.util.spec_from_file_location(
    "root_conftest", Path(__file__).with_name("conftest.py")
)
conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conftest)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(conftest, "_SCOPES", {})
    return conftest


def _ids() -> list[str]:
    together = sorted(conftest.SPLIT[FILE][1])
    ids = [f"{FILE}::{name}" for name in together]
    ids += [f"{FILE}::test_b[{k}]" for k in range(3)]  # a parametrized test: one unit
    ids += [f"{FILE}::test_a", f"{FILE}::test_c", f"{FILE}::test_d"]
    ids += ["tests/test_io.py::test_x", "tests/test_io.py::test_y[1]"]
    return ids


def test_a_file_not_split_is_one_group(fresh) -> None:
    fresh.deal(_ids())
    assert fresh.scope_of("tests/test_io.py::test_x") == "tests/test_io.py"
    assert fresh.scope_of("tests/test_io.py::test_y[1]") == "tests/test_io.py"
    assert fresh.scope_of("tests/never_dealt.py::test_z") == "tests/never_dealt.py"


def test_the_tests_sharing_the_fixture_stay_together_the_rest_are_dealt(fresh) -> None:
    fresh.deal(_ids())
    for name in conftest.SPLIT[FILE][1]:
        assert fresh.scope_of(f"{FILE}::{name}") == FILE
    # Sorted names a, b, c, d dealt in turn to two parts; b's cases stay together.
    parts = {n: fresh.scope_of(f"{FILE}::test_{n}") for n in "acd"}
    parts["b"] = fresh.scope_of(f"{FILE}::test_b[0]")
    assert parts == {"a": f"{FILE}:part0", "b": f"{FILE}:part1"} | {
        "c": f"{FILE}:part0",
        "d": f"{FILE}:part1",
    }
    assert {fresh.scope_of(f"{FILE}::test_b[{k}]") for k in range(3)} == {f"{FILE}:part1"}


def test_the_groups_do_not_depend_on_the_order_of_the_ids(fresh) -> None:
    ids = _ids()
    fresh.deal(ids)
    first = {i: fresh.scope_of(i) for i in ids}
    shuffled = ids[:]
    random.Random(0).shuffle(shuffled)
    assert shuffled != ids
    fresh._SCOPES.clear()
    fresh.deal(shuffled)
    assert {i: fresh.scope_of(i) for i in ids} == first


def test_split_lists_exactly_the_tests_that_use_the_shared_fixture(request) -> None:
    # The collection hook refuses a mismatch; here the list itself is checked against
    # the file's source, so that a renamed test cannot leave a stale name behind.
    fixture, together, _ = conftest.SPLIT[FILE]
    source = (Path(str(request.config.rootpath)) / FILE).read_text()
    using = {
        line.split("(")[0].removeprefix("def ")
        for line in source.splitlines()
        if line.startswith("def test_") and fixture in line
    }
    assert using == set(together)


class _Config:
    """What the scheduler reads of pytest's config: ``-n 2 --dist loadfile``."""

    def __init__(self) -> None:
        import argparse

        self.option = argparse.Namespace(loadscopereorder=True)

    def getvalue(self, name: str):
        return {"dist": "loadfile", "tx": ["2*popen"]}[name]


_SENT: list[list[int]] = []


class _Node:
    """A worker as the scheduler sees it: it records the tests it is sent."""

    def __init__(self, name: str) -> None:
        import types

        self.name, self.gateway = name, types.SimpleNamespace(id=name)
        self.sent: list[int] = []
        self.log: list[list[int]] = _SENT
        self.shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent += indices
        self.log.append(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def test_two_workers_start_on_the_longest_groups_and_split_the_coq_file(fresh) -> None:
    pytest.importorskip("xdist")
    ids = [f"tests/test_small_{k}.py::test_x" for k in range(6)] + _ids()
    ids += ["tests/test_wheel.py::test_w", "tests/reacher/test_reacher_cli.py::test_r"]
    sched = fresh.pytest_xdist_make_scheduler(_Config(), None)
    assert sched is not None and sched.config.option.loadscopereorder is False
    nodes = [_Node("gw0"), _Node("gw1")]
    fresh.deal(ids)  # as the workers do: the same groups, the collection sorted longest first
    first = {}
    for i in ids:
        first.setdefault(fresh.scope_of(i), len(first))
    ordered = sorted(
        ids, key=lambda i: (-fresh.WORK_SECONDS.get(fresh.scope_of(i), 0), first[fresh.scope_of(i)])
    )
    fresh._SCOPES.clear()
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, ordered)
    _SENT.clear()
    sched.schedule()
    done = {node.name: 0 for node in nodes}
    while not sched.tests_finished:  # the workers finish a test each in turn
        for node in nodes:
            if done[node.name] < len(node.sent):
                sched.mark_test_complete(node, node.sent[done[node.name]])
                done[node.name] += 1
    groups = [list(dict.fromkeys(fresh.scope_of(ordered[k]) for k in node.sent)) for node in nodes]
    sent_at: dict[str, list[int]] = {}
    for when, indices in enumerate(_SENT):
        for k in indices:
            sent_at.setdefault(fresh.scope_of(ordered[k]), []).append(when)
    # Each worker starts on a part of the Coq file, and the groups are handed out longest
    # first: the Reacher command line and the real tree's audit next, short files last.
    assert {g[0] for g in groups} == {f"{FILE}:part0", f"{FILE}:part1"}
    handed = sorted(groups[0] + groups[1], key=lambda g: min(sent_at[g]))
    assert set(handed[:2]) == {f"{FILE}:part0", f"{FILE}:part1"}
    assert handed[2:5] == ["tests/reacher/test_reacher_cli.py", FILE, "tests/test_wheel.py"]
    # Every test is sent once, and no group to both workers.
    assert sorted(nodes[0].sent + nodes[1].sent) == list(range(len(ids)))
    assert not set(groups[0]) & set(groups[1])
