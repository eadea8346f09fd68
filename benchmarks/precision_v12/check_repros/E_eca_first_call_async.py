"""eca2_jit.py / eca3_scan.py:31-41: is the first (unblocked) call of the jitted simulator still
running when it returns, on CPU? simulate copied from the two files (unrolled loop vs lax.scan)."""

import time

import jax
import jax.numpy as jnp


def rule_table_of(rule):
    return jnp.unpackbits(jnp.uint8(rule), bitorder="little").reshape(2, 2, 2)


def simulate_unrolled(rule, width, num_steps):
    rule_table = rule_table_of(rule)
    state = jnp.zeros(width, dtype=jnp.uint8).at[width // 2].set(1)
    states = [state]
    for _ in range(num_steps - 1):
        w = jnp.pad(state, 1, mode="wrap")
        state = rule_table[w[0:-2], w[1:-1], w[2:]]
        states.append(state)
    return jnp.stack(states)


def simulate_scan(rule, width, num_steps):
    rule_table = rule_table_of(rule)
    init = jnp.zeros(width, dtype=jnp.uint8).at[width // 2].set(1)

    def step(state, _):
        w = jnp.pad(state, 1, mode="wrap")
        nxt = rule_table[w[0:-2], w[1:-1], w[2:]]
        return nxt, nxt

    _, nxt = jax.lax.scan(step, init, length=num_steps - 1)
    return jnp.concatenate([init[None], nxt], axis=0)


for name, sim in (("eca2 unrolled", simulate_unrolled), ("eca3 scan", simulate_scan)):
    for width, steps in ((80, 80), (4096, 4096)):
        f = jax.jit(sim, static_argnames=["width", "num_steps"])
        t = time.perf_counter()
        s = f(rule=110, width=width, num_steps=steps)
        t1 = time.perf_counter() - t
        ready = s.is_ready()
        s.block_until_ready()
        t2 = time.perf_counter() - t
        print(name, width, steps, "ready at return:", ready, f"return {t1:.4f}s block {t2:.4f}s")
