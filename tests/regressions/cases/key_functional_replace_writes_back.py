"""A functional object's update writes its new key into the copy it returns (knanxu/jax_flow
jax_flow/agents/bc_agent.py:232, critic_state.py:169): the agent is a `flax.struct.PyTreeNode`,
`update` splits `self.rng` and returns `self.replace(..., rng=new_rng)`, and the caller
rebinds the agent (`agent, info = agent.update(batch)`), so every step starts from a fresh
key. `dataclasses.replace(self, ...)` and `eqx.tree_at(lambda s: s.rng, self, ...)` are the
same copy. The near miss keeps the old agent and updates it twice: both calls split the same
`agent.rng`."""

import dataclasses

import equinox as eqx
import flax
import jax


class Agent(flax.struct.PyTreeNode):
    rng: jax.Array
    step: int

    @jax.jit
    def update(self, batch):
        new_rng, noise_rng = jax.random.split(self.rng)
        noise = jax.random.normal(noise_rng, batch.shape)
        return self.replace(rng=new_rng, step=self.step + 1), batch + noise


@dataclasses.dataclass(frozen=True)
class Sampler:
    rng: jax.Array

    def draw(self):
        new_rng, sub = jax.random.split(self.rng)
        return dataclasses.replace(self, rng=new_rng), jax.random.normal(sub, (3,))


class Module(eqx.Module):
    key: jax.Array

    def draw(self):
        new_key, sub = jax.random.split(self.key)
        return eqx.tree_at(lambda s: s.key, self, new_key), jax.random.normal(sub, (3,))


def train(agent, batches):
    for batch in batches:
        agent, _ = agent.update(batch)
    return agent


def sample(sampler, n):
    out = []
    for _ in range(n):
        sampler, x = sampler.draw()
        out.append(x)
    return out


def fresh(batch):
    agent = Agent(rng=jax.random.key(0), step=0)
    agent, a = agent.update(batch)
    agent, b = agent.update(batch)
    return a + b


def stale(batch):
    agent = Agent(rng=jax.random.key(0), step=0)
    _, a = agent.update(batch)
    _, b = agent.update(batch)  # error: JAX201
    return a + b
