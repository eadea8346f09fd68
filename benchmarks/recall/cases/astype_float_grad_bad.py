# source: https://github.com/jax-ml/jax/issues/2783
# family: host-conversion
# expect: JAX101
# check: error:ConcretizationTypeError
# float(x) inside a function differentiated with grad.
import jax


def func(x):
    return x if float(x) >= 0.0 else -x


if __name__ == "__main__":
    print(jax.grad(func)(3.0))
