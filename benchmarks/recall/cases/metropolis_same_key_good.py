# source: https://github.com/rlouf/blog-benchmark-rwmetropolis/pull/1
# family: prng
# The fix: split the step's key for its two draws.
import jax
import jax.numpy as jnp


def logpdf(x):
    return -0.5 * jnp.sum(x**2)


@jax.jit
def rw_metropolis_step(key, position):
    move_key, accept_key = jax.random.split(key)
    proposal = position + jax.random.normal(move_key, position.shape)
    log_u = jnp.log(jax.random.uniform(accept_key))
    accept = log_u < logpdf(proposal) - logpdf(position)
    return jnp.where(accept, proposal, position)


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    x = jnp.zeros(2)
    for _ in range(3):
        key, sub = jax.random.split(key)
        x = rw_metropolis_step(sub, x)
    print(x)
