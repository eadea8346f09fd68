# source: https://github.com/jax-ml/jax/issues/5815
# family: recompilation
# expect: JAX405
# check: stdout:unrolled: True
# "Performance too slow with Jax": a Python double loop (128 x 128 in the report, 32 x 32
# here) inside the jitted function is unrolled into one copy of its body per iteration,
# so compiling takes far longer than running it eagerly.
import jax
import jax.numpy as jnp


def foo(a):
    s = 0.0
    for i in range(32):
        for j in range(32):
            s = s + a[i] * a[j]
    return s


if __name__ == "__main__":
    a = jnp.ones(128)
    print("unrolled:", len(jax.make_jaxpr(foo)(a).eqns) > 100)
    print(jax.jit(foo)(a))
