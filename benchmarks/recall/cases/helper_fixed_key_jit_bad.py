# source: https://github.com/gchq/coreax/issues/375
# family: prng
# expect: JAX208 JAX202
# check: stdout:same perturbation: True
# The loop body perturbs its inputs with noise from a key built inside the helper from a
# fixed seed: the jitted step adds the same perturbation on every call.
import jax
import jax.numpy as jnp


def perturb(x, sigma):
    key = jax.random.PRNGKey(0)
    return x + sigma * jax.random.normal(key, x.shape)


@jax.jit
def loop_body(x):
    return perturb(x, 0.1)


if __name__ == "__main__":
    x = jnp.zeros(5)
    noises = [loop_body(x) for _ in range(3)]
    print("same perturbation:", all(bool(jnp.all(n == noises[0])) for n in noises))
