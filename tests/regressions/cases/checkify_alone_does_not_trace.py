"""JAX110: `checkify.checkify(f)` alone does not stage `f`: the wrapper calls it op by op with
the arguments it is given (on JAX 0.10.2 and 0.12 `f` sees concrete arrays and the Python ints
of a config), so a Python `if` on a config field there is a Python bool.

Reduced from leo1200/astronomix astronomix/time_stepping/time_integration.py:630 (v29 check
set, FP x5, tuning material now): `_time_integration` is jitted with `config` static on one
path and checkified without jit on the other (`runtime_debugging`), and a `lax.while_loop`
body closes over `config` (a NamedTuple of Python ints) and tests `config.solver_mode` with
`if`. `checkify` is a pass-through wrapper (analysis/jax_api.py `FUNCTION_PASS_THROUGH`), not
a transform. The marked line is the near miss: under `jax.jit(checkify.checkify(g))` the jit
traces `g`, and an `if` on an array there fails.
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax.experimental import checkify


class Config(NamedTuple):
    fixed_timestep: bool = False
    solver_mode: int = 0


def integrate(state, config, t_end):
    def update_step(carry):
        time, x = carry
        if not config.fixed_timestep:
            dt = 0.1 / (1.0 + jnp.max(jnp.abs(x)))
        else:
            dt = 0.1
        if config.solver_mode == 0:
            x = x - dt * x
        checkify.check(jnp.all(jnp.isfinite(x)), "non-finite state")
        return time + dt, x

    return jax.lax.while_loop(lambda c: c[0] < t_end, update_step, (0.0, state))


def run(state, config, t_end, debug):
    if debug:
        err, out = checkify.checkify(integrate, errors=checkify.user_checks)(state, config, t_end)
        err.throw()
        return out
    return jax.jit(integrate, static_argnames=["config"])(state, config, t_end)


def normalise(x):
    if jnp.sum(x) > 0:  # error: JAX110
        return x / jnp.sum(x)
    return x


checked_normalise = jax.jit(checkify.checkify(normalise))
