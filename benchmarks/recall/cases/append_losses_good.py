# source: https://github.com/jax-ml/jax/pull/7556
# family: side-effects
# The fix: return the loss and record it on the host.
import jax
import jax.numpy as jnp

history = []


@jax.jit
def train_step(params, x):
    loss, grads = jax.value_and_grad(lambda p: jnp.mean((p * x) ** 2))(params)
    return params - 0.1 * grads, loss


if __name__ == "__main__":
    p = jnp.ones(3)
    for _ in range(3):
        p, loss = train_step(p, jnp.arange(3.0))
        history.append(loss)
    print(jnp.stack(history))
