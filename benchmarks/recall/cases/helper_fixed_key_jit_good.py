# source: https://github.com/gchq/coreax/issues/375
# family: prng
# The fix: the step takes a key, the caller advances it.
import jax
import jax.numpy as jnp


def perturb(key, x, sigma):
    return x + sigma * jax.random.normal(key, x.shape)


@jax.jit
def loop_body(key, x):
    return perturb(key, x, 0.1)


if __name__ == "__main__":
    x = jnp.zeros(5)
    key = jax.random.PRNGKey(0)
    noises = []
    for _ in range(3):
        key, sub = jax.random.split(key)
        noises.append(loop_body(sub, x))
    print("same perturbation:", all(bool(jnp.all(n == noises[0])) for n in noises))
