# source: https://github.com/data-apis/array-api/pull/690
# family: shapes
# The fix (the documented way): give the output length statically.
import jax
import jax.numpy as jnp


def func(x):
    return jnp.repeat(x, x[2], total_repeat_length=2 * x.size)


if __name__ == "__main__":
    x = jnp.arange(3)
    print(func(x))
    print(jax.jit(func)(x))
