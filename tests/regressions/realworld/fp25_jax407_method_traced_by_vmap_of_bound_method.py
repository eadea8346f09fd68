"""JAX407 FP (fixed for this reduction: a transform of `obj.method`, with `obj = Cls(...)` of
a plain class of the module, now traces the method): the comprehension builds one small constant per agent inside a method
that every caller traces, `jax.vmap(env.get_avail_actions)(...)`. Under vmap the comprehension
runs once, at trace time, and the constants are folded into the program: there is no per-step
host-to-device copy to hoist. jaxlint does not follow a transform applied to a bound method of
an instance (`env.get_avail_actions`), so it treats the method as eager. In JaxMARL the callers
are in other modules and the instance comes from the `jaxmarl.make(...)` factory, so neither
this module nor the project index can see the class.

From FLAIROx/JaxMARL jaxmarl/environments/jaxnav/jaxnav_env.py:466-468 (callers:
baselines/IPPO/ippo_rnn_smax.py:194, baselines/MAPPO/mappo_rnn_smax.py:303).
"""
import jax
import jax.numpy as jnp


class Env:
    def __init__(self, agents):
        self.agents = agents

    def get_avail_actions(self, state):
        return {a: jnp.array([1.0, 1.0]) for a in self.agents}


env = Env(["agent_0", "agent_1"])
print(jax.vmap(env.get_avail_actions)(jnp.zeros(3)))
