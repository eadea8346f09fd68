import jax


def init(key, n):
    return jax.random.normal(key, (n, n)) * 0.1


def dropout(key, x, rate=0.5):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return x * keep / (1.0 - rate)
