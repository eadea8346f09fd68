"""grl2-jax standalone/happo.py:268/305: jit(happo_optimize_i, static_argnames='opt') called with
opts[i], one optax.sgd(lr) per agent (build_optimizers, line 415): each distinct opt object recompiles."""

import jax
import jax.numpy as jnp

try:
    import optax

    make = lambda: optax.sgd(0.1)  # noqa: E731
except ImportError:  # same structure: a NamedTuple of fresh closures
    from collections.abc import Callable
    from typing import NamedTuple

    class GT(NamedTuple):
        init: Callable
        update: Callable

    def make():
        return GT(
            lambda p: (), lambda g, s, p=None: (jax.tree_util.tree_map(lambda x: -0.1 * x, g), s)
        )


traces = []


def step(p, opt, state):
    traces.append(1)
    g = jax.grad(lambda q: jnp.sum(q**2))(p)
    upd, state = opt.update(g, state)
    return jax.tree_util.tree_map(lambda a, b: a + b, p, upd), state


jstep = jax.jit(step, static_argnames="opt")
opts = [make() for _ in range(3)]
p = jnp.ones(3)
for _ in range(2):
    for o in opts:
        p, _ = jstep(p, o, o.init(p))
print(
    "traces for 3 agents x 2 outer iterations:", len(traces), "(3 = one compile per distinct opt)"
)

# JAX501 check: item assignment on jnp.zeros (envs/smac_env/state2obs.py:116)
try:
    m = jnp.zeros(4, dtype=jnp.float32)
    m[0] = 1
except TypeError as e:
    print("TypeError:", str(e)[:80])
