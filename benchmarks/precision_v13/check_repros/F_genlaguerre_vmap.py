"""BeeGass eval_genlaguerre.ipynb cell 16: `p_i if n > 0 else p_im1` with n vmapped."""

import jax
import jax.numpy as jnp


def cond_only(n, x):
    return x if n > 0 else -x


try:
    jax.vmap(cond_only)(jnp.arange(3), jnp.ones(3))
except Exception as e:  # noqa: BLE001
    print("conditional under vmap:", type(e).__name__)


def genlaguerre_recurrence(n, alpha, x):
    def body_fun(carry, _):
        i, (p_im1, p_i) = carry
        p_ip1 = ((2 * i + alpha + 1 - x) * p_i - (i + alpha) * p_im1) / (i + 1)
        return (i + 1, (p_i, p_ip1)), None

    _, (p_im1, p_i) = jax.lax.scan(body_fun, (1, (1.0, x)), None, n - 1)
    return p_i if n > 0 else p_im1


try:
    jax.vmap(lambda ni, xi: genlaguerre_recurrence(ni, 2.0, xi))(
        jnp.arange(10), jnp.linspace(-1, 1, 10)
    )
except Exception as e:  # noqa: BLE001
    print("full function under vmap:", type(e).__name__, str(e).splitlines()[0][:150])
