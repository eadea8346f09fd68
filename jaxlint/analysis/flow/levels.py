"""The taint lattice's elements: how surely a value is traced.

A module of its own because both halves of the taint analysis use it: the transfer functions
(`flow/taint.py`) and the helper summaries and queries built on them (`flow/taint_helpers.py`,
`flow/taint_queries.py`), which `flow/taint.py` imports.
"""

from __future__ import annotations

from enum import IntEnum


class Level(IntEnum):
    """Joined by max: NONE < CONTAINER < TREE < ARRAY (see `flow/taint.py`)."""

    NONE = 0
    CONTAINER = 1
    TREE = 2
    ARRAY = 3
