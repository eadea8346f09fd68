# source: https://github.com/jax-ml/jax/issues/9463
# family: recompilation
# expect: JAX405
# check: stdout:unrolled: True
# Building a matrix row by row with `.at[i, :].set(...)` in a Python loop inside jit:
# "try to avoid building arrays in JAX using Python loops" -- every row is a separate
# copy of the update in the program.
import jax
import jax.numpy as jnp

num_rows, num_cols = 200, 4


def compute(par_log, kvals):
    arr_1 = jnp.zeros(shape=(num_rows, num_cols))
    for i in range(num_rows):
        arr_1 = arr_1.at[i, :].set(par_log[kvals[i]])
    return arr_1


if __name__ == "__main__":
    par_log = jnp.linspace(0.0, 1.0, 300)
    kvals = jnp.arange(num_rows + 1)
    print("unrolled:", len(jax.make_jaxpr(compute)(par_log, kvals).eqns) > 100)
    print(jax.jit(compute)(par_log, kvals).shape)
