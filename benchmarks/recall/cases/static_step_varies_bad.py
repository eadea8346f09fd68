# source: https://github.com/jax-ml/jax/issues/1033
# family: recompilation
# expect: JAX403
# check: compiles:do_something_random>3
# The loop index is a static argument of a jitted function: one compilation per value
# (the fold_in(base_key, i) loop of the issue, in user code).
from functools import partial

import jax


@partial(jax.jit, static_argnums=(1,))
def do_something_random(base_key, i):
    return jax.random.normal(jax.random.fold_in(base_key, i), (3,))


if __name__ == "__main__":
    base_key = jax.random.PRNGKey(0)
    for i in range(6):
        print(do_something_random(base_key, i))
