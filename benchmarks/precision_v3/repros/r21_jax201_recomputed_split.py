"""fedjax algorithms/hyp_cluster_test.py:42/73, core/models_test.py:250/302/378 (JAX201): the
same `split(rng)` computed twice and its two DIFFERENT children used is not a reuse (it is one
split written twice, to replicate the library's key sequence)."""
import jax

rng_0 = jax.random.PRNGKey(0)
rng_uniform_00 = jax.random.uniform(jax.random.split(rng_0)[1], [])
rng_uniform_01 = jax.random.uniform(jax.random.split(jax.random.split(rng_0)[0])[1], [])
print(rng_uniform_00, rng_uniform_01)
