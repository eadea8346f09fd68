# source: https://github.com/jax-ml/jax/pull/13022
# family: side-effects
# The fix: keep the result, not the tracer.
import jax


class A:
    def __init__(self, dct):
        self.dct = dct


a = A({})


def sketch(x):
    return x


if __name__ == "__main__":
    out = jax.vmap(sketch)(jax.numpy.arange(3))
    a.dct["hi"] = [lambda: out]
    print(a.dct["hi"][0]() + 1)
