# source: https://github.com/gbionics/jaxsim/pull/344
# family: benchmarking
# The fix (the PR's): wrap the timed call in jax.block_until_ready.
import time

import jax
import jax.numpy as jnp


@jax.jit
def forward_dynamics(q, qd):
    m = q[:, :, None] * q[:, None, :] + jnp.eye(q.shape[1])
    return jnp.linalg.solve(m, qd[..., None])[..., 0]


def benchmark(fn, *args, repeats=5):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        best = min(best, time.perf_counter() - start)
    return best


if __name__ == "__main__":
    key_q, key_qd = jax.random.split(jax.random.PRNGKey(0))
    q = jax.random.normal(key_q, (2048, 64))
    qd = jax.random.normal(key_qd, (2048, 64))
    forward_dynamics(q, qd).block_until_ready()
    print(f"elapsed={benchmark(forward_dynamics, q, qd):f}")
