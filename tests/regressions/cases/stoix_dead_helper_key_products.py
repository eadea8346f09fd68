"""Stoix stoix/systems/ppo/anakin/ff_ppo_penalty_continuous.py:461-580 with
stoix/evaluator.py `evaluator_setup` (347-416): the helper splits `key_e` and returns the
eval keys, which the caller overwrites by splitting `key_e` again before anything reads them.
No two values in use come from one key. The near misses (the returned keys read first, a
returned value drawn from the key that the caller keeps, the keys also stored on `self`) draw
the same numbers twice: `split(key_e, n + 1)[1:]` in the helper equals the caller's."""

import jax
import jax.numpy as jnp


def evaluator_setup(params, key_e, n):
    trained = params
    key_e, *eval_keys = jax.random.split(key_e, n + 1)
    eval_keys = jnp.stack(eval_keys).reshape(n, -1)
    return (lambda p, k: k), (trained, eval_keys)


def setup_with_params(key_e, n):
    key_e, *eval_keys = jax.random.split(key_e, n + 1)
    params = jax.random.normal(eval_keys[0], (3,))
    return params, jnp.stack(eval_keys)


def run(seed, n):
    key, key_e = jax.random.split(jax.random.key(seed))
    evaluator, (params, eval_keys) = evaluator_setup(1.0, key_e, n)
    for _ in range(3):
        key_e, *eval_keys = jax.random.split(key_e, n + 1)
        evaluator(params, eval_keys)
    key_e, *eval_keys = jax.random.split(key_e, n + 1)
    return evaluator(params, eval_keys), key


def run_read(seed, n):
    key_e = jax.random.key(seed)
    evaluator, (params, eval_keys) = evaluator_setup(1.0, key_e, n)
    first = evaluator(params, eval_keys)
    key_e, *eval_keys = jax.random.split(key_e, n + 1)  # error: JAX201
    return first, evaluator(params, eval_keys)


def run_params(seed, n):
    key_e = jax.random.key(seed)
    params, eval_keys = setup_with_params(key_e, n)
    key_e, *eval_keys = jax.random.split(key_e, n + 1)  # error: JAX201
    return params, jax.random.normal(eval_keys[0], (3,))


class Store:
    def setup(self, key_e, n):
        key_e, *eval_keys = jax.random.split(key_e, n + 1)
        self.keys = eval_keys
        return eval_keys


def run_self(seed, n):
    s = Store()
    key_e = jax.random.key(seed)
    eval_keys = s.setup(key_e, n)
    key_e, *eval_keys = jax.random.split(key_e, n + 1)  # error: JAX201
    return s.keys, eval_keys
