"""Facts crossing a rebinding: `init = jit(init)` names the def it wraps (issue 13, recall).

Reduced from jax-ml/jax PR #4312 (benchmarks/recall/cases/global_key_jit_bad.py): a function
that advances a module-level key through `global` is jitted by rebinding its own name, so
the split runs once, at trace time, and every call returns the same draw. Before, the second
binding made `init` unknown and the function looked untraced. Near misses: a name also
rebound to something that does not wrap it stays unknown (`reset`), and a def wrapped by a
non-transform (`functools.cache`) is not traced (`lookup`).
"""

import functools

from jax import jit, random

key = random.PRNGKey(0)
calls = 0


def init():
    global key
    key, subkey = random.split(key)  # error: JAX502
    return random.normal(subkey, ())


init = jit(init)


def reset():
    global calls
    calls = 0
    return random.normal(random.PRNGKey(1), ())


reset = jit(reset)
reset = None


def lookup(n):
    global calls
    calls += 1
    return n * 2


lookup = functools.cache(lookup)
