"""sokrypton/ColabDesign colabdesign/tr/trrosetta.py:56-59 (JAX201 high, precision v8 check set,
read by an untuned reader): `if n == 1: y = dropout(y, key, rate)` in `for n in [0, 1]:` draws
from `key` on the second pass only, so the key is consumed once per `block` call, not in every
iteration. A branch that holds on one step of a loop over a literal of constants (the compared
constant occurs once, the target is not rebound) runs once (`loops.runs_once_in`, asked by the
key analysis as by the per-step rules). The near miss, the constant listed twice, still fires."""

import jax


def get_model():
    def dropout(x, key, rate):
        keep = jax.random.bernoulli(key, 1.0 - rate, shape=x.shape)
        return keep * x / (1.0 - rate)

    def block(x, params, key, rate=0.15):
        y = x
        for n in [0, 1]:
            if n == 1:
                y = dropout(y, key, rate)
            p = jax.tree_util.tree_map(lambda v, n=n: v[n], params)
            y = y * p
        return y

    def block_twice(x, params, key, rate=0.15):
        y = x
        for n in [0, 1, 1]:
            if n == 1:
                y = dropout(y, key, rate)  # error: JAX201
            p = jax.tree_util.tree_map(lambda v, n=n: v[n], params)
            y = y * p
        return y

    return jax.jit(block), jax.jit(block_twice)
