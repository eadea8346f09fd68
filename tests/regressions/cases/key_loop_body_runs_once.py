"""A loop whose body always leaves it (`while True: ...; break`, a retry block written as a
loop) runs its draw once: the key is not reused from step to step. The flow graph decides it
(`KeyFlow._runs_again`: the statement may run again after itself). The near miss, rejection
sampling that breaks only when a draw is accepted, redraws from the same key on every retry
and still fires."""

import jax


def once(key):
    while True:
        x = jax.random.normal(key, (3,))
        break
    return x


def first_batch(key, batches):
    for batch in batches:
        noise = jax.random.normal(key, (3,))
        return batch + noise
    return None


def rejection(key, n):
    x = None
    for _ in range(n):
        x = jax.random.normal(key, (3,))  # error: JAX201
        if x.sum() > 0:
            break
    return x
