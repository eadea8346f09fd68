"""The taint lattice's elements: how surely a value is traced.

A module of its own because the transfer functions (`flow/taint.py`), the queries built on
them (`flow/taint_queries.py`) and the traced-function table whose helper propagation reads
the levels (`analysis/traced.py`) all use it.
"""

from __future__ import annotations

from enum import IntEnum


class Level(IntEnum):
    """Joined by max: NONE < CONTAINER < TREE < ARRAY (see `flow/taint.py`)."""

    NONE = 0
    CONTAINER = 1
    TREE = 2
    ARRAY = 3
