# source: https://github.com/blackjax-devs/blackjax/issues/1029
# family: host-conversion
# multi-module: the helper stays in jnp.
import jax
import jax.numpy as jnp
from utils import clip_norm


@jax.jit
def step(w, g):
    return w - 0.1 * clip_norm(g, 1.0)


if __name__ == "__main__":
    print(step(jnp.ones(3), jnp.ones(3) * 5.0))
