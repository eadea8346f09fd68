# source: https://github.com/google/jaxonnxruntime/issues/29
# family: shapes
# The fix: a static size for nonzero (here the input's element count, padded with -1).
import jax
import jax.numpy as jnp


def onnx_nonzero(x):
    return jnp.stack(jnp.nonzero(x, size=x.size, fill_value=-1))


@jax.jit
def model_func(x):
    return onnx_nonzero(x * 2)


if __name__ == "__main__":
    print(model_func(jnp.array([[1, 0], [0, 3]])))
