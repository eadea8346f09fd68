from functools import partial

import jax

from pkg.asperity import inner, inner_twin
from pkg.cfg import STATIC


def _static_force(u, etan, emod):
    return inner(u, etan, emod), u


@partial(jax.jit, static_argnums=tuple(range(1, 3)))
def static_force_grad(u, etan, emod):
    diff = jax.jacfwd(_static_force, has_aux=True)
    j, aux = diff(u, etan, emod)
    return j, aux


def _force_unknown(u, etan, emod):
    return inner(u, etan, emod), u


@partial(jax.jit, static_argnums=STATIC)
def force_grad_unknown(u, etan, emod):
    j, aux = jax.jacfwd(_force_unknown, has_aux=True)(u, etan, emod)
    return j, aux


def _force_twin(u, etan, emod):
    return inner_twin(u, etan, emod), u


@jax.jit
def force_grad_twin(u, etan, emod):
    j, aux = jax.jacfwd(_force_twin, has_aux=True)(u, etan, emod)
    return j, aux
