import jax
import jax.numpy as jnp
from model import Net


@jax.jit
def step(params, x):
    return Net().apply(params, x)


params = Net().init(jax.random.PRNGKey(0), jnp.ones((2, 3)))
print(step(params, jnp.ones((2, 3))))
