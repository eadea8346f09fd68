# source: https://github.com/jax-ml/jax/issues/9675
# family: mutation
# expect: JAX506
# check: error:deleted
# The maintainers' repro: a buffer donated by the first call is passed to the second one
# ("buffer has been deleted or donated"; "Array has been deleted" on JAX 0.12).
import jax


def f(x):
    return x + 1


f_jit = jax.jit(f, donate_argnums=(0,))

if __name__ == "__main__":
    buf = jax.numpy.array(1)
    f_jit(buf)
    print(f_jit(buf))
