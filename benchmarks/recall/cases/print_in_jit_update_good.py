# source: https://github.com/jax-ml/jax/issues/196
# family: side-effects
# The fix: jax.debug.print prints the runtime value on every call.
import jax
import jax.numpy as jnp


@jax.jit
def update(params, grads):
    new_params = params - 0.1 * grads
    jax.debug.print("{x}", x=new_params.sum())
    return new_params


if __name__ == "__main__":
    p = jnp.ones((1, 64))
    for _ in range(2):
        p = update(p, p)
