"""jmduea/orbit_wars `src/jax/rollout/collect_timed.py:123-449` (tuning pool, JAX601 high, read
false): a project helper blocks on the first leaf of what it is given (`_sync(tree)`), the
region's batch comes from another module's function this walk cannot follow, and all that is
left pending is `jnp.arange(...)` of a Python int: the timing covers the encoding it waited
for (`pending._helper_block`: a helper that waits for its argument is an explicit wait;
`CONSTANT_FILLS`: `arange` reads no input). The near misses: the same region without the
sync, and one that leaves a product of arrays made before it pending."""

import time

import jax
import jax.numpy as jnp
from encoders import encode_batches


def _sync(tree) -> None:
    leaves = jax.tree.leaves(tree)
    if leaves:
        jax.block_until_ready(leaves[0])


def timed_encode(state, task, player_count, phases):
    start = time.perf_counter()
    player_ids = jnp.arange(player_count, dtype=jnp.int32)
    batches = encode_batches(state, task)
    _sync(batches)
    phases["encode"] += time.perf_counter() - start
    return player_ids, batches


def timed_encode_unsynced(state, task, player_count, phases):
    start = time.perf_counter()
    player_ids = jnp.arange(player_count, dtype=jnp.int32)  # error: JAX601
    phases["encode"] += time.perf_counter() - start
    return player_ids


def timed_product(a, b, state, task, phases):
    start = time.perf_counter()
    product = jnp.dot(a, b)  # error: JAX601
    batches = encode_batches(state, task)
    _sync(batches)
    phases["encode"] += time.perf_counter() - start
    return product, batches
