"""Benchmarking a jitted function honestly.

JAX dispatches asynchronously: a call returns before the device has finished, so stop the
clock only after `block_until_ready`. The first call also traces and compiles; measure
compilation separately (`.lower(...).compile()`) and report steady-state medians.
"""

import statistics
import time
from collections.abc import Callable

import jax
import jax.numpy as jnp


@jax.jit
def f(x: jax.Array) -> jax.Array:
    return jnp.tanh(x @ x.T) @ x


def time_compile(x: jax.Array) -> tuple[float, float, jax.stages.Compiled]:
    t0 = time.perf_counter()
    lowered = f.lower(x)  # trace + lower to StableHLO
    t1 = time.perf_counter()
    compiled = lowered.compile()  # XLA compilation
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, compiled


def time_steady_state(
    fn: Callable[[jax.Array], jax.Array], x: jax.Array, repeats: int = 20, warmup: int = 3
) -> list[float]:
    for _ in range(warmup):
        fn(x).block_until_ready()  # compile (if needed) and warm caches outside the timing
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn(x)
        jax.block_until_ready(out)  # wait for the device, not just the dispatch
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    x = jax.random.normal(jax.random.key(0), (512, 256), jnp.float32)

    lower_s, compile_s, compiled = time_compile(x)
    print(f"lower {lower_s * 1e3:.1f} ms, compile {compile_s * 1e3:.1f} ms")

    jit_times = time_steady_state(f, x)
    aot_times = time_steady_state(compiled, x)  # the AOT executable: never recompiles
    median_ms = statistics.median(jit_times) * 1e3
    print(
        f"steady state: median {median_ms:.3f} ms "
        f"(min {min(jit_times) * 1e3:.3f}, max {max(jit_times) * 1e3:.3f}) over {len(jit_times)} runs; "
        f"AOT median {statistics.median(aot_times) * 1e3:.3f} ms"
    )
    flops = compiled.cost_analysis().get("flops", 0.0)
    if flops:
        print(f"~{flops / statistics.median(jit_times) / 1e9:.1f} GFLOP/s")

    assert len(jit_times) == 20 and all(t > 0 for t in jit_times)
    assert jnp.allclose(compiled(x), f(x))


if __name__ == "__main__":
    main()
