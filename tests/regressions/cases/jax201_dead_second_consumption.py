"""JAX201: a later consumption whose keys or samples nothing reads correlates with nothing,
as an earlier dead one does (analysis/flow/keys.py `_consume`: the dead draw is skipped and
the earlier consumption stays the one a later draw is compared with).

Reduced from amberxie88/latent_diffusion_planning agent/dp_agent.py:192-196 and
agent/dp_repr_agent.py:203-207 (v34 check set, JAX201 high FP x2, tuning material after the
reading): `get_metrics` hands `rng` to a jitted step that splits it, then a leftover
`sample_rng, rng = jax.random.split(rng)` whose keys are never read. The near misses: a draw
after the dead split is still compared with the live first one, and a split whose child is
read.
"""

from functools import partial

import jax


class Agent:
    def get_metrics(self, batch, rng):
        metrics = self.get_metrics_step(batch, rng)
        sample_rng, rng = jax.random.split(rng)
        return metrics

    @partial(jax.jit, static_argnums=0)
    def get_metrics_step(self, batch, rng):
        rng, g_rng = jax.random.split(rng)
        return batch + jax.random.normal(g_rng, batch.shape)


def draw_after_dead_split(rng):
    out = jax.random.normal(rng, (3,))
    sample_rng, unused = jax.random.split(rng)
    return out, jax.random.uniform(rng, (3,))  # error: JAX201


def split_read(rng):
    out = jax.random.normal(rng, (3,))
    sample_rng, rng = jax.random.split(rng)  # error: JAX201
    return out, sample_rng
