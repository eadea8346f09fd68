import jax


def other(key):
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))  # sharp: JAX201
    return a, b


def flagged(key):
    k1, k2 = jax.random.split(key)
    a = jax.random.normal(k1, (3,))
    b = jax.random.uniform(k1, (3,))  # unrun: JAX201
    return a, b


@jax.jit
def inside(key):
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))  # unrun: JAX201
    return a + b


def step(key, x):
    noise = jax.random.normal(key, x.shape)
    return key, x + noise  # sharp: JAX201


def train(key, x):
    for _ in range(3):
        key, x = step(key, x)
    return x


if __name__ == "__main__":
    train(jax.random.key(0), jax.numpy.ones(3))
    other(jax.random.key(1))
