"""A parameter of a filter transform (`eqx.filter_jit`, `filter_vmap`, `nnx.jit`) holds a
tracer only when an array is passed: the transform hands every other value through as it is.
Without evidence (an annotation, a visible call that passes an array, a use as an array in
the body) the parameter's kind is unknown, and unknown is not traced (v14 tuning row,
mistry-lab/mjx_fitted_iteration diff_sim/utils/mj_data_manager.py:36, JAX120 high x1:
`jnp.zeros((batch_size, ...))` with `batch_size` a Python int from every caller, in modules
the file does not import). The twins: the same body where the parameter is used as an array
(`.shape`), annotated as one, or passed an array by a visible call. And a defaulted
parameter that every visible call leaves at its literal default or passes a Python value
(v15 row, tuning material: jaxprop examples/optimistix/diffrax_polytropic_expansion.py:95,
`num_steps=50`, JAX120): static, though a call passes it; the twin passes an array."""

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array


@eqx.filter_jit
def batched(model, xs, chunk):
    n = xs.shape[0]
    outs = []
    for i in range(0, n, chunk):
        outs.append(jax.vmap(model)(xs[i : i + chunk]))
    return jnp.concatenate(outs)


@eqx.filter_jit
def reset(data, batch_size):
    return jnp.zeros((batch_size, data.shape[-1]))


@eqx.filter_jit
def reset_used_as_array(data, batch_size):
    scale = batch_size.sum()  # a use only an array has
    return jnp.zeros((batch_size, data.shape[-1])) * scale  # error: JAX120


@eqx.filter_jit
def reset_annotated(data, batch_size: Array):
    return jnp.zeros((batch_size, data.shape[-1]))  # error: JAX120


@eqx.filter_jit
def reset_called(data, batch_size):
    return jnp.zeros((batch_size, data.shape[-1]))  # error: JAX120


reset_called(jnp.ones((4, 3)), jnp.asarray(4))


@eqx.filter_jit
def expansion(params, num_steps=None):
    if num_steps is not None:
        return jnp.linspace(params[0], params[1], num_steps)
    return params


expansion(jnp.ones(2), num_steps=50)
expansion(jnp.ones(2))


@eqx.filter_jit
def expansion_twin(params, num_steps=None):
    if num_steps is not None:
        return jnp.linspace(params[0], params[1], num_steps)  # error: JAX120
    return params


expansion_twin(jnp.ones(2), num_steps=jnp.asarray(50))
