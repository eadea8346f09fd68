# source: https://github.com/pyro-ppl/numpyro/issues/2
# family: recompilation
# The fix: pre-compile and cache (jit once at module level, data as arguments).
import jax
import jax.numpy as jnp


def loss(p, x):
    return jnp.sum((p * x - 1.0) ** 2)


@jax.jit
def loss_and_grad(p, x):
    return jax.value_and_grad(loss)(p, x)


def step(params, x):
    value, grad = loss_and_grad(params, x)
    return params - 0.1 * grad, value


if __name__ == "__main__":
    params, x = jnp.ones(3), jnp.arange(3.0)
    for _ in range(6):
        params, value = step(params, x)
    print(value)
