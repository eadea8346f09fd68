"""JAX601 FP: formatting a device array into an f-string (`f"... {eval_metrics['loss']}"`)
copies it to the host, which waits for the computation; the clock is read after that.

From borisdayma/dalle-mini tools/train/train.py:1466-1535 (`run_evaluation`: the losses are
accumulated asynchronously, then printed with an f-string before `log_time("eval", ...)`).
"""
import time

import jax
import jax.numpy as jnp

p_eval_step = jax.jit(lambda x: (x**2).mean())

jax.block_until_ready(p_eval_step(jnp.arange(4.0)))  # warm-up
start_eval_time = time.perf_counter()
eval_loss = [p_eval_step(jnp.arange(4.0) + i) for i in range(3)]
eval_loss = jnp.mean(jnp.stack(eval_loss))
eval_metrics = {"loss": eval_loss}
desc = f"Loss: {eval_metrics['loss']}"
print(desc)
print("eval time", time.perf_counter() - start_eval_time)
