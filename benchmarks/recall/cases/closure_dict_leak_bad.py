# source: https://github.com/jax-ml/jax/pull/13022
# family: side-effects
# expect: JAX502
# check: error:UnexpectedTracerError
# A vmapped function stores a closure over its traced input in an object's dict.
import jax


class A:
    def __init__(self, dct):
        self.dct = dct


a = A({})


def sketch(x):
    a.dct["hi"] = [lambda: x]
    return x


if __name__ == "__main__":
    jax.vmap(sketch)(jax.numpy.arange(3))
    print(a.dct["hi"][0]() + 1)
