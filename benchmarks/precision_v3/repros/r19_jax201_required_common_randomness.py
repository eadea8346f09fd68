"""fedjax aggregators/compression.py:310, learned_optimization truncated_pes.py:446,
ott geometry/low_rank.py:308 (JAX201): the same key is REQUIRED twice: an inverse transform that
must regenerate the forward transform's random signs, the +/- halves of an antithetic estimator,
and random features that must be shared by x and y. Splitting would make the code wrong."""
import jax
import jax.numpy as jnp


def rotate(x, rng):
    return x * jax.random.rademacher(rng, x.shape, dtype=x.dtype)


def inverse_rotate(y, rng):
    return y * jax.random.rademacher(rng, y.shape, dtype=y.dtype)


def compress(x, client_rng):
    rotated = rotate(x, client_rng)
    return inverse_rotate(jnp.round(rotated), client_rng)


def random_features(rng, x, rank):
    w = jax.random.normal(rng, (x.shape[-1], rank))
    return jnp.maximum(x @ w, 0.0)


def low_rank_kernel(rng, x, y, rank=8):
    k1 = random_features(rng, x, rank)
    k2 = random_features(rng, y, rank)
    return k1 @ k2.T


def antithetic(theta, eps, key, loss):
    pos = loss(theta + eps, key)
    neg = loss(theta - eps, key)
    return (pos - neg) / 2


k1, k2, k3 = jax.random.split(jax.random.key(0), 3)
print(compress(jnp.arange(4.0), k1))
print(low_rank_kernel(k2, jnp.ones((2, 3)), jnp.ones((4, 3))).shape)
print(antithetic(1.0, 0.1, k3, lambda t, k: t * jax.random.normal(k)))
