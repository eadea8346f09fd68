# source: https://docs.jax.dev/en/latest/faq.html#gradients-contain-nan-where-using-where
# family: numerics
# The FAQ's fix: a second where keeps the log's input in its domain.
import jax
import jax.numpy as jnp


def my_log_safe(x):
    safe_log = jnp.log(jnp.where(x > 0.0, x, 1.0))
    return jnp.where(x > 0.0, safe_log, 0.0)


if __name__ == "__main__":
    g = jax.grad(my_log_safe)(0.0)
    print("nan gradient:", bool(jnp.isnan(g)))
