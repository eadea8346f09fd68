"""A block loop whose static chunk is `min(block_size, config.it_num - steps_done)`, with
`config` passed to the jitted step every iteration: a compiled call mutates none of its
arguments, so `config.it_num` is the same on every step and the chunk takes two values at
most (v22 rows, tuning material: jax_penning_pic simulation_circle_gyro_new.py:609/611,
JAX403 x2; `loops._jitted_name`, with v19's `PerStep._chunk_or_remainder`). The twin also
hands `config` to a plain function, which may change `it_num`."""

import jax


def _run_steps_block(state, config, num_steps):
    return state * config.decay**num_steps


run_steps_block_jitted = jax.jit(_run_steps_block, static_argnames=("config", "num_steps"))


def run(state, config, block_size):
    steps_done = 0
    while steps_done < config.it_num:
        num_steps = min(block_size, config.it_num - steps_done)
        state = run_steps_block_jitted(state, config, num_steps)
        steps_done += num_steps
    return state


def log_progress(config, steps_done):
    print(config, steps_done)


def run_twin(state, config, block_size):
    steps_done = 0
    while steps_done < config.it_num:
        num_steps = min(block_size, config.it_num - steps_done)
        state = run_steps_block_jitted(state, config, num_steps)  # error: JAX403
        log_progress(config, steps_done)
        steps_done += num_steps
    return state
