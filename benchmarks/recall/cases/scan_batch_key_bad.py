# source: https://github.com/thomaspinder/GPJax/pull/99
# family: prng
# expect: JAX201
# check: keyreuse
# Inside a scan step, a helper draws batch indices from the key and then splits the
# same key for the next step (the order questioned in the review).
import jax
import jax.numpy as jnp
import jax.random as jr


def get_batch_new_key(x, batch_size, key):
    indicies = jr.choice(key, x.shape[0], (batch_size,), replace=True)
    _, new_key = jr.split(key)
    return x[indicies], new_key


def fit(x, n_iters):
    def step(carry, _):
        params, current_key = carry
        batch, new_key = get_batch_new_key(x, 4, current_key)
        params = params - 0.1 * (params - batch.mean())
        return (params, new_key), params

    (params, _), history = jax.lax.scan(step, (jnp.array(0.0), jr.PRNGKey(0)), None, n_iters)
    return params, history


if __name__ == "__main__":
    print(fit(jnp.arange(10.0), 5)[0])
