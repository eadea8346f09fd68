import jax
import jax.numpy as jnp


def forward(x, key, training):
    if training:
        a = jax.random.normal(key, x.shape)
        b = jax.random.bernoulli(key, 0.5, x.shape)  # sharp: JAX201
        return x * a * b
    return x


if __name__ == "__main__":
    forward(jnp.ones(3), jax.random.key(0), False)  # an evaluation call first
    forward(jnp.ones(3), jax.random.key(1), True)
