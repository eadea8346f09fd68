# source: https://github.com/jax-ml/jax/issues/1461
# family: control-flow
# expect: JAX110
# check: error:TracerBoolConversionError
# Chaining two traced flags with Python `and` for a lax.cond predicate: `and` calls bool()
# on the first tracer ("confusing behaviour for `and` vs `&`").
import jax


@jax.jit
def test(cond1, cond2, a, b):
    return jax.lax.cond(cond1 and cond2, lambda x: x[0], lambda x: x[1], (a, b))


if __name__ == "__main__":
    print(test(True, True, 1, 2))
