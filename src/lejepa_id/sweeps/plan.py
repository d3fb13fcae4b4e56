"""Planning a sweep: expand an experiment into runs and pack compatible runs into groups.

Runs whose configs agree on :func:`lejepa_id.training.stacking.stack_key` can share one stacked
model and one AdamW (``training.train`` of a list), which reproduces each run's solo
trajectory. Packing them is the main speed-up on a GPU, where a small model is bound by
kernel-launch latency and R stacked runs cost little more than one. On a CPU the gain is
modest (about 1.1x to 1.3x, measured, see docs/sweeps.md), so the CPU cap is small.

A group's size is capped by its experiment kind (``member_cap``; the synthetic runs'
memory heuristic is :mod:`lejepa_id.sweeps.capacity`) so that ``jobs`` groups running
concurrently on one GPU fit in its memory.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from lejepa_id.config.experiments import RunSpec
from lejepa_id.sweeps.kinds import kind_of


@dataclass
class Group:
    """Runs trained together as one stacked model."""

    index: int
    specs: list[RunSpec]
    keep: frozenset[str] = frozenset()
    """Run ids trained again only to reproduce the group; their saved results stay."""

    @property
    def new_runs(self) -> int:
        """Runs whose results this group writes."""
        return len(self.specs) - len(self.keep)

    @property
    def members(self) -> int:
        """Encoders in the stack (a run with best-of-K initializations counts K)."""
        return sum(kind_of(s).members(s) for s in self.specs)

    @property
    def cost(self) -> float:
        """Relative wall time of the group, for scheduling and the ETA."""
        return sum(spec_cost(s) for s in self.specs)

    @property
    def run_ids(self) -> list[str]:
        return [s.run_id for s in self.specs]


def stack_key(spec: RunSpec) -> tuple:
    """Runs with one key may be stacked; the run's experiment kind decides, and runs of
    two kinds never share a stack."""
    kind = kind_of(spec)
    return (kind.name, *kind.stack_key(spec))


def spec_cost(spec: RunSpec) -> float:
    """Rough relative cost of one run, as its experiment kind estimates it (synthetic:
    steps x members x (a floor for overhead + the encoder's multiply-adds per sample))."""
    return float(kind_of(spec).cost(spec))


def _split(specs: list[RunSpec], cap: int) -> list[list[RunSpec]]:
    """Split runs into as few chunks as ``cap`` members allows, of balanced size."""
    members = sum(kind_of(s).members(s) for s in specs)
    chunks = max(1, math.ceil(members / cap))
    target = math.ceil(members / chunks)
    out: list[list[RunSpec]] = [[]]
    load = 0
    for spec in specs:
        k = kind_of(spec).members(spec)
        if out[-1] and load + k > target:
            out.append([])
            load = 0
        out[-1].append(spec)
        load += k
    return out


def plan_groups(
    specs: Sequence[RunSpec],
    device_type: str,
    jobs: int = 1,
    device_memory: int | None = None,
    max_members: int | None = None,
) -> list[Group]:
    """Pack runs into groups, largest cost first (so the longest groups start early).

    Args:
        specs: the runs still to train.
        device_type: ``cuda`` or ``cpu``; decides the size cap.
        jobs: groups that will run concurrently; the memory budget is shared, and a
            class of compatible runs is split further while there are fewer groups
            than jobs, so no worker idles.
        device_memory: bytes of GPU memory (None: assume 80 GiB).
        max_members: an explicit cap that overrides the heuristic (1: no batching).
    """
    classes: dict[tuple, list[RunSpec]] = {}
    for spec in specs:
        classes.setdefault(stack_key(spec), []).append(spec)
    chunks: list[list[RunSpec]] = []
    for members in classes.values():
        kind = kind_of(members[0])
        if not kind.stacks:  # each run of such a kind trains alone
            chunks.extend([m] for m in members)
            continue
        cap = max_members or kind.member_cap(members[0], device_type, jobs, device_memory)
        chunks.extend(_split(members, cap))
    # Keep every worker busy: halve the biggest splittable chunk while chunks < jobs.
    while chunks and len(chunks) < jobs:
        chunks.sort(key=lambda ch: sum(spec_cost(s) for s in ch))
        big = chunks[-1]
        if len(big) < 2:
            break
        chunks[-1:] = [big[: len(big) // 2], big[len(big) // 2 :]]
    groups = sorted(chunks, key=lambda ch: -sum(spec_cost(s) for s in ch))
    return [Group(i, ch) for i, ch in enumerate(groups)]


def resume_groups(
    todo: Sequence[RunSpec], specs: Sequence[RunSpec], recorded: list[list[str]]
) -> tuple[list[Group], list[RunSpec], list[str]]:
    """Recorded groups with a missing run, to be trained again whole; and the rest.

    A stacked group reproduces each member's solo trajectory only to the last bits, so
    a sweep killed between two result writes of a group must not train the missing run
    in another group: the whole recorded group is trained again, in the same order, and
    only its missing results are written. Returns (those groups, the todo runs in no
    replayable recorded group, notes).
    """
    by_id = {s.run_id: s for s in specs}
    missing = {s.run_id for s in todo}
    groups: list[Group] = []
    covered: set[str] = set()
    notes = []
    for ids in recorded:
        want = missing.intersection(ids) - covered
        if not want:
            continue
        members = [by_id[i] for i in ids if i in by_id]
        if len(members) < len(ids) or len({stack_key(m) for m in members}) > 1:
            notes.append(
                f"{', '.join(sorted(want))}: first planned with runs outside this sweep; "
                "trained in a new group (results may differ in the last bits)"
            )
            continue
        groups.append(Group(len(groups), members, frozenset(set(ids) - missing)))
        covered.update(ids)
    rest = [s for s in todo if s.run_id not in covered]
    return groups, rest, notes


def reindex(groups: list[Group]) -> list[Group]:
    """Number groups 0.. in order of decreasing cost (longest first)."""
    ordered = sorted(groups, key=lambda g: -g.cost)
    return [Group(i, g.specs, g.keep) for i, g in enumerate(ordered)]
