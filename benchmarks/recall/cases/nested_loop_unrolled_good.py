# source: https://github.com/jax-ml/jax/issues/5815
# family: recompilation
# The fix: write the double sum as array operations.
import jax
import jax.numpy as jnp


def foo(a):
    b = a[:32]
    return jnp.sum(jnp.outer(b, b))


if __name__ == "__main__":
    a = jnp.ones(128)
    print("unrolled:", len(jax.make_jaxpr(foo)(a).eqns) > 100)
    print(jax.jit(foo)(a))
