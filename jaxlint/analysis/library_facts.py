"""The value-kind lattice and the library facts as data (split out of `analysis/kinds.py`,
which decides parameter kinds with them and re-exports every name here).

A fact is one table entry with a silent example and, where it makes sense, a twin that still
fires (tests/test_kinds.py runs them all), so adding what a library guarantees never means
editing a rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from jaxlint.analysis.flow.levels import Level

__all__ = ["LIBRARY_FACTS", "LibraryFact", "ValueKind", "join", "level_of"]


class ValueKind(Enum):
    """What a value is while JAX traces (a lattice: `join` of two different kinds is UNKNOWN,
    except that CONTAINER absorbs ARRAY elements and UNKNOWN absorbs everything)."""

    ARRAY = "array"  # a tracer (or a pytree whose leaves are tracers)
    STATIC = "static"  # a Python value: scalar, str, None, enum, shape tuple, dtype, config
    CALLABLE = "callable"  # a function, a Module class, an optax transformation
    CONTAINER = "container"  # a Python list/tuple/dict holding arrays
    UNKNOWN = "unknown"  # no evidence either way: never fires in the default selection


def join(kinds: Iterable[ValueKind]) -> ValueKind:
    """The kind of a value that is one of `kinds` (the join over call sites or paths)."""
    out: ValueKind | None = None
    for k in kinds:
        if out is None or out is k:
            out = k
        elif {out, k} == {ValueKind.ARRAY, ValueKind.CONTAINER}:
            out = ValueKind.CONTAINER
        else:
            return ValueKind.UNKNOWN
    return out if out is not None else ValueKind.UNKNOWN


def level_of(kind: ValueKind) -> Level:
    """The taint level a parameter of this kind starts at (NONE: not proven traced)."""
    if kind is ValueKind.ARRAY:
        return Level.TREE
    if kind is ValueKind.CONTAINER:
        return Level.CONTAINER
    return Level.NONE


# -- library facts as data --------------------------------------------------------------------


@dataclass(frozen=True)
class LibraryFact:
    """One fact about a library's values under tracing.

    `what` is the kind of fact: "annotation" (a parameter annotated `name` has `kind`),
    "attribute" (`value.name` is a Python value: `kind` STATIC), "method" (`value.name(...)`
    returns a Python value), "apply-keyword" (`module.apply(..., name=v)` / `init`: `v` is
    configuration, not an input array). `example` is a program on which no JAX1xx finding
    may fire; `twin` (optional) is its near miss, which must still fire.
    """

    library: str
    what: str
    name: str
    kind: ValueKind
    why: str
    example: str
    twin: str = ""


_ARRAY_TWIN = """
import jax

@jax.jit
def f(x: {ann}):
    if x > 0:  # error: JAX110
        return x
    return -x
"""

LIBRARY_FACTS: tuple[LibraryFact, ...] = (
    # -- annotations that prove an array (a helper parameter so annotated is ARRAY) --
    *(
        LibraryFact(
            lib,
            "annotation",
            ann,
            ValueKind.ARRAY,
            "an array type: the parameter holds an array (a tracer under jit)",
            example=f"import jax\n\n@jax.jit\ndef f(x: {short}):\n    return x * 2\n",
            twin=_ARRAY_TWIN.format(ann=short),
        )
        for lib, ann, short in (
            ("jax", "jax.Array", "jax.Array"),
            ("jax", "jax.numpy.ndarray", "jax.numpy.ndarray"),
            ("jax", "jax.typing.ArrayLike", "jax.typing.ArrayLike"),
            ("chex", "chex.Array", "chex.Array"),
            ("jaxtyping", "jaxtyping.Array", "jaxtyping.Array"),
        )
    ),
    # -- annotations that prove a Python value --
    *(
        LibraryFact(
            lib,
            "annotation",
            ann,
            ValueKind.STATIC,
            why,
            example=(
                f"import jax\nimport {lib.split('.')[0]}\n\n\n"
                f"def helper(x, a: {ann}):\n    if a == a:\n        return x\n    return -x\n\n\n"
                "@jax.jit\ndef f(x, y):\n    return helper(x, y)\n"
            ),
            twin=(
                f"import jax\nimport {lib.split('.')[0]}\n\n\n"
                "def helper(x, a):\n    if a > 0:  # error: JAX110\n        return x\n    return -x\n\n\n"
                "@jax.jit\ndef f(x, y):\n    return helper(x, y)\n"
            ),
        )
        for lib, ann, why in (
            ("haliax", "haliax.Axis", "a named axis: a name and a Python int size"),
            ("haliax", "haliax.AxisSpec", "axis metadata of a named array"),
            ("haliax", "haliax.AxisSelector", "an axis name or Axis: metadata"),
            ("jax.numpy", "jax.numpy.dtype", "a dtype is a Python object"),
            ("jax.typing", "jax.typing.DTypeLike", "a dtype is a Python object"),
            ("numpy", "numpy.dtype", "a dtype is a Python object"),
            ("optax", "optax.GradientTransformation", "a pair of functions, not data"),
            ("optax", "optax.Schedule", "a function of the step"),
        )
    ),
    # -- attributes and methods whose result is Python metadata --
    LibraryFact(
        "haliax",
        "attribute",
        "axes",
        ValueKind.STATIC,
        "a NamedArray's axes are Axis objects (names and Python sizes)",
        example=(
            "import jax\n\n\n@jax.jit\ndef f(x, y):\n"
            "    if x.axes[0] == y.axes[0]:\n        return x\n    return y\n"
        ),
        twin=(
            "import jax\n\n\n@jax.jit\ndef f(x, y):\n"
            "    if x.sum() == y.sum():  # error: JAX110\n        return x\n    return y\n"
        ),
    ),
    *(
        LibraryFact(
            "haliax",
            "method",
            name,
            ValueKind.STATIC,
            "a question about a named array's axes, answered from its metadata",
            example=(
                "import jax\n\n\n@jax.jit\ndef f(x):\n"
                f'    if x.{name}("pos"):\n        return x\n    return -x\n'
            ),
        )
        for name in ("has_axis", "resolve_axis", "axis_size", "axis_indices")
    ),
    # -- flax `apply` / `init` keywords: configuration, not input arrays --
    *(
        LibraryFact(
            "flax.linen",
            "apply-keyword",
            name,
            ValueKind.STATIC,
            "a keyword of `Module.apply` / `init` that configures the call",
            example=(
                "import flax.linen as nn\nimport jax\n\n\nclass M(nn.Module):\n"
                "    @nn.compact\n    def __call__(self, x, train: bool = False):\n"
                "        return x * 2 if train else x\n\n\n"
                f"@jax.jit\ndef f(params, x):\n    return M().apply(params, x, {name}=None)\n"
            ),
        )
        for name in ("mutable", "rngs", "method", "capture_intermediates")
    ),
)
