# source: https://github.com/jax-ml/jax/issues/16906
# family: mutation
# expect: JAX506
# check: error:deleted
# The report's last lines: `fn(x, y)` with `donate_argnums=1`, then `print(y)` ->
# "RuntimeError: Array has been deleted." The donated argument is gone after the call.
import jax
import jax.numpy as jnp


def fn(x, y):
    return x, y


fn = jax.jit(fn, donate_argnums=1)

if __name__ == "__main__":
    x = {"A": jnp.float32(1.0), "B": jnp.float32(2.0)}
    y = jnp.float32(3.0)
    fn(x, y)
    print(x)
    print(y)
