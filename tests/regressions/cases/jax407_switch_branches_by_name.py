"""`lax.switch(i, ops, x)` with `ops` a name bound once to a list of functions traces each
of them (`Transforms._apply_to_expr`, `jax_api.BRANCH_TRANSFORMS`), as the inline list
`lax.switch(i, [f, g], x)` does: a host conversion in a loop of a branch runs once per
trace and becomes a constant (no JAX407), and a Python `if` on a branch's argument fails.

From the v38 check set (tuning material, read in context): kuchar-one/momemura
`src/optimization/macro_mutations.py:165`: `jnp.asarray(idx_mix_rows)` in a loop of
`op_breed_level`, one of ten mutation operators in `ops`, each run through
`jax.lax.switch(op_i, ops, g, k_use)` in a vmapped function (JAX407, read FP).
"""

import jax
import jax.numpy as jnp
import numpy as np


def make(rows, pn):
    idx_rows = np.asarray(rows)

    def op_rows(g):
        for c in range(1, pn):
            col = jnp.asarray(idx_rows)[:, c]
            g = g.at[col].set(0.0)
        return g

    def op_sign(g):
        if g.sum() > 0:  # error: JAX110
            return g
        return -g

    ops = [op_rows, op_sign]

    def mutate(i, g):
        return jax.lax.switch(i, ops, g)

    return jax.vmap(mutate)
