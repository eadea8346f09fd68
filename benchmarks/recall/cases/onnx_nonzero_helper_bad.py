# source: https://github.com/google/jaxonnxruntime/issues/29
# family: shapes
# expect: JAX121
# check: error:ConcretizationTypeError
# The ONNX NonZero op is implemented with `jnp.stack(jnp.nonzero(x))`; once the model
# function is put inside jax.jit, nonzero has no static size and tracing fails.
import jax
import jax.numpy as jnp


def onnx_nonzero(x):
    return jnp.stack(jnp.nonzero(x))


@jax.jit
def model_func(x):
    return onnx_nonzero(x * 2)


if __name__ == "__main__":
    print(model_func(jnp.array([[1, 0], [0, 3]])))
