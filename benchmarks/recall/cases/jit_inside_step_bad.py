# source: https://github.com/pyro-ppl/numpyro/issues/2
# family: recompilation
# expect: JAX401
# check: compiles:loss_and_grad>3
# The jitted function is built inside step(), so it is compiled each time step is
# called (the minipyro bug).
import jax
import jax.numpy as jnp


def step(params, x):
    def loss(p):
        return jnp.sum((p * x - 1.0) ** 2)

    def loss_and_grad(p):
        return jax.value_and_grad(loss)(p)

    value, grad = jax.jit(loss_and_grad)(params)
    return params - 0.1 * grad, value


if __name__ == "__main__":
    params, x = jnp.ones(3), jnp.arange(3.0)
    for _ in range(6):
        params, value = step(params, x)
    print(value)
