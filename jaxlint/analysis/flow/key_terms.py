"""The vocabulary of key flow: which `jax.random` functions consume a key, how a key
expression is named (`k`, `keys[0]`, `self.key`), the name tables of the transforms, clocks
and containers the key analyses recognise, and the small syntax helpers both halves of the
analysis use (flow/keys.py, the path-sensitive reuse walk, and flow/key_repeats.py, keys in
code that runs repeatedly). Kept apart so neither half imports the other's internals.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from jaxlint.analysis import syntax
from jaxlint.analysis.imports import ModuleIndex
from jaxlint.analysis.syntax import COMPREHENSIONS, FUNCTION_NODES

NON_CONSUMING = frozenset(
    {
        "key",
        "PRNGKey",
        "fold_in",
        "key_data",
        "wrap_key_data",
        "key_impl",
        "clone",
        "default_prng_impl",
        "threefry2x32_p",
    }
)

KEY_MAKERS = frozenset({"key", "PRNGKey", "split", "fold_in", "wrap_key_data", "clone"})

LOOP_BODY_TRANSFORMS = frozenset(
    {"jax.lax.scan", "jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.map", "flax.nnx.scan"}
)

VMAPS = frozenset({"jax.vmap"})

DERIVED = "\0derived:"

CLOCKS = frozenset(
    {
        "time.time",
        "time.perf_counter",
        "time.monotonic",
        "time.perf_counter_ns",
        "time.monotonic_ns",
        "time.time_ns",
        "timeit.default_timer",
        "timeit.timeit",
        "timeit.repeat",
        "datetime.datetime.now",
    }
)

# transforms that run the function they wrap once per call, with the same arguments
JIT_WRAPPERS = frozenset(
    {
        "jax.jit",
        "equinox.filter_jit",
        "flax.nnx.jit",
        "jax.checkpoint",
        "jax.remat",
        "jax.named_call",
    }
)

ACCUMULATING_METHODS = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "extendleft", "put"}
)

RECORD_METHODS = frozenset({"replace", "_replace", "set"})
# methods that start an object's state over from its seed (scikit-learn's estimator contract:
# `fit` reinitialises from `random_state`, so a re-fit that draws the same start is the
# design) or that run once per object: a private method that splits `self.key` without
# storing it back and is called only from these runs once per state, not once per draw (not
# flax's `setup`, which runs again on every `apply`)
ONCE_PER_STATE_METHODS = frozenset(
    {"__init__", "__post_init__", "fit", "fit_transform", "fit_predict", "build"}
)

CONTAINER_CALLS = frozenset(
    {
        "dict",
        "list",
        "tuple",
        "set",
        "jax.numpy.asarray",
        "jax.numpy.array",
        "jax.numpy.stack",
        "jax.numpy.concatenate",
        "numpy.asarray",
        "numpy.array",
        "flax.core.freeze",
        "flax.core.FrozenDict",
    }
)

VIEW_ATTRS = frozenset({"T", "mT", "real", "imag"})

VIEW_METHODS = frozenset({"astype", "reshape", "transpose", "squeeze", "ravel", "flatten"})

# distribution methods that draw from a PRNG key passed as `seed=` (distrax, TFP on JAX)
SEEDED_SAMPLERS = frozenset({"sample", "sample_and_log_prob", "sample_n"})

# elementwise selections between two operands (positions): each element of the result comes
# from one of them, so the same key drawn in both correlates nothing that is kept
# (`select(n <= 3, on_triangle(rng, v), on_rectangle(rng, v))`, Kinetix v5)
EXCLUSIVE_SELECTS: dict[str, tuple[int, int]] = {
    "jax.lax.select": (1, 2),
    "jax.numpy.where": (1, 2),
}

# samplers that draw indices into a population (argument 1, or this keyword)
ALIGNABLE = {"choice": "a", "permutation": "x"}

# Library constructors that draw their parameters from the key passed as `key=`: every
# `equinox.nn` layer (`Linear`, `MLP`, `Conv2d`, `Embedding`, `MultiheadAttention`, ...) takes
# its initialisation randomness from `key`; two layers built from one key start from the same
# draws (same-shaped layers: the same weights). Qualname prefix -> the keyword.
KEY_CONSUMING_CONSTRUCTORS = {"equinox.nn.": "key"}

# Library layers whose instances draw from the `key=` they are called with (dropout masks);
# most `equinox.nn` layers ignore a call-time key (`Linear.__call__`: "key: Ignored").
KEY_CONSUMING_LAYER_CALLS = frozenset({"equinox.nn.Dropout", "equinox.nn.MultiheadAttention"})

# Methods of flax.linen modules and haiku transformed functions that draw from the key (or
# the dict of keys) they are given, when the argument is known to be a key (made by
# `jax.random` in the module, or named like one: `optax`'s `tx.init(params)` is not a key):
# method -> (positions of the key argument, keywords carrying a key or a dict of keys).
# `model.init(key, x)` initialises every parameter from `key`; `model.apply(params, x,
# rngs={"dropout": key})` draws the dropout masks from it; haiku's `f.apply(params, rng, x)`.
KEY_CONSUMING_METHODS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "init": ((0,), ("rngs",)),
    "init_with_output": ((0,), ("rngs",)),
    "apply": ((1,), ("rngs",)),
}

# flax NNX key streams seeded by their arguments: `nnx.Rngs(0)`, `nnx.Rngs(dropout=0)` built
# again in every iteration (or every call of a step) restart every stream from that seed
RNGS_MAKERS = frozenset({"flax.nnx.Rngs", "flax.nnx.rnglib.Rngs"})

# keyword arguments of a flax `apply` that turn its randomness off (no dropout drawn)
DETERMINISTIC_FLAGS = {
    "deterministic": True,
    "train": False,
    "training": False,
    "is_training": False,
}

_KEYISH = re.compile(r"^(sub)?keys?$|^rngs?$|^prng|_(key|rng)s?$|^(key|rng)_")


def keyish_name(name: str) -> bool:
    """A variable named like a PRNG key (`key`, `rng`, `subkey`, `init_key`, `rng_params`)."""
    return bool(_KEYISH.search(name.rsplit(".", 1)[-1].split("[", 1)[0]))


def random_function(index: ModuleIndex, call: ast.Call) -> str | None:
    q = index.qualname(call.func)
    return random_name(q) if q else None


def random_name(q: str) -> str | None:
    """`split` for the qualified name `jax.random.split`; None for any other name."""
    if q.startswith("jax.random.") and q.count(".") == 2:
        return q.rsplit(".", 1)[1]
    return None


def key_argument(call: ast.Call) -> ast.expr | None:
    if call.args and not isinstance(call.args[0], ast.Starred):
        return call.args[0]
    for kw in call.keywords:
        if kw.arg == "key":
            return kw.value
    return None


def key_name(arg: ast.AST | None) -> str | None:
    """The tracked name of a key expression: `k` for a Name, `keys[0]` / `rngs['dropout']` for
    a Name indexed by an int or str constant, `self.key` / `state.rng` for an attribute of a
    Name (keys kept in containers and state objects are keys all the same), else None."""
    if isinstance(arg, ast.Name):
        return arg.id
    if (
        isinstance(arg, ast.Subscript)
        and isinstance(arg.value, ast.Name)
        and isinstance(arg.slice, ast.Constant)
        and isinstance(arg.slice.value, (int, str))
        and not isinstance(arg.slice.value, bool)
    ):
        return f"{arg.value.id}[{arg.slice.value!r}]"
    if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name):
        return f"{arg.value.id}.{arg.attr}"
    return None


def base_name(name: str) -> str:
    """The variable a tracked name lives in: `keys` for `keys[0]`, `self` for `self.key`."""
    return name.split("[", 1)[0].split(".", 1)[0]


def walk_function(fn: ast.AST) -> list[ast.AST]:
    """The nodes under `fn`, not entering nested functions and lambdas (their defs are
    yielded; class bodies are entered: they run where they stand), without the field-less
    singletons of the `ctx`, `op` and `ops` fields (`Load`, `Add`, `Eq`, ...: a third of a
    function's nodes, which no caller asks for).

    Kept on the node after the first walk: the key analysis asks it of every function and
    loop several times (summaries, draws, repeats), and a tree is never changed in place."""
    own = fn.__dict__.get("_jaxlint_own")
    if own is None:
        own = fn._jaxlint_own = list(_walk_function(fn))  # type: ignore[attr-defined]
    return own


def _walk_function(fn: ast.AST) -> Iterator[ast.AST]:
    stack: list[ast.AST] = []
    push, node_type, fields_of = stack.append, ast.AST, _FIELDS
    node = fn
    functions = _FUNCTION_CLASSES
    while True:
        if node is fn or type(node) not in functions:  # exact: no parser subclasses
            # `stack.extend(ast.iter_child_nodes(node))`, inlined (the same order, less the
            # singletons): the key analysis walks every function of a module this way
            fields = fields_of.get(type(node))
            if fields is None:
                fields = fields_of[type(node)] = tuple(
                    f for f in syntax.node_fields(type(node)) if f not in syntax.SINGLETON_FIELDS
                )
            for attr in fields:
                value = getattr(node, attr, None)
                if type(value) is list:
                    for child in value:
                        if isinstance(child, node_type):
                            push(child)
                elif value is not None and isinstance(value, node_type):
                    push(value)
        if not stack:
            return
        node = stack.pop()
        yield node


_FIELDS: dict[type, tuple[str, ...]] = {}
_FUNCTION_CLASSES = frozenset(FUNCTION_NODES)


def key_target_names(t: ast.AST) -> Iterator[str]:
    """Names a target rebinds, including tracked containers: `self.key = ...` rebinds
    `self.key`, `rngs["dropout"] = ...` rebinds `rngs['dropout']`."""
    if isinstance(t, ast.Name):
        yield t.id
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            yield from key_target_names(e)
    elif isinstance(t, ast.Starred):
        yield from key_target_names(t.value)
    elif isinstance(t, (ast.Attribute, ast.Subscript)):
        name = key_name(t)
        if name is not None:
            yield name


def assigned_key_names(node: ast.AST) -> list[str]:
    """The tracked names an Assign/AugAssign/AnnAssign rebinds (`key_target_names`)."""
    if isinstance(node, ast.Assign):
        return [n for t in node.targets for n in key_target_names(t)]
    return list(key_target_names(node.target))  # type: ignore[attr-defined]


def key_names_bound_in(node: ast.AST) -> set[str]:
    """Every tracked name an assignment, loop target or walrus anywhere in `node` rebinds."""
    out: set[str] = set()
    stack = [node]  # every node under `node`, as `ast.walk` (the order does not matter here)
    while stack:
        sub = stack.pop()
        stack.extend(syntax.child_nodes(sub))
        if isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            out.update(assigned_key_names(sub))
        elif isinstance(sub, (ast.For, ast.AsyncFor, ast.comprehension)):
            out.update(key_target_names(sub.target))
        elif isinstance(sub, ast.NamedExpr):
            out.update(key_target_names(sub.target))
    return out


def innermost_loop(node: ast.AST) -> ast.AST | None:
    """The loop (or comprehension) whose body holds `node`, within the same function."""
    below: ast.AST | None = None
    child = node
    cur = syntax.parent(node)
    while cur is not None and not isinstance(cur, FUNCTION_NODES):
        if isinstance(cur, (ast.For, ast.AsyncFor, ast.While)) and child in cur.body:
            return cur
        if isinstance(cur, COMPREHENSIONS):
            first = cur.generators[0]
            if not (child is first and below is first.iter):  # the first iterable runs once
                return cur
        below, child, cur = child, cur, syntax.parent(cur)
    return None


def loop_invariant_seed(call: ast.Call, bound: set[str]) -> bool:
    """The seed is a literal or built from names the loop never rebinds (no calls)."""
    for arg in [*call.args, *(kw.value for kw in call.keywords)]:
        for node in ast.walk(arg):
            if isinstance(node, (ast.Call, ast.Await, ast.NamedExpr, *COMPREHENSIONS)):
                return False
            if isinstance(node, ast.Name) and node.id in bound:
                return False
    return True


def in_test_code(fn: ast.AST) -> bool:
    """`fn` is (or is nested in) a test function or a method of a `Test*` class."""
    cur: ast.AST | None = fn
    while cur is not None:
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef)) and cur.name.startswith(
            ("test", "setUp")
        ):
            return True
        if isinstance(cur, ast.ClassDef) and cur.name.startswith("Test"):
            return True
        cur = syntax.parent(cur)
    return False
