# source: https://github.com/jax-ml/jax/issues/3761
# family: control-flow
# expect: JAX110
# check: error:TracerBoolConversionError
# Python `and` between two traced comparisons in a lax.cond predicate.
import jax
from jax import jit


@jit
def true_fn(x):
    return x - 5000.0


@jit
def false_fn(x):
    return x + 100.0


@jit
def cond_test_2(x, y):
    return jax.lax.cond(x < 0 and y < 0, true_fn, false_fn, x)


if __name__ == "__main__":
    print(cond_test_2(0.3, 0.1))
