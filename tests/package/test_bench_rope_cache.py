"""The recorded bytes per cached position of RotaryEmbedding (docs/data/bench-rope-cache.json,
written by scripts/bench_rope_cache.py; issue 40 item 3) is current: the record has the keys and
scenarios the script writes now, and the byte counts it gives now (they do not depend on the
machine). Re-record with `make bench` (or the script's --record) when the cache changes."""

from __future__ import annotations

import datetime
import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORD = json.loads((ROOT / "docs" / "data" / "bench-rope-cache.json").read_text())
_spec = importlib.util.spec_from_file_location("bench_rope_cache",
                                               ROOT / "scripts" / "bench_rope_cache.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

BYTES = ("positions_asked", "positions_cached", "cache_bytes", "bytes_per_cached_position",
         "bytes_per_position_asked", "minimum_bytes_per_position")


def test_the_record_has_the_shape_the_script_writes():
    assert tuple(RECORD) == bench.KEYS
    datetime.date.fromisoformat(RECORD["date"])
    assert RECORD["machine"] and RECORD["torch"][:1].isdigit() and RECORD["device"] in ("cpu",
                                                                                     "cuda")
    names = [name for name, *_ in bench._scenarios("cpu")]
    assert [row["name"] for row in RECORD["scenarios"]] == names
    for row in RECORD["scenarios"]:
        assert tuple(row) == bench.ROW_KEYS, row["name"]
        assert (row["allocated_bytes"] is None) == (RECORD["device"] == "cpu"), row["name"]


def test_the_recorded_bytes_are_the_bytes_now():
    now = {row["name"]: row for row in bench.measure("cpu")}
    for row in RECORD["scenarios"]:
        assert {k: row[k] for k in BYTES} == {k: now[row["name"]][k] for k in BYTES}, row["name"]


def test_one_float32_table_at_most_the_positions_asked_rounded_up_modestly():
    """Issue 40 item 3's bound, on the record: at most one table for every dtype (bytes per
    cached position = 4 * rotary_dim, float32 cos and sin), and at most 9/8 of the positions
    asked plus 64 (GROWTH, ROUND) when a decode loop grew it."""
    for row in RECORD["scenarios"]:
        if row["cache_bytes"]:
            assert row["bytes_per_cached_position"] == row["minimum_bytes_per_position"]
            assert row["positions_asked"] <= row["positions_cached"] <= \
                max(2048, row["positions_asked"] * 9 / 8 + 64)                   # at most
        else:
            assert row["positions_cached"] == 0                                  # cleared
