"""JAX503: a global rebound in a loop step before a new lambda that reads it is jitted in the
same step: each step's function is a new object, traced afresh, so it reads the new value
(the program prints [2.0, 4.0, 8.0]; analysis/jit_sites.py `made_per_run`, and the flow
graph's paths from the rebinding to a call that avoid the statement making the function).

From a new user's report (stop 52), checked on JAX 0.12. The marked lines are near misses:
a module-level def jitted again each step keeps its cached trace (JAX prints [2.0, 2.0,
2.0]), and a lambda jitted once before the loop bakes the first value in.
"""

import jax
import jax.numpy as jnp

scale = 1.0
outs = []
for _step in range(3):
    scale = scale * 2
    f = jax.jit(lambda v: v * scale)  # noqa: B023 - the point: a new lambda each step
    outs.append(float(f(jnp.float32(1.0))))

rate = 1.0


def g(v):
    return v * rate  # error: JAX503


for _step in range(3):
    rate = rate * 2
    fg = jax.jit(g)
    outs.append(float(fg(jnp.float32(1.0))))

shift = 1.0
once = jax.jit(lambda v: v + shift)  # error: JAX503
for _step in range(3):
    shift = shift + 1
    outs.append(float(once(jnp.float32(1.0))))
print(outs)
