# source: https://github.com/google-deepmind/optax/issues/577
# family: recompilation
# The fix: the learning rate is a traced argument (inject_hyperparams does this for optax).
import jax
import jax.numpy as jnp


@jax.jit
def update(w, g, lr):
    return w - lr * g


if __name__ == "__main__":
    w = jnp.ones(4)
    for step in range(6):
        lr = 0.1 / (1 + step)
        w = update(w, 2 * w, lr)
    print(w)
