"""JAX503: a global that `main` sets once, before it first calls the jitted reader.

Reduced from ayaka14732/llama-2-jax train.py:75 (precision v6 check half, FP): `main` does
`global optimize; optimize = optimizer.update` (train.py:115) and only then calls the jitted
`train_step` that reads `optimize` (train.py:136, in the epoch loop); `main` runs once, from
`if __name__ == "__main__":`. Every write runs before the first trace, so the baked-in value
is the only one the global ever has. The marked line is the near miss kept next to it:
`main_twin` rebinds `scale` inside the loop that calls the reader, so a later step's write
comes after a trace (program order from the flow graph: the write is above the call in the
loop body, but the loop runs it again after the call).
"""

import jax
import jax.numpy as jnp

optimize = None
scale = 1.0


@jax.jit
def train_step(params, grads):
    return optimize(params, grads)


@jax.jit
def scaled_step(params):
    return params * scale  # error: JAX503


def main() -> None:
    global optimize
    params = jnp.ones(3)
    optimize = lambda p, g: p - 0.1 * g  # noqa: E731
    for _ in range(3):
        params = train_step(params, jnp.ones(3))
    print(params)


def main_twin() -> None:
    global scale
    params = jnp.ones(3)
    for step in range(3):
        scale = 1.0 + step
        params = scaled_step(params)
    print(params)


if __name__ == "__main__":
    main()
    main_twin()
