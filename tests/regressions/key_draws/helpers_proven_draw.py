"""JAX201's confidence through helpers (issues 23, 24): a helper that draws from its key
parameter on every path is a draw (high; jax-ml/jax#181's `sample_batch`/`update` sharing one
key); a helper that draws only under a branch, after an early `return`, only in a loop, or whose
draw is dropped is not proven to (medium, preview only)."""

import jax


def sample(key, n):
    return jax.random.normal(key, (n,))


def noisy(x, key):
    noise = jax.random.uniform(key, x.shape)
    return x + noise


def via_sample(key, n):
    return sample(key, n) * 2.0


def split_then_draw(key, n):
    key, sub = jax.random.split(key)
    return jax.random.normal(sub, (n,)), key


def maybe(key, n, flag):
    if flag:
        return jax.random.normal(key, (n,))
    return None


def early(key, n):
    if n == 0:
        return None
    return jax.random.normal(key, (n,))


def looped(key, xs):
    out = []
    for x in xs:
        out.append(x + jax.random.normal(key, x.shape))  # error: JAX201
    return out


def rebound(key, n):
    key = jax.random.key(n)
    return jax.random.normal(key, (n,))


def dropped(key, n):
    _ = jax.random.normal(key, (n,))
    return n


def one_of(key, n, flag):
    return jax.random.normal(key, (n,)) if flag else None


def proven(x):
    key = jax.random.key(0)
    a = sample(key, 3)
    b = noisy(x, key)  # error: JAX201
    return a, b


def proven_transitively(x):
    key = jax.random.key(0)
    a = via_sample(key, 3)
    b = noisy(x, key)  # error: JAX201
    return a, b


def proven_by_a_split(x):
    key = jax.random.key(0)
    a = split_then_draw(key, 3)
    b = noisy(x, key)  # error: JAX201
    return a, b


def under_branch(x, flag):
    key = jax.random.key(0)
    a = maybe(key, 3, flag)
    b = noisy(x, key)  # medium: JAX201
    return a, b


def after_early_return(x):
    key = jax.random.key(0)
    a = early(key, 3)
    b = noisy(x, key)  # medium: JAX201
    return a, b


def in_a_loop(x, xs):
    key = jax.random.key(0)
    a = looped(key, xs)
    b = noisy(x, key)  # medium: JAX201
    return a, b


def parameter_rebound(x):
    key = jax.random.key(0)
    a = rebound(key, 3)  # a rebound parameter is not consumed: silent
    b = noisy(x, key)
    return a, b


def draw_dropped(x):
    key = jax.random.key(0)
    a = dropped(key, 3)
    b = noisy(x, key)  # the helper's draw is discarded: no use of the key, as in place: silent
    return a, b


def conditional_expression(x, flag):
    key = jax.random.key(0)
    a = one_of(key, 3, flag)
    b = noisy(x, key)  # medium: JAX201
    return a, b
