"""Profiling: an XLA trace (view in TensorBoard / XProf / Perfetto) and a device memory profile.

Warm up first so the trace shows steady-state steps, not compilation; annotate steps so
they are easy to find in the trace viewer; block before leaving the trace context so the
device work is inside it.
"""

import pathlib
import tempfile

import jax
import jax.numpy as jnp


@jax.jit
def step(x: jax.Array) -> jax.Array:
    return jnp.tanh(x @ x.T) @ x


def main() -> None:
    x = jax.random.normal(jax.random.key(0), (256, 128), jnp.float32)
    step(x).block_until_ready()  # compile outside the trace

    with tempfile.TemporaryDirectory() as log_dir:
        with jax.profiler.trace(log_dir):
            for i in range(5):
                with jax.profiler.StepTraceAnnotation("step", step_num=i):
                    out = step(x)
            out.block_until_ready()
        traces = sorted(p.name for p in pathlib.Path(log_dir).rglob("*.xplane.pb"))
        print("trace files:", traces)  # e.g. `xprof --logdir LOG_DIR` to view them
        assert traces, "no trace written"

        # pprof format: `pprof --web memory.prof`. Shows which arrays hold device memory now.
        memory_path = pathlib.Path(log_dir) / "memory.prof"
        jax.profiler.save_device_memory_profile(str(memory_path))
        print("memory profile:", memory_path.stat().st_size, "bytes")
        assert memory_path.stat().st_size > 0

    assert out.shape == x.shape


if __name__ == "__main__":
    main()
