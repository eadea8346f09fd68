"""JAX405 on jaxonnxruntime onnx_ops/max.py:91 (and min.py:78): the loop runs once per operand
of the ONNX node (arg_num == len(input_args), asserted), so the unrolled jaxpr has one
`max` per operand; a fori_loop cannot index the Python tuple of operands with a traced index."""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("arg_num",))
def onnx_max(*input_args, arg_num):
    assert len(input_args) == arg_num
    res = input_args[0]
    for i in range(arg_num):
        res = jnp.maximum(res, input_args[i])
    return res


args = (jnp.ones((2, 3)), jnp.zeros((3,)), jnp.full((1, 3), 2.0))
jaxpr = jax.make_jaxpr(functools.partial(onnx_max.__wrapped__, arg_num=3))(*args)
print("equations:", len(jaxpr.jaxpr.eqns), [e.primitive.name for e in jaxpr.jaxpr.eqns])
print(onnx_max(*args, arg_num=3))


def as_fori(*input_args):
    return jax.lax.fori_loop(
        0, len(input_args), lambda i, r: jnp.maximum(r, input_args[i]), input_args[0]
    )


try:
    as_fori(*args)
    print("fori_loop over the operand tuple: ok")
except Exception as e:  # the rule's suggested fix does not apply
    print("fori_loop over the operand tuple fails:", type(e).__name__, str(e)[:120])
