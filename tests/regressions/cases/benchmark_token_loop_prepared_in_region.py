"""anachroni-co/capibaraGPT_v3 `inference/hybrid_inference_engine.py:196-230` (tuning pool,
JAX601 high, read false): a generation loop reads every new token on the host
(`int(next_token[0])`) and appends it to the ids with `jnp.concatenate([ids, next_token])`.
The ids are made in the region from the tokenizer's host output and from themselves, step by
step: setting up inputs, as the first `jnp.array` of them is (`timing_intent._prepared` takes
a name bound from its own earlier value as prepared when its other values are). The near
misses: the same loop growing ids that were made before the clock started, and keys split
in the region from a key made before it (`key, *subkeys = split(key, 3)` reads the old key:
not a value the region made from its own data; `tests/regressions/realworld/fp20_...`
renamed, tests/test_incremental.py)."""

import time

import jax
import jax.numpy as jnp


def generate(model, tokenizer, prompt, max_tokens):
    start = time.time()
    ids = jnp.array(tokenizer(prompt)["input_ids"])
    tokens = []
    for _ in range(max_tokens):
        next_token = jnp.argmax(model(ids), axis=-1, keepdims=True)
        tokens.append(int(next_token[0]))
        ids = jnp.concatenate([ids, next_token], axis=1)
    elapsed = time.time() - start
    return tokens, elapsed


def generate_from(model, ids, max_tokens):
    start = time.time()
    tokens = []
    for _ in range(max_tokens):
        next_token = jnp.argmax(model(ids), axis=-1, keepdims=True)
        tokens.append(int(next_token[0]))
        ids = jnp.concatenate([ids, next_token], axis=1)  # error: JAX601
    elapsed = time.time() - start
    return tokens, elapsed


def evaluate(key, evaluator, params):
    start = time.time()
    key, *subkeys = jax.random.split(key, 3)
    subkeys = jnp.stack(subkeys)  # error: JAX601
    results = evaluator(params, subkeys)
    elapsed = time.time() - start
    return key, results, elapsed
