# source: https://github.com/patrick-kidger/diffrax/issues/379
# family: control-flow
# expect: JAX110
# check: error:TracerBoolConversionError
# max_steps is passed as an argument of the jitted solve, so `if max_steps == 1` tests a
# tracer.
import jax
import jax.numpy as jnp


def solve(y0, max_steps):
    if max_steps == 1:
        return y0 * 0.5
    return jax.lax.fori_loop(0, 8, lambda i, y: y * 0.5, y0)


if __name__ == "__main__":
    print(jax.jit(solve)(jnp.ones(2), 16))
