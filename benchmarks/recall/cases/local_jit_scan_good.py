# source: https://github.com/jax-ml/jax/issues/2251
# family: recompilation
# The fix from the thread: define the jitted function once, at module level.
import functools

import jax.numpy as np
from jax import jit, lax


def infect(carry, step):
    return carry * (1.0 + 0.01 * step), carry


@functools.partial(jit, static_argnums=(1, 2, 3))
def _pandemic_scan(state, step, t, T):
    return lax.scan(infect, state, np.full(T, step))


def pandemic_scan(state, step=1, t=0, T=5):
    return _pandemic_scan(state, step, t, T)


if __name__ == "__main__":
    # the issue timed it with %timeit: many calls
    for _ in range(20):
        out = pandemic_scan(np.ones(3), T=5)[0]
    print(out)
