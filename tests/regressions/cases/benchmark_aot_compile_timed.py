"""LiquidGunay/nano-vllm-jax benchmarks/benchmark_gdn_prefill_kernel.py:1465-1485 (JAX601,
precision v9 check set, read by an untuned reader): the region times
`jax.jit(fn).lower(..., jnp.arange(block_v), ...).compile()`. Lowering and compiling run
synchronously on the host and return host objects; `lower` reads only its arguments' shapes
and dtypes, so the `jnp.arange` made for it is not work the clock should wait for
(`analysis/pending.py`: an ahead-of-time method's call makes no pending value). The near miss,
a region that also runs the compiled kernel on a dispatched result, still fires."""

import time

import jax
import jax.numpy as jnp


def kernel(x, idx):
    return x[idx] * 2


def compile_seconds(x, block_v):
    try:
        started = time.perf_counter()
        compiled = (
            jax.jit(kernel)
            .lower(
                x,
                jnp.arange(block_v, dtype=jnp.int32),
            )
            .compile()
        )
        info = {}
        info["compile_seconds"] = time.perf_counter() - started
    except BaseException:
        compiled = None
    return compiled


def run_seconds(x, block_v):
    started = time.perf_counter()
    compiled = jax.jit(kernel).lower(x, jnp.arange(block_v)).compile()
    out = jnp.exp(x)  # error: JAX601
    info = {}
    info["seconds"] = time.perf_counter() - started
    return compiled, out
