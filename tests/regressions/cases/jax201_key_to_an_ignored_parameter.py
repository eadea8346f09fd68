"""JAX201: keys handed only to a parameter its callee never reads are never drawn from, so the
split that made them correlates with nothing (analysis/deadness.py `_only_ignored_arguments`:
a load that passes the value to such a parameter is no read).

Reduced from oxcsml/riemannian-score-sde scripts/examples/so3.ipynb cell 13 (v36 check set,
JAX201 high FP, tuning material): `key, next_key = split(state)` twice, each `next_key` given
to `sample_unif_scipy(state, n_samples)`, which draws from scipy and ignores `state`. The near
misses: a sampler that draws from its key, a callee that reads the parameter in a nested
function, and one that takes it through `*args`.
"""

import jax
from scipy.stats import special_ortho_group


def sample_unif_scipy(state, n_samples):
    return special_ortho_group.rvs(3, size=n_samples)


def sample_jax(state, n_samples):
    return jax.random.normal(state, (n_samples, 3))


def sample_later(state, n_samples):
    def draw():
        return jax.random.normal(state, (n_samples, 3))

    return draw()


def sample_any(*args):
    return jax.random.normal(args[0], (args[1], 3))


def scipy_twice():
    state = jax.random.PRNGKey(0)
    key, next_key = jax.random.split(state)
    x_t = sample_unif_scipy(next_key, 2)
    key, next_key = jax.random.split(state)
    return x_t, sample_unif_scipy(next_key, 2)


def jax_twice():
    state = jax.random.PRNGKey(0)
    key, next_key = jax.random.split(state)
    x_t = sample_jax(next_key, 2)
    key, next_key = jax.random.split(state)  # error: JAX201
    return x_t, sample_jax(next_key, 2)


def nested_twice():
    state = jax.random.PRNGKey(0)
    key, next_key = jax.random.split(state)
    x_t = sample_later(next_key, 2)
    key, next_key = jax.random.split(state)  # error: JAX201
    return x_t, sample_later(next_key, 2)


def starred_twice():
    state = jax.random.PRNGKey(0)
    key, next_key = jax.random.split(state)
    x_t = sample_any(next_key, 2)
    key, next_key = jax.random.split(state)  # error: JAX201
    return x_t, sample_any(next_key, 2)
