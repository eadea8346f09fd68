# source: https://github.com/jax-ml/jax/issues/9463
# family: recompilation
# The fix (the reply's): one array-at-a-time broadcast instead of the row loop.
import jax
import jax.numpy as jnp

num_rows, num_cols = 200, 4


def compute(par_log, kvals):
    rows = par_log[kvals[jnp.arange(num_rows)]]
    return jnp.broadcast_to(rows[:, None], (num_rows, num_cols))


if __name__ == "__main__":
    par_log = jnp.linspace(0.0, 1.0, 300)
    kvals = jnp.arange(num_rows + 1)
    print("unrolled:", len(jax.make_jaxpr(compute)(par_log, kvals).eqns) > 100)
    print(jax.jit(compute)(par_log, kvals).shape)
