"""JAX201 FP: the first `split` of the key is dead (its result is overwritten before any use),
so the second `split` of the same key correlates nothing.

From instadeepai/Mava mava/systems/ppo/anakin/ff_ippo.py:472 and :531 (same pattern in
ff_mappo.py:456/514, rec_ippo.py:612/677, rec_mappo.py:608/671 and
advanced_usage/ff_ippo_store_experience.py:470/616/657). `eval_keys = split(key_e, n)` is never
read: the training loop rebinds `eval_keys` from `split(key_e, n + 1)` before the evaluator runs.
Only the second split's keys are ever used, so no two draws share a key.
"""
import jax
import jax.numpy as jnp

n_devices = 2
key, key_e = jax.random.split(jax.random.key(0))
eval_keys = jax.random.split(key_e, n_devices)  # dead: rebound below before any use

for step in range(3):
    key_e, *eval_keys = jax.random.split(key_e, n_devices + 1)
    eval_keys = jnp.stack(eval_keys)
    print(step, jax.random.uniform(eval_keys[0]))
