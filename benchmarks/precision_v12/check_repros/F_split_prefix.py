"""hiazmani/jax_ec_ai_lab sim_runner.py:130/137: split(rng, 3)[1] (k_build in init_agent_state)
equals split(rng, 2)[1] (k_scan in simulate_vectorized)."""

import jax

k = jax.random.PRNGKey(42)
a = jax.random.split(k, 3)
b = jax.random.split(k, 2)
print(a, b)
assert (a[1] == b[1]).all() and (a[0] == b[0]).all()
print("shared prefix keys: yes")
