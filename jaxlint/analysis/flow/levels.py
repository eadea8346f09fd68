"""The taint lattice's elements: how surely a value is traced.

A module of its own because the transfer functions (`flow/taint.py`), the queries built on
them (`flow/taint_queries.py`) and the traced-function table whose helper propagation reads
the levels (`analysis/traced.py`) all use it.
"""

from __future__ import annotations

from enum import IntEnum


class Level(IntEnum):
    """Joined by max: NONE < CONTAINER < FIELD < TREE < ARRAY (see `flow/taint.py`).

    FIELD is a part of a traced value whose kind nothing proves: an attribute of a traced
    pytree whose class does not declare it a data field (`cfg.n_layers`, `mjx_model.nu`,
    `cache.page_size` may be auxiliary data, a Python value under tracing), and what is
    computed from such parts alone. It is not traced (`is_traced` is TREE or more): unknown
    stays silent. A jax.numpy operation on it is a traced array all the same (under jit every
    jnp result is a tracer)."""

    NONE = 0
    CONTAINER = 1
    FIELD = 2
    TREE = 3
    ARRAY = 4


def arith(*levels: Level) -> Level:
    """Arithmetic, a comparison or a unary operator on values of these levels: a traced array
    when one of them is traced, of unknown kind (FIELD) when the strongest is, else static."""
    top = max(levels)
    if top >= Level.TREE:
        return Level.ARRAY
    return Level.FIELD if top == Level.FIELD else Level.NONE


def part_of(whole: Level) -> Level:
    """An element of a value at level `whole` (unpacked, or a dict's value): a traced leaf or
    subtree of a traced or container value, unknown of an unknown one."""
    if whole == Level.FIELD:
        return Level.FIELD
    return Level.TREE if whole >= Level.CONTAINER else Level.NONE


class EnvLattice:
    """Traced levels per name, joined by max (a missing name is NONE)."""

    def copy(self, state: dict[str, Level]) -> dict[str, Level]:
        return dict(state)

    def join(self, a: dict[str, Level], b: dict[str, Level]) -> dict[str, Level]:
        out = dict(a)
        for name, level in b.items():
            if level > out.get(name, Level.NONE):
                out[name] = level
        return out

    def equal(self, a: dict[str, Level], b: dict[str, Level]) -> bool:
        return a == b
