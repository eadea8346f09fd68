# source: https://github.com/blackjax-devs/blackjax/issues/1029
# family: host-conversion
# The fix: pass the array on.
import jax
import jax.numpy as jnp


def _apply_length_floor(trajectory_length, lambda_max, step_size):
    floor = 2.0 * step_size
    return jnp.maximum(trajectory_length, floor / jnp.sqrt(lambda_max))


def run(state, lambda_max):
    step_size_ma = jnp.exp(state["log_step_size_moving_average"])
    return _apply_length_floor(state["trajectory_length"], lambda_max, step_size_ma)


if __name__ == "__main__":
    state = {"log_step_size_moving_average": jnp.array(-1.0), "trajectory_length": jnp.array(1.0)}
    print(jax.jit(run)(state, jnp.array(4.0)))
