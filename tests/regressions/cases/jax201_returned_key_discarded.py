"""A helper returns the key it drew from, and every caller in the module discards it (`_`) or
only tests it against None, so nothing draws from it again (v17 and v18 rows, tuning
material: geojax examples/largest_eigenvector.py:35-52, HighJax
tests/test_highjax_trainer/test_crash_display.py:22-31, JAX201; analysis/result_uses.py). The
twins: a caller that keeps the key, a helper passed on as a value (its callers are unknown),
and a helper nobody here calls."""

import jax
import jax.numpy as jnp


def make_problem(n, seed):
    key = jax.random.key(seed)
    key_matrix, key_init = jax.random.split(key)
    b = jax.random.normal(key_matrix, shape=(n, n))
    x0 = jax.random.normal(key_init, shape=(n,))
    return 0.5 * (b + b.T), x0, key


def solve(n=8, seed=123):
    a, x0, _ = make_problem(n, seed)
    return a @ x0


def find_large_draw(threshold, max_attempts=50):
    for seed_num in range(max_attempts):
        seed = jax.random.PRNGKey(seed_num + 100)
        draw = jax.random.normal(seed, (4,))
        if jnp.max(draw) > threshold:
            return seed, draw
    return None, None


class TestDraws:
    def test_found(self):
        seed, draw = find_large_draw(1.0)
        assert seed is not None
        assert draw.shape == (4,)


def make_noise_twin(seed):
    key = jax.random.key(seed)
    noise = jax.random.normal(key, (3,))
    return noise, key  # error: JAX201


def use_noise_twin():
    noise, key = make_noise_twin(0)
    return noise + jax.random.uniform(key, (3,))


def perturb_twin(x, key):
    noise = jax.random.normal(key, x.shape)
    return x + noise, key  # error: JAX201


def apply_all_twin(xs, key):
    return [r for r, _ in map(lambda x: perturb_twin(x, key), xs)] + [perturb_twin]


def uncalled_twin(key):
    noise = jax.random.normal(key, (3,))
    return noise, key  # error: JAX201
