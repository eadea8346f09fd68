"""Row: qiaosungithub/jax_llava distill.py:351 JAX408 -- does jnp.mean accept a Python list of arrays?"""

import jax
import jax.numpy as jnp

xs = [jax.nn.softmax(jnp.ones(3)), jax.nn.softmax(jnp.arange(3.0))]
try:
    print(jnp.mean(xs, axis=0))
except TypeError as e:
    print("TypeError:", e)
