"""novastar53/jaxpt notebooks (train_gpt3.ipynb cell 14 and six more; JAX601 high x7,
precision v11 check set, read by an untuned reader): the train step's loss is blocked
(`avg_loss.block_until_ready()`) before the clock is read; the finding sat on the next line,
`avg_loss = jnp.float32(avg_loss[0])`, a scalar cast. A dtype conversion (`jnp.float32(x)`,
`jnp.asarray(x)`, `x.astype(...)`) is not the timed work: it is ready when what it converts
is (`sync.converts`); data written in the code (`jnp.array([p] * n)`) is a transfer,
work of its own (`time_transfer` fires, as SeapoPym-JAX examples/07 line 270, a TP). The near miss, a loop without the wait around a jitted step of
the module, still fires, on the step itself."""

import time

import jax
import jax.numpy as jnp
from jaxpt.train import parallel_train_step  # an nnx.pmap step of the package


def train(m, optimizer, train_dl, trconf, step, warmup_with_cosine_decay_schedule):
    while step < trconf.max_steps:
        start = time.time()
        batch, target = train_dl()
        avg_loss, avg_grads = parallel_train_step(m, optimizer, batch, target)
        avg_loss.block_until_ready()
        # compute stats
        avg_loss = jnp.float32(avg_loss[0])
        lr = warmup_with_cosine_decay_schedule(step)
        iter_time = time.time() - start
        print(f"{step} | lr: {lr:0.2e} | loss: {avg_loss:0.4f} | time: {iter_time * 1000:0.2f}ms")
        step += 1


@jax.jit
def local_step(params, batch):
    return params - 0.1 * batch, jnp.mean(batch**2, keepdims=True)


def train_unblocked(params, batches):
    for batch in batches:
        start = time.time()
        params, avg_loss = local_step(params, batch)  # error: JAX601
        avg_loss = jnp.float32(avg_loss[0])
        iter_time = time.time() - start
        print(iter_time)
    return params


def time_transfer(true_params, n_groups):
    t0 = time.time()
    params = {k: jnp.array([true_params[k]] * n_groups) for k in true_params}  # error: JAX601
    print(f"transfer: {time.time() - t0:.2f}s")
    return params
