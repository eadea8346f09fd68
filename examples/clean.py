"""The same ideas written the JAX way: jaxlint reports nothing here."""

import time
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("training",))
def forward(params, x, training):
    h = jnp.tanh(x @ params["w"] + params["b"])
    if training:  # static argument: fine
        h = h * 0.5
    if x.shape[0] > 1:  # shapes are static: fine
        h = h - h.mean(axis=0)
    jax.debug.print("mean {}", h.mean())
    return jnp.where(h > 0, h, 0.0)


def main():
    key = jax.random.key(0)
    key, k_w, k_x = jax.random.split(key, 3)
    params = {"w": jax.random.normal(k_w, (8, 4)), "b": jnp.zeros(4)}
    x = jax.random.normal(k_x, (16, 8))
    forward(params, x, training=True).block_until_ready()  # warm-up: compile outside timing
    t0 = time.perf_counter()
    out = forward(params, x, training=True)
    jax.block_until_ready(out)
    print("seconds:", time.perf_counter() - t0)
    out = out.at[0].set(0.0)
    return jax.tree.map(jnp.sum, params), out


if __name__ == "__main__":
    main()
