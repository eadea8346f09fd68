"""A region reported as "time jit for" measures the first calls on purpose: the label names
compilation (`timing_intent.COMPILE_LABEL`), as "jit time" and "time to jit" do. The twin,
reported as a step's time, is a benchmark whose first call compiles.

From the v38 check set (tuning material, read in context): hardikparwana/FORESEE
`cartpole/cartpole_main_scan_sigma.py:183-196` and eight more cartpole scripts:
`t0 = time.time()`, three freshly jitted functions called once, then
`print(f"time jit for: {time.time()-t0}")` (JAX602 x15 read debatable, one FP: a second
`jit` of a function already compiled).
"""

import time

import jax
import jax.numpy as jnp


def reward(params):
    return jnp.sum(jnp.tanh(params) ** 2)


params = jnp.ones(8)

t0 = time.time()
reward_jit = jax.jit(reward)
value = reward_jit(params)
grad_jit = jax.jit(jax.grad(reward))
g = grad_jit(params)
print(f"time jit for: {time.time() - t0}")

t0 = time.time()
step_jit = jax.jit(lambda p: p - 0.1 * jax.grad(reward)(p))
p2 = step_jit(params).block_until_ready()  # error: JAX602
print(f"step time: {time.time() - t0}")
