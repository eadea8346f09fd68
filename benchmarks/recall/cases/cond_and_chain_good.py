# source: https://github.com/jax-ml/jax/issues/1461
# family: control-flow
# The fix (the issue's): the array operator `&`.
import jax


@jax.jit
def test(cond1, cond2, a, b):
    return jax.lax.cond(cond1 & cond2, lambda x: x[0], lambda x: x[1], (a, b))


if __name__ == "__main__":
    print(test(True, True, 1, 2))
