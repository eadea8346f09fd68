# source: https://github.com/jax-ml/jax/pull/5492
# family: side-effects
# The fix: return the value and append the result outside the traced function.
import jax

lst = []


@jax.jit
def f(x):
    return x


if __name__ == "__main__":
    lst.append(f(3.0))
    lst.append(f(4.0))
    print("leaked tracer:", isinstance(lst[0], jax.core.Tracer), len(lst))
