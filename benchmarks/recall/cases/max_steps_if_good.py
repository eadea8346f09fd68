# source: https://github.com/patrick-kidger/diffrax/issues/379
# family: control-flow
# The fix from the thread: max_steps is not traced (static).
import jax
import jax.numpy as jnp


def solve(y0, max_steps):
    if max_steps == 1:
        return y0 * 0.5
    return jax.lax.fori_loop(0, 8, lambda i, y: y * 0.5, y0)


if __name__ == "__main__":
    print(jax.jit(solve, static_argnums=1)(jnp.ones(2), 16))
