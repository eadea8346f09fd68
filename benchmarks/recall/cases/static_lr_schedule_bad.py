# source: https://github.com/google-deepmind/optax/issues/577
# family: recompilation
# expect: JAX403
# check: compiles:update>3
# The learning rate is a static argument and the schedule changes it every step: one
# compilation per step.
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=2)
def update(w, g, lr):
    return w - lr * g


if __name__ == "__main__":
    w = jnp.ones(4)
    for step in range(6):
        lr = 0.1 / (1 + step)
        w = update(w, 2 * w, lr)
    print(w)
