"""Patterns of equinox's internals: a jit wrapper per decorated function, custom primitives."""

import jax
from jax.extend.core import Primitive
from jax.interpreters import mlir


def my_jit(fun):
    """Like equinox's `filter_jit`: a generic jitted wrapper for each decorated function,
    renamed after it (so every wrapper is reported at this line, under the wrapped name)."""

    def fun_wrapped(*args):
        return fun(*args)

    fun_wrapped.__name__ = fun.__name__
    fun_wrapped.__qualname__ = fun.__qualname__
    return jax.jit(fun_wrapped)


@my_jit
def add_one(x):
    return x + 1


@my_jit
def add_two(x):
    return x + 2


@my_jit
def add_three(x):
    return x + 3


# a primitive lowered through `mlir.lower_fun`: JAX traces `_double_impl` again each time it
# compiles a function that uses the primitive (a lowering, not a jit made per call)
def _double_impl(x):
    return x * 2


double_p = Primitive("double")
double_p.def_impl(_double_impl)
double_p.def_abstract_eval(lambda x: x)
mlir.register_lowering(double_p, mlir.lower_fun(_double_impl, multiple_results=False))


def double(x):
    return double_p.bind(x)


# a primitive with a parameter named `prim` (equinox's do): JAX's key-reuse checker wraps
# eager impl calls as `call_impl_with_key_reuse_checks(prim, impl, *args, **params)`, which
# then raises TypeError (got multiple values for argument 'prim')
tag_p = Primitive("tag")
tag_p.def_impl(lambda x, *, prim: x)
tag_p.def_abstract_eval(lambda x, *, prim: x)


def tag(x):
    return tag_p.bind(x, prim="label")
