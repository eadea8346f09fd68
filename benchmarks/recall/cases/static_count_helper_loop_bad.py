# source: https://github.com/QuantEcon/lecture-python-programming/pull/442
# family: recompilation
# expect: JAX405
# check: stdout:unrolled: True
# "JAX unrolls Python `for` loops during JIT compilation": the pricer's time loop runs
# `range(n)` with `n` a static argument; here the loop sits in a helper that the jitted
# pricer calls with its static `n` (issue 24's "static step count that flows through a
# helper"), so every step becomes a copy of the body in the compiled program.
from functools import partial

import jax
import jax.numpy as jnp


def simulate_paths(s, h, key, n, mu, rho, nu, M):
    for _ in range(n):
        key, subkey = jax.random.split(key)
        Z = jax.random.normal(subkey, (2, M))
        s = s + mu + jnp.exp(h) * Z[0, :]
        h = rho * h + nu * Z[1, :]
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
