"""`eqx.filter_grad` differentiates its first argument only; the others pass through as they
are. A jitted step that calls it with a Python int read from a closed-over object
(chanb/jax_learning soft_actor_critic.py:574, `jnp.tile(obss, cql_num_action_samples)` with
`self._cql_num_action_samples = cfg.num_action_samples`) gives it a concrete int: the grad's
other parameters are traced only when the jitted caller passes a tracer. The twin passes the
count as an argument of the jitted step (a tracer under `jax.jit`)."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Learner:
    def __init__(self, n_samples: int):
        self._n_samples = n_samples

        @eqx.filter_grad
        def loss(w, x, n_samples: int):
            return jnp.sum(jnp.tile(x, n_samples) * w)

        def update(w, x):
            return loss(w, x, self._n_samples)

        self.update = eqx.filter_jit(update)


@eqx.filter_grad
def scaled_loss(w, x, n):
    return jnp.sum(jnp.tile(x, n) * w)  # error: JAX120


@jax.jit
def step(w, x, n):
    return scaled_loss(w, x, n)
