"""JAX601 FP: the timed region blocks on its result (`eval_metrics`); the array jaxlint wants
blocked (`eval_keys`) is an input of that result, so it is necessarily computed before
`block_until_ready(eval_metrics)` returns.

From instadeepai/Mava mava/advanced_usage/ff_ippo_store_experience.py:613-625 (and :652-664).
"""
import time

import jax
import jax.numpy as jnp


def get_eval_fn():
    return jax.jit(lambda params, keys: {"ret": params * jax.random.uniform(keys[0])})


evaluator = get_eval_fn()
key_e = jax.random.key(0)
params = jnp.ones(3)

start_time = time.time()
key_e, *eval_keys = jax.random.split(key_e, 3)
eval_keys = jnp.stack(eval_keys)
eval_metrics = evaluator(params, eval_keys)
jax.block_until_ready(eval_metrics)
elapsed_time = time.time() - start_time
print(f"eval took {elapsed_time:.3f}s")
