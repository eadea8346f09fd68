# source: https://github.com/rlouf/blog-benchmark-rwmetropolis/pull/1
# family: prng
# expect: JAX201
# check: keyreuse
# The random-walk Metropolis step uses one key for the proposal and for the acceptance
# draw (mattjj's fix in the PR splits it).
import jax
import jax.numpy as jnp


def logpdf(x):
    return -0.5 * jnp.sum(x**2)


@jax.jit
def rw_metropolis_step(key, position):
    proposal = position + jax.random.normal(key, position.shape)
    log_u = jnp.log(jax.random.uniform(key))
    accept = log_u < logpdf(proposal) - logpdf(position)
    return jnp.where(accept, proposal, position)


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    x = jnp.zeros(2)
    for _ in range(3):
        key, sub = jax.random.split(key)
        x = rw_metropolis_step(sub, x)
    print(x)
