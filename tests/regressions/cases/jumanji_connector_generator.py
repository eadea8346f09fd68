"""jumanji environments/routing/connector/generator.py:197-321. Two true positives the linter
missed or kept: the scan body returns the consumed `key` as its carry (`next_key` is never used),
so every agent's start cell is drawn from the same key; and start cell and first move come from
one key. The near miss: `jax.vmap(self._select_action, in_axes=(0, None, 0))` maps `keys` (the
bound method's `self` is not one of the vmapped arguments), so no key is broadcast."""

import jax
import jax.numpy as jnp


class Generator:
    def __init__(self, grid_size, num_agents):
        self.grid_size = grid_size
        self.num_agents = num_agents

    def _initialize_agents(self, key, grid):
        def _initialize_agent(carry, agent_id):
            key, flat_grid = carry
            key, next_key = jax.random.split(key)
            start = jax.random.choice(key, jnp.arange(self.grid_size**2), (), p=flat_grid == 0)
            flat_grid = flat_grid.at[start].set(agent_id)
            cells = jnp.arange(4) + start
            move = jax.random.choice(key, cells, (), p=cells >= 0)  # error: JAX201
            return (key, flat_grid), (start, move)  # error: JAX201

        return jax.lax.scan(_initialize_agent, (key, grid.ravel()), jnp.arange(self.num_agents))

    def _select_action(self, key, grid, agent):
        cells = jnp.arange(4) + agent
        return jax.random.choice(key, cells, (), p=cells < grid.size)

    def _step_agents(self, key, grid, agents):
        keys = jax.random.split(key, num=self.num_agents)
        return jax.vmap(self._select_action, in_axes=(0, None, 0))(keys, grid, agents)
