"""JAX401/JAX403: a loop over a written-out list cut by literal bounds (`["x",
"endpoint"][:1]`, a test that keeps one case of its list) walks spelled-out values, like the
list itself: its steps are counted (one here) and its static values are chosen on purpose
(analysis/trips.py `sliced_literal`).

Reduced from adematti/jax-power tests/test_mesh2.py:187-209 and :243-258 (v20 check set,
FP: JAX401 x1, JAX403 x3, tuning material). The marked lines are near misses: a list cut by
a bound that is not a literal (`schedule[:n]`) is not spelled out, so a static learning
rate that changes every step still compiles every step.
"""

from functools import partial

import jax
import jax.numpy as jnp


def run(seed, schedule, n):
    list_los = ["x", "endpoint"][:1]
    for los in list_los:

        @partial(jax.jit, static_argnames=["los"])
        def mock(seed, los="x"):
            return jnp.ones(3) * seed if los == "x" else jnp.zeros(3)

        out = mock(seed, los=los)

    @partial(jax.jit, static_argnames=["lr"])
    def sgd(p, lr):
        return p - lr

    p = jnp.ones(3)
    for lr in schedule[:n]:
        p = sgd(p, lr=lr)  # error: JAX403
    return out, p
