# source: https://github.com/jax-ml/jax/pull/5492
# family: side-effects
# expect: JAX502 JAX503
# check: stdout:leaked tracer: True
# The leak checker's motivating example: a jitted function appends its argument to a
# module-level list; what is stored is the tracer from the trace, not the value.
import jax

lst = []


@jax.jit
def f(x):
    lst.append(x)
    return x


if __name__ == "__main__":
    f(3.0)
    f(4.0)
    print("leaked tracer:", isinstance(lst[0], jax.core.Tracer), len(lst))
