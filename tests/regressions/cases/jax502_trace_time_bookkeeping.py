"""JAX502: plain Python bookkeeping on outer state runs once per trace, not once per call.

Issue 24 ("trace-time side effects of plain Python"): `self.count += 1` in a jitted method and
`stats[k] += x.shape[0]` in a jitted function. Run: after three calls `c.count` is 1 and
`stats["rows"]` is 2 (one trace each). The unmarked lines are the near misses that stay
silent: a local counter, a static fact recorded with `=` (the same value on every trace), and
a per-name counter read back at trace time to make unique summary names (google/
learned_optimization summary.py:134, `count_per_tags[name] += 1` then
`name += "___%d" % count_per_tags[name]`: consumed by the trace itself, reset between traces),
a counter on a helper object built inside the trace (`Builder().add`: trace-local state), and
a test's trace counter (`count[0] += 1`, then `assert count[0] == 1`: the test's subject).
"""

import jax
import jax.numpy as jnp

stats = {"rows": 0}
count_per_tags = {}


def summary(name, val):
    if name in count_per_tags:
        count_per_tags[name] += 1
        name += f"___{count_per_tags[name]}"
    else:
        count_per_tags[name] = 0
    return val


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
    return summary("f", x * n)


c = Counter()
for _ in range(3):
    c.step(jnp.ones(2))
    f(jnp.ones(2))
print(c.count, stats)


class Builder:
    def __init__(self):
        self.layers = 0

    def add(self, x):
        self.layers += 1  # an object built inside the trace: its state is trace-local
        return x + self.layers


@jax.jit
def build(x):
    b = Builder()
    return b.add(x)


print(build(1.0))


def test_traces_once():
    count = [0]

    @jax.jit
    def g(x):
        count[0] += 1
        return x + 1

    g(1.0)
    g(2.0)
    assert count[0] == 1


test_traces_once()
