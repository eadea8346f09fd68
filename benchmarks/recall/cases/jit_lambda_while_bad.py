# source: https://github.com/jax-ml/jax/issues/9288
# family: recompilation
# expect: JAX401
# check: compiles:<lambda>>3
# jax.jit(lambda ...) inside the while loop: a new function object every iteration, so
# every iteration traces and compiles again (the variant of the tutorial).
import jax


def unjitted_loop_body(prev_i):
    return prev_i + 1


def g_inner_jitted_poorly(x, n):
    i = 0
    while i < n:
        i = jax.jit(lambda v: unjitted_loop_body(v))(i)
    return x + i


if __name__ == "__main__":
    print(g_inner_jitted_poorly(10, 6))
