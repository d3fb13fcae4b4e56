"""The records of an offline W&B run (its ``run-<id>.wandb`` file), read back for tests.

The file is W&B's append-only log: a 7-byte header (``:W&B``, a magic number, a
version), then 32 KiB blocks of chunks, each a 7-byte header (CRC, length, type: full,
first, middle, last) and its bytes; a block's tail shorter than a header is padding.
The joined chunks of one record are a ``wandb_internal_pb2.Record``."""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

BLOCK = 32768
HEADER = struct.Struct("<IHB")
FULL, FIRST, MIDDLE, LAST = 1, 2, 3, 4


def records(path: Path) -> Iterator[Any]:
    from wandb.proto import wandb_internal_pb2 as pb

    data = path.read_bytes()
    assert data[:4] == b":W&B", f"{path} is not a W&B run file"
    pos, parts = 7, b""
    while pos + HEADER.size <= len(data):
        left = BLOCK - pos % BLOCK
        if left < HEADER.size:
            pos += left
            continue
        _crc, length, kind = HEADER.unpack_from(data, pos)
        chunk = data[pos + HEADER.size : pos + HEADER.size + length]
        pos += HEADER.size + length
        if kind not in (FULL, FIRST, MIDDLE, LAST):
            continue  # zero fill at the end of a block
        parts += chunk
        if kind in (FULL, LAST):
            record = pb.Record()
            record.ParseFromString(parts)
            parts = b""
            yield record


def _key(item: Any) -> str:
    return item.key or "/".join(item.nested_key)


def complete(path: Path, timeout: float = 60.0) -> None:
    """Wait until W&B's service has written the run's ``exit`` record: ``run.finish()``
    can return before the service has flushed the file on a loaded machine (seen once in
    a full suite on 2 busy cores: a file without its history)."""
    import time

    from google.protobuf.message import DecodeError

    deadline = time.monotonic() + timeout
    while True:
        try:  # a record half written is not the end either
            if any(r.WhichOneof("record_type") == "exit" for r in records(path)):
                return
        except DecodeError:
            pass
        assert time.monotonic() < deadline, f"{path}: no exit record after {timeout:.0f} s"
        time.sleep(0.2)


def history_and_summary(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any], dict]:
    """The run's history rows (``run.log`` calls, by step), its final summary (every
    update applied in order) and its config, values decoded from JSON, once the file is
    complete (:func:`complete`)."""
    complete(path)
    history, summary, config = [], {}, {}
    for record in records(path):
        kind = record.WhichOneof("record_type")
        if kind == "history":
            history.append({_key(i): json.loads(i.value_json) for i in record.history.item})
        elif kind == "summary":
            summary.update({_key(i): json.loads(i.value_json) for i in record.summary.update})
        elif kind == "run":
            config.update({_key(i): json.loads(i.value_json) for i in record.run.config.update})
        elif kind == "config":
            config.update({_key(i): json.loads(i.value_json) for i in record.config.update})
    return history, summary, config
