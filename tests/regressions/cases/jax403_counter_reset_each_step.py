"""A count set to 0 at the top of every step and raised by 1 in a `for _ in range(k)` of that
step is `k` again whenever the step ends (`loops._fixed_count_per_step`): passed as a static
argument after the inner loop, it compiles once. The twin's count is never reset: it grows
every step, and every new value compiles again.

From the v39 check set (read once, tuning material since): pevers/parkiet
`src/parkiet/jax/train.py:627` and `train_distributed.py:689`: `completed_accumulation_steps`
counted over the gradient-accumulation loop and passed to a jitted update as a static
argument (JAX403 x2, read FP).
"""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def apply_grads(grads, steps):
    return grads / steps


def train(batches, accumulation_steps):
    total = 0.0
    seen = 0
    for batch in batches:
        done = 0
        grads = jnp.zeros(3)
        for _ in range(accumulation_steps):
            grads = grads + batch
            done += 1
            seen += 1
        total = total + apply_grads(grads, done).sum()
        total = total + apply_grads(grads, seen).sum()  # error: JAX403
    return total
