"""JAX503 asks the flow graph whether the jitted reader runs before a rebinding and again after.

Reduced from two v10 check-set notebooks (read by untuned readers):
- GalSim-developers/JAX-GalSim dev/notebooks/moffat_maxk_interp.ipynb, cell 26: `_update_func`
  is defined inside `if optimizer is None:`, reads `lnb`, which an earlier cell set and this
  one assigns again below the `def` but before the first call (in the training loop); nothing rebinds it after. Other jitted
  calls of the module ran before the assignment, which the old source-order test took as
  "the jitted function was called". Only the reader's own calls count: the loads of its name
  that its `def` reaches.
- genjax-dev/genjax-chi docs/cookbook/active/jax_basics.ipynb, cell 44: a second `def` of the
  same name after the rebinding; the first function is never called again (its name now
  holds the second), and the second is defined after the rebinding.
The near misses fire: `scaled` is called before and after `scale` changes, and in a loop
whose body rebinds `gain`.
"""

import jax
import jax.numpy as jnp


@jax.jit
def warm(v):
    return v + 1


print(warm(1.0))
lnb = jnp.log(1.0)  # an earlier cell
optimizer = None

if optimizer is None:

    @jax.jit
    def update(x):
        return x * lnb


lnb = jnp.log(2.0)
for _ in range(3):
    print(update(1.0))

table = jnp.ones(3)


@jax.jit
def read_table(x):
    return jax.lax.cond(x.sum() > 0, lambda x: x * x, lambda x: table, x)


read_table(jnp.ones(3))

try:
    table = jnp.zeros(3)

    @jax.jit
    def read_table(x):
        return jax.lax.cond(x.sum() > 0, lambda x: x * x, lambda x: table, x)

    read_table(jnp.ones(3))
except TypeError as e:
    print(e)

scale = 2.0


@jax.jit
def scaled(x):
    return x * scale  # error: JAX503


print(scaled(1.0))
scale = 3.0
print(scaled(1.0))

gain = 1.0


@jax.jit
def amplified(x):
    return x * gain  # error: JAX503


for _ in range(3):
    print(amplified(1.0))
    gain = gain * 2
