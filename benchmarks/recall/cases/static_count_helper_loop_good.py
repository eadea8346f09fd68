# source: https://github.com/QuantEcon/lecture-python-programming/pull/442
# family: recompilation
# expect: JAX405
# check: stdout:unrolled: True
# The fix of the PR: the time loop is a `lax.fori_loop`, one copy of the body whatever `n`.
from functools import partial

import jax
import jax.numpy as jnp


def simulate_paths(s, h, key, n, mu, rho, nu, M):
    def loop_body(i, state):
        s, h, key = state
        key, subkey = jax.random.split(key)
        Z = jax.random.normal(subkey, (2, M))
        s = s + mu + jnp.exp(h) * Z[0, :]
        h = rho * h + nu * Z[1, :]
        return s, h, key

    s, h, key = jax.lax.fori_loop(0, n, loop_body, (s, h, key))
    return s


@partial(jax.jit, static_argnames=("n", "M"))
def compute_call_price(beta, mu, S0, h0, K, key, n, rho, nu, M):
    s = jnp.full(M, jnp.log(S0))
    h = jnp.full(M, h0)
    s = simulate_paths(s, h, key, n, mu, rho, nu, M)
    return beta**n * jnp.mean(jnp.maximum(jnp.exp(s) - K, 0))


if __name__ == "__main__":
    args = (0.96, 0.0001, 10.0, 0.0, 100.0, jax.random.PRNGKey(1))
    price = partial(compute_call_price.__wrapped__, n=200, rho=0.1, nu=0.001, M=1000)
    print("unrolled:", len(jax.make_jaxpr(price)(*args).eqns) > 100)
    print(compute_call_price(*args, n=200, rho=0.1, nu=0.001, M=1000))
