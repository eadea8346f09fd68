# source: https://github.com/jax-ml/jax/issues/9288
# family: recompilation
# The fix: jit once, outside the loop.
import jax


def unjitted_loop_body(prev_i):
    return prev_i + 1


body = jax.jit(lambda v: unjitted_loop_body(v))


def g_inner_jitted_well(x, n):
    i = 0
    while i < n:
        i = body(i)
    return x + i


if __name__ == "__main__":
    print(g_inner_jitted_well(10, 6))
