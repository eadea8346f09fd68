"""mickyals/jax_research_template src_test/core/nets/test_transformers.py:1136-1197 (JAX201
medium x3, precision v10 check set, read by an untuned reader): `for name in
list_transformers():` then `if name == "TRANSFORMER_ENCODER": ... elif name == "VIT": ...`,
each arm calling `net.init(KEY, ...)`. Each arm holds for one name, so it runs on one step
(`loops.runs_once_in`: a dispatch over names, or `if i == 0` in a `range` loop): a key that
only one arm consumes is consumed once (`first_step_noise`, silent), and keys that several
arms consume are drawn on several steps, which is now said as such instead of "in every
iteration" (`init_all`: the two arms' weights share their first values; the v10 rows were
read FP for the "every iteration" wording). The near misses fire as before: an arm that
holds on every step, and a literal list that names one model twice."""

import jax
import jax.numpy as jnp


def list_models():
    return {"mlp": object(), "cnn": object()}.keys()


def init_all(key, x):
    out = []
    for name in list_models():
        if name == "mlp":
            out.append(x @ jax.random.normal(key, (3, 3)))  # error: JAX201
        elif name == "cnn":
            out.append(x * jax.random.normal(key, (3,)))  # error: JAX201
    return out


def first_step_noise(key, n):
    out = []
    for i in range(n):
        if i == 0:
            out.append(jax.random.uniform(key, (3,)))
    return out


def init_every_step(key):
    out = []
    for name in list_models():
        if name != "none":
            out.append(jax.random.normal(key, (3,)))  # error: JAX201
    return out


def init_listed_twice(key):
    out = []
    for name in ["mlp", "mlp"]:
        if name == "mlp":
            out.append(jax.random.normal(key, (3,)))  # error: JAX201
    return out


k0, k1, k2, k3 = jax.random.split(jax.random.key(0), 4)
print(init_all(k0, jnp.ones(3)), first_step_noise(k1, 3), init_every_step(k2))
print(init_listed_twice(k3))
