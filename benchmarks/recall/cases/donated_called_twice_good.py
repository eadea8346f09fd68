# source: https://github.com/jax-ml/jax/issues/9675
# family: mutation
# The fix: feed each call the previous call's result.
import jax


def f(x):
    return x + 1


f_jit = jax.jit(f, donate_argnums=(0,))

if __name__ == "__main__":
    buf = jax.numpy.array(1)
    buf = f_jit(buf)
    print(f_jit(buf))
