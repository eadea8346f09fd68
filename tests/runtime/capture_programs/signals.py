"""Signal processing on 2-D arrays: shapes unpacked from `x.shape`, matmuls, indexing."""

import jax
import jax.numpy as jnp


@jax.jit
def peak(a, b):
    n, m = a.shape
    scores = a @ b.T
    flat = jnp.argmax(scores)
    return scores[flat // scores.shape[1], flat % scores.shape[1]].item()


@jax.jit
def energy(frames):
    count, width = frames.shape
    total = 0.0
    for i in range(count):
        total = total + jnp.sum(frames[i] ** 2) / width
    return total


@jax.jit
def row_sum(x):
    return jnp.sum(x)


def sweep(frames):
    out = []
    for n in range(1, frames.shape[0] + 1):
        out.append(row_sum(frames[:n]))
    return out


def normalize(frames):
    frames[0] = frames[0] / jnp.linalg.norm(frames[0])
    return frames


if __name__ == "__main__":
    a = jnp.ones((4, 3))
    b = jnp.ones((5, 3))
    frames = jnp.ones((6, 16))
    for call in (lambda: peak(a, b), lambda: energy(frames), lambda: normalize(frames)):
        try:
            print(call())
        except Exception as exc:
            print(type(exc).__name__)
    print(sweep(frames))
