"""jaxopt adversarial_training.ipynb cell 9:55, neural-tangents learning_curves.ipynb cell 9:36,
kfac-jax utils/parallel.py:49 (JAX110/120): a jitted function's parameter with a Python default
that no caller passes is bound as a Python value, never traced."""
import jax
import jax.numpy as jnp


@jax.jit
def pgd_attack(image, epsilon=0.1, maxiter=10):
    pert = jnp.zeros_like(image)
    for _ in range(maxiter):
        pert = jnp.clip(pert + 2 * epsilon / maxiter, -epsilon, epsilon)
    return image + pert


@jax.jit
def density(alpha, n_points=1000):
    return jnp.linspace(0, alpha, n_points)


def pmean_if_pmap(x, axis_name: str | None):
    return jax.lax.pmean(x, axis_name) if axis_name is not None else x


def sync_and_divide(value, counter, axis_name: str | None = None):
    return pmean_if_pmap(value / counter, axis_name)


jit_sync = jax.jit(sync_and_divide)
print(pgd_attack(jnp.ones(3)), density(0.5).shape, jit_sync(jnp.ones(2), 2.0))
