# FP (JAX204): `random` is never imported in this module (the hypernerf notebook
# hypernerf_optim_latent.ipynb relies on a name bound elsewhere, in practice `from jax import
# random`); the stdlib `random` has no `split`, so the call cannot be the host RNG.
import jax


def f(rng, x):
    a, b = random.split(rng, 2)  # noqa: F821 -- jaxlint fires JAX204 here (wrong)
    return x + a[0]


g = jax.jit(f)
