"""flaxmodels few_shot_gan_adaption/training.py:252/255: key drawn from (normal) and then split.

Do split(key, n) key data and random_bits(key) overlap on JAX 0.12 (partitionable threefry)?
"""

import jax
import numpy as np

key = jax.random.PRNGKey(3)
sub = np.asarray(jax.random.key_data(jax.random.split(key, 8))).ravel()
bits = np.asarray(jax.random.bits(key, (8, 2), dtype=np.uint32)).ravel()
print("split key words:", sub[:4])
print("bits words     :", bits[:4])
print("shared 32-bit words:", len(set(sub.tolist()) & set(bits.tolist())))
