# source: https://github.com/jax-ml/jax/issues/196
# family: side-effects
# expect: JAX103
# check: stdout:Tracer(
# "How to print values inside a @jit-compiled function?": print() in a jitted update shows
# the tracer (`Traced<ShapedArray(float32[1,64])>...`), once, at trace time.
import jax
import jax.numpy as jnp


@jax.jit
def update(params, grads):
    new_params = params - 0.1 * grads
    print(new_params)
    return new_params


if __name__ == "__main__":
    p = jnp.ones((1, 64))
    for _ in range(2):
        p = update(p, p)
