import jax
import jax.numpy as jnp

KEY = jax.random.key(0)


@jax.jit
def noisy(x: jax.Array):
    return x + jax.random.normal(KEY, x.shape)  # sharp: JAX209


def train(xs):
    return [noisy(x) for x in xs]


SEED = jax.random.key(1)


@jax.jit
def step(x: jax.Array):
    global SEED
    SEED, sub = jax.random.split(SEED)  # sharp: JAX502, JAX209
    return x + jax.random.normal(sub, x.shape)


def loop(xs):
    return [step(x) for x in xs]


if __name__ == "__main__":
    train(jnp.ones((3, 4)))
    loop(jnp.ones((3, 4)))
