"""jaxopt tests/scipy_wrappers_test.py:59/60 (JAX501): `jnp.split` returns a Python list of
arrays; assigning into the list is fine."""
import jax.numpy as jnp


def do_pytree(array, split_indices, reshape_shape):
    pytree = jnp.split(array, split_indices)
    pytree[0] = pytree[0].reshape(reshape_shape)
    pytree[-1] = {"-1": pytree[-1]}
    return pytree


print(do_pytree(jnp.arange(10.0), [4, 6, 9], [-1, 2]))
