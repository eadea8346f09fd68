"""A module-level key declared `global` and rebound at each use moves on (LARG/jax-aht
human_data_collecting/app.py:154,188): `global _rl_load_rng; _rl_load_rng, init_rng =
jax.random.split(_rl_load_rng)` stores the new key back in the module, so successive calls
(and loop steps) draw from fresh keys. The near misses: a module-level key consumed in a
function without the `global` rebinding, one declared `global` whose split drops the new
key, and a jitted step that rebinds its `global` key (it runs once, at trace time, so the
compiled step keeps the first key as a constant); all draw the same numbers on every call."""

import jax

_rl_load_rng = jax.random.PRNGKey(0)
_stale_rng = jax.random.PRNGKey(1)
_dropped_rng = jax.random.PRNGKey(2)
_traced_rng = jax.random.PRNGKey(3)


def load_agents(configs):
    global _rl_load_rng
    agents = []
    for cfg in configs:
        _rl_load_rng, init_rng = jax.random.split(_rl_load_rng)
        agents.append(jax.random.normal(init_rng, (cfg,)))
    return agents


def stale_noise():
    return jax.random.normal(_stale_rng, (3,))  # error: JAX209


def dropped_noise():
    global _dropped_rng
    _, sub = jax.random.split(_dropped_rng)  # error: JAX209
    return jax.random.normal(sub, (3,))


@jax.jit
def traced_noise(x):
    # under jit the global is read and rebound once, at trace time: every call of the
    # compiled step draws from the same constant key
    global _traced_rng
    _traced_rng, sub = jax.random.split(_traced_rng)  # error: JAX209, JAX502
    return x + jax.random.normal(sub, x.shape)


def serve(requests):
    out = []
    for r in requests:
        out.append((load_agents([r]), stale_noise(), dropped_noise(), traced_noise(r)))
    return out
