"""A module-level rebinding of a global is stale only for a jitted run of the code that reads
it before the rebinding: qdpy-numpyro's run_reduced_problem_iterative.py calls other jitted
functions (`model_D_`, which never reads `data_hess`) and the reader's own function eagerly
(`print(loss_fn(c0))`, which reads the global afresh) before `data_hess` is rebound; the first
jitted run of the reader (`_loss_fn(c0)`) comes after. The twin runs the jitted reader before
the rebinding and again after it: the second run reuses the first trace."""

import jax
import jax.numpy as jnp

data_hess = jnp.eye(3)


def model_d(c):
    return jnp.sin(c)


def misfit(c):
    return jnp.trace(data_hess) * jnp.sum(c**2)


def loss_fn(c):
    return misfit(c) + jnp.sum(model_d(c))


model_d_ = jax.jit(model_d)
_loss_fn = jax.jit(loss_fn)

c0 = jnp.ones(3)
pred = model_d_(c0)
print(loss_fn(c0))
data_hess = 2.0 * jnp.eye(3)
loss = _loss_fn(c0)

table = jnp.eye(3)


@jax.jit
def scaled(c):
    return jnp.trace(table) * c  # error: JAX503


first = scaled(c0)
table = 2.0 * jnp.eye(3)
second = scaled(c0)
