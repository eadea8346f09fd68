"""JAX403: a static argument that is a Python bool takes at most two values, so it compiles at
most twice, however many steps the loop runs: a comparison, `bool(...)`, or the result of a
function whose every return is one (`return step >= start`).

Reduced from the held-out corpus (precision v6): google/aqt aqt/jax_legacy/jax/imagenet/
train.py:461-462, `update_bounds = train_utils.should_update_bounds(..., step)` and
`quantize_weights = train_utils.should_quantize_weights(start, step // steps_per_epoch)` passed
as static arguments of the pmapped train step (the helpers live in another module there; the
project index's `bool_returns` carries the same fact: tests/test_project_index.py). Settled
with JAX 0.12: `train_step._cache_size()` is 4 (two bools, 2 x 2 programs) after 10 steps of
`train`, 10 for `train_phase`.
The marked line is the near miss: a helper returning an int that walks the step (one value,
one compile, per step).
"""

import functools

import jax
import jax.numpy as jnp


def should_quantize(start, step):
    return step >= start


def should_update(every, start, step):
    if start == -1 or step < start:
        return False
    return (step - start) % every == 0


def phase(step, every):
    return step // every


@functools.partial(jax.jit, static_argnums=(1, 2))
def train_step(x, quantize, update):
    x = jnp.round(x) if quantize else x
    return x + 1.0 if update else x


def train(x, steps):
    for step in range(steps):
        quantize = should_quantize(5, step)
        x = train_step(x, quantize, should_update(3, 2, step))
        x = train_step(x, bool(step % 2), False)
    return x


def train_phase(x, steps):
    for step in range(steps):
        x = train_step(x, phase(step, 1), False)  # error: JAX403
    return x


if __name__ == "__main__":
    train(jnp.ones(2), 10)
    print("train", train_step._cache_size())
    train_step.clear_cache()
    train_phase(jnp.ones(2), 10)
    print("train_phase", train_step._cache_size())
