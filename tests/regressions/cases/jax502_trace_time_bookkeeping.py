"""JAX502: plain Python bookkeeping on outer state runs once per trace, not once per call.

Issue 24 ("trace-time side effects of plain Python"): `self.count += 1` in a jitted method and
`stats[k] += x.shape[0]` in a jitted function. Run: after three calls `c.count` is 1 and
`stats["rows"]` is 2 (one trace each). The unmarked lines are the near misses that stay
silent: a local counter, and a static fact recorded with `=` (the same value on every trace).
"""

import jax
import jax.numpy as jnp

stats = {"rows": 0}


class Counter:
    def __init__(self):
        self.count = 0
        self.step = jax.jit(self._step)

    def _step(self, x):
        self.count += 1  # error: JAX502
        return x * 2


@jax.jit
def f(x):
    stats["rows"] += x.shape[0]  # error: JAX502
    n = 0
    n += 1
    stats["shape"] = x.shape
    return x * n


c = Counter()
for _ in range(3):
    c.step(jnp.ones(2))
    f(jnp.ones(2))
print(c.count, stats)
