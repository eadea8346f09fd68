"""JAX201 on compass trainers/eas_emb.py:500: `get_instances(cfg.problems, key, ...)` splits
`key` (prepare_problem_batch: `random.split(prng_key, 3)`; load_instances: `random.split(key, 2)`)
and then `key = random.split(key, cfg.num_devices)` splits it again. Check that the two splits of
one key share their leading keys (so device 0's EAS key is the problem/start key)."""

import jax

key = jax.random.PRNGKey(0)
three = jax.random.split(key, 3)
two = jax.random.split(key, 2)
for n in (1, 2, 4, 8):
    dev = jax.random.split(key, n)
    print(
        n,
        "dev[0]==split3[0]:",
        bool((dev[0] == three[0]).all()),
        "dev[0]==split2[0]:",
        bool((dev[0] == two[0]).all()),
    )
