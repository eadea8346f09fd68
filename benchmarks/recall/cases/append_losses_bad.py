# source: https://github.com/jax-ml/jax/pull/7556
# family: side-effects
# expect: JAX502
# check: error:UnexpectedTracerError
# A jitted step appends its loss to a module-level history list (a leaked tracer).
import jax
import jax.numpy as jnp

history = []


@jax.jit
def train_step(params, x):
    loss = jnp.mean((params * x) ** 2)
    history.append(loss)
    return params - 0.1 * jax.grad(lambda p: jnp.mean((p * x) ** 2))(params)


if __name__ == "__main__":
    p = jnp.ones(3)
    for _ in range(3):
        p = train_step(p, jnp.arange(3.0))
    print(jnp.stack(history))
