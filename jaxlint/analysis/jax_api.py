"""The JAX vocabulary, written once: which qualified names are transforms, host callbacks,
clocks, array namespaces, static attributes, ...

Why a module of its own: the analyses (and, after the rule-module split, the rules) used to
keep their own copies of these tables, and the copies drifted (three `CLOCKS`, two
`JIT_FACTORIES`). A table here knows no rule and no analysis; it names JAX (and NumPy,
flax, equinox, optax) API by the qualified names `ModuleIndex.qualname` produces. Tables that
look alike but mean different things stay apart on purpose and say how they differ
(`COMPILING` vs `JIT_FACTORIES`). The prefilter reads the dotted names of this module to
build its default gate (`prefilter.ANALYSIS_MODULES`).
"""

from __future__ import annotations

from typing import Literal

# transform qualname -> positions (or keywords) of the function arguments
JIT_LIKE: dict[str, tuple[int | str, ...]] = {
    "jax.jit": (0, "fun"),
    "jax.pmap": (0, "fun"),
    "jax.vmap": (0, "fun"),
    "jax.checkpoint": (0, "fun"),
    "jax.remat": (0, "fun"),
    "jax.ad_checkpoint.checkpoint": (0, "fun"),
    "jax.ad_checkpoint.remat": (0, "fun"),
    "jax.eval_shape": (0, "fun"),
    "jax.make_jaxpr": (0, "fun"),
    "jax.shard_map": (0, "f"),
    "jax.experimental.shard_map.shard_map": (0, "f"),
    "jax.experimental.pjit.pjit": (0, "fun"),
    "jax.lax.scan": (0, "f"),
    "jax.lax.map": (0, "f"),
    "jax.lax.associative_scan": (0, "fn"),
    "jax.lax.fori_loop": (2, "body_fun"),
    "jax.lax.while_loop": (0, 1, "cond_fun", "body_fun"),
    "jax.lax.cond": (1, 2, "true_fun", "false_fun"),
    "jax.lax.switch": (1, "branches"),
    "equinox.filter_jit": (0, "fun"),
    "equinox.filter_vmap": (0, "fun"),
    "equinox.filter_pmap": (0, "fun"),
    "equinox.filter_checkpoint": (0, "fun"),
    "flax.nnx.jit": (0, "fun"),
    "flax.nnx.vmap": (0, "f"),
    "flax.nnx.scan": (0, "f"),
    "flax.nnx.pmap": (0, "f"),
    "flax.nnx.remat": (0, "f"),
    "flax.nnx.shard_map": (0, "f"),
    "flax.nnx.fori_loop": (2, "body_fun"),
    "flax.nnx.while_loop": (0, 1, "cond_fun", "body_fun"),
    "flax.nnx.cond": (1, 2, "true_fun", "false_fun"),
    "flax.nnx.switch": (1, "branches"),
    "flax.linen.jit": (0, "target"),
}
# control flow whose function argument is a sequence of branches (`lax.switch(i, branches, x)`)
BRANCH_TRANSFORMS = frozenset({"jax.lax.switch", "flax.nnx.switch"})
# wrappers that return a function calling the one they are given with the same arguments,
# without staging it: `checkify.checkify(f)(x, cfg)` runs `f` op by op (on JAX 0.10 and 0.12 it
# sees concrete arrays and the Python ints of `cfg`), so only a jit around it traces `f`
# (v29 row, tuning material: astronomix time_integration.py, a NamedTuple config of Python
# ints tested with `if` in a function checkified without jit, JAX110)
FUNCTION_PASS_THROUGH: dict[str, tuple[int | str, ...]] = {
    "jax.experimental.checkify.checkify": (0, "f"),
}
# control flow that runs (and traces) the function it is given at the call itself, instead of
# returning a transformed function to call later: `lax.fori_loop(0, n, update, state)` runs
# `update` there (a set-up write before that call is seen by its trace: v25 rows, tuning
# material, quantum-jax's `rho_bar` set in `main` before its fori_loop, JAX503)
RUNS_AT_CALL = frozenset(
    {
        "jax.lax.scan",
        "jax.lax.map",
        "jax.lax.associative_scan",
        "jax.lax.fori_loop",
        "jax.lax.while_loop",
        "jax.lax.cond",
        "jax.lax.switch",
        "flax.nnx.fori_loop",
        "flax.nnx.while_loop",
        "flax.nnx.cond",
        "flax.nnx.switch",
    }
)
# transforms that stage every operation of the function into one program (jit, the lax
# control-flow bodies, shard_map, checkpoint, eval_shape): there a jax.numpy or lax call on
# Python values gives a tracer too (omnistaging, JAX 0.2+; run with JAX 0.6.2 and 0.12.0.1:
# `jnp.arange(5) < 3`, `jnp.array([1, 2])`, `jnp.sqrt(2.0)` inside jit are tracers, and
# `x[jnp.arange(n) < k]` raises NonConcreteBooleanIndexError: jax#4471). A bare vmap does
# not stage: an operation on unbatched values runs eagerly.
STAGING = frozenset(JIT_LIKE) - {"jax.vmap", "equinox.filter_vmap", "flax.nnx.vmap"}
# flax nnx transforms: the Modules, Optimizers and other graph nodes a transformed function
# is given are updated in place when it returns (their Variables get the new arrays), so
# after `step(model, opt, x, y)` the model holds that step's outputs (v29 spyx, JAX601)
NNX_IN_PLACE = frozenset(q for q in JIT_LIKE if q.startswith("flax.nnx."))
# operations whose derivative is zero: under bare `grad` (concrete primals) JAX drops the
# tangent and returns a plain array, not a tracer, so it prints, converts and branches like
# any array (`print("{:.2f}".format(jnp.round(v, 2)))` under value_and_grad: v29 deltapv,
# JAX103). Checked one by one with JAX 0.6.2, 0.10.2 and 0.12.1 (`jnp.abs`, `%` and
# `jnp.heaviside` keep a tracer and are not here).
NO_DERIVATIVE = frozenset(
    [
        *(
            f"jax.numpy.{name}"
            for name in (
                "round around floor ceil sign trunc rint isnan isfinite isinf argmax argmin "
                "argsort count_nonzero any all greater greater_equal less less_equal equal "
                "not_equal logical_and logical_or logical_not"
            ).split()
        ),
        *(f"jax.lax.{name}" for name in ("round", "floor", "ceil", "sign", "stop_gradient")),
    ]
)
# the namespaces whose calls staging turns into tracers (not NumPy, not math)
STAGED_MODULES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.image.")
# calls of those namespaces that answer Python values or objects, not arrays, on Python
# arguments (beside STATIC_CALLS: shape, dtype, finfo, ...)
STAGED_NOT_ARRAYS = frozenset(
    {
        "jax.numpy.promote_types",
        "jax.numpy.can_cast",
        "jax.numpy.isdtype",
        "jax.numpy.broadcast_shapes",
        "jax.numpy.vectorize",
        "jax.numpy.frompyfunc",
        "jax.numpy.iterable",
        "jax.numpy.get_printoptions",
        "jax.numpy.printoptions",
        "jax.numpy.set_printoptions",
        "jax.lax.broadcast_shapes",
        "jax.lax.axis_size",
        "jax.lax.psum",
        "jax.lax.dtype",
    }
)
STAGED_NOT_ARRAY_PREFIXES = ("jax.nn.initializers.", "jax.numpy.dtypes.")
GRAD_LIKE: dict[str, tuple[int | str, ...]] = {
    name: (0, "fun")
    for name in (
        "jax.grad",
        "jax.value_and_grad",
        "jax.jacfwd",
        "jax.jacrev",
        "jax.jacobian",
        "jax.hessian",
        "jax.jvp",
        "jax.vjp",
        "jax.linearize",
        "equinox.filter_grad",
        "equinox.filter_value_and_grad",
        "flax.nnx.grad",
        "flax.nnx.value_and_grad",
    )
}
# grad-like transforms that differentiate only `argnums` (default 0); other arguments stay
# concrete Python values under a bare grad
ARGNUMS_GRADS = frozenset(
    {
        "jax.grad",
        "jax.value_and_grad",
        "jax.jacfwd",
        "jax.jacrev",
        "jax.jacobian",
        "jax.hessian",
        "flax.nnx.grad",
        "flax.nnx.value_and_grad",
    }
)
# equinox's grads differentiate the first argument (its inexact array leaves); the others pass
# through as they are, so under a bare filter_grad a Python int stays a Python int
FIRST_ARG_GRADS = frozenset({"equinox.filter_grad", "equinox.filter_value_and_grad"})
# transforms that cache the traced program on the function object: values read from globals
# are baked in at trace time (a bare vmap or grad re-traces on every call)
# the transforms that trace every argument not named static (a Python bool or int passed there
# is a tracer) and take `static_argnames`: `jax.jit` and `pjit`
JIT_TRACING_EVERY_ARGUMENT = frozenset({"jax.jit", "jax.experimental.pjit.pjit"})
# transforms whose result, called, hands each argument to the wrapped function's parameter in
# the same place (batched or traced, never dropped or reordered): `jax.vmap(f)(keys)` reads
# `keys` only if `f` reads its first parameter (analysis/deadness.py)
ARGUMENT_PRESERVING_TRANSFORMS = frozenset(
    {"jax.vmap", "jax.jit", "jax.pmap", "equinox.filter_vmap", "equinox.filter_jit"}
)
COMPILING = frozenset(
    {
        "jax.jit",
        "jax.pmap",
        "jax.experimental.pjit.pjit",
        "equinox.filter_jit",
        "equinox.filter_pmap",
        "flax.nnx.jit",
        "flax.nnx.pmap",
        "flax.linen.jit",
    }
)
HOST_CALLBACKS: dict[str, tuple[int | str, ...]] = {
    "jax.pure_callback": (0, "callback"),
    "jax.debug.callback": (0, "callback"),
    "jax.experimental.io_callback": (0, "callback"),
    "jax.experimental.pure_callback": (0, "callback"),
    "jax.experimental.host_callback.call": (0, "callback_func"),
    "jax.experimental.host_callback.id_tap": (0, "tap_func"),
}
TREE_MAP = {"jax.tree.map", "jax.tree_util.tree_map", "jax.tree_map"}
# calls (and prefixes) that take a dtype without creating data in it: a 64-bit dtype there is
# asked about, not requested (`jnp.issubsctype(X.dtype, jnp.complex128)`, the removed alias
# of `issubdtype` that older code still calls: v12 Jax_cuda_med, JAX701)
DTYPE_QUERIES = (
    "jax.ShapeDtypeStruct",
    "jax.numpy.finfo",
    "jax.numpy.iinfo",
    "jax.numpy.dtype",
    "jax.numpy.issubdtype",
    "jax.numpy.issubsctype",
    "jax.numpy.result_type",
    "jax.numpy.promote_types",
    "jax.numpy.can_cast",
    "jax.numpy.isdtype",
    "jax.dtypes.",
    "jax.config.",
)
MODULE_BASES = {
    "flax.linen.Module": "flax.linen",
    "flax.nnx.Module": "flax.nnx",
    "flax.nnx.module.Module": "flax.nnx",
    "equinox.Module": "equinox",
}
PARTIAL = {"functools.partial", "partial"}
# decorators that hand the call's arguments through unchanged
PASS_THROUGH_DECORATORS = frozenset(
    {
        "staticmethod",
        "classmethod",
        "abc.abstractmethod",
        "functools.wraps",
        "typing.overload",
        "typing.final",
        "typing_extensions.overload",
        "typing_extensions.final",
        "chex.assert_max_traces",
        "jax.named_call",
        "jax.named_scope",
    }
)

# transforms that create a compiled, cached callable (the cache is keyed on the function object);
# narrower than COMPILING, which also holds the pmaps of equinox/nnx and `flax.linen.jit`: the
# rules that use this table (the compile and benchmarking families) were written
# against it, and widening it moves findings
JIT_FACTORIES = frozenset(
    {
        "jax.jit",
        "jax.pmap",
        "equinox.filter_jit",
        "flax.nnx.jit",
        "jax.experimental.pjit.pjit",
    }
)
# wall-clock readers a benchmark times with (the benchmarking rules' table). The runtime
# verifier's table adds `time.process_time` (CPU time, fine for its purpose); the key analysis'
# CLOCKS (`analysis/keys.py`) is another idea: values that change between runs, used as seeds
CLOCKS = frozenset(
    {
        "time.time",
        "time.perf_counter",
        "time.monotonic",
        "time.perf_counter_ns",
        "time.monotonic_ns",
        "time.time_ns",
        "timeit.default_timer",
    }
)
TIMEIT = frozenset({"timeit.timeit", "timeit.repeat", "timeit.Timer"})

# -- values under tracing (the taint analysis) --------------------------------------------
STATIC_ATTRS = frozenset(
    {
        "shape",
        "ndim",
        "dtype",
        "size",
        "sharding",
        "weak_type",
        "aval",
        "nbytes",
        "itemsize",
        "committed",
        "is_fully_replicated",
        "is_fully_addressable",
        "format",
        "named_shape",
        "__class__",
        "__name__",
    }
)
ARRAY_ATTRS = frozenset({"T", "mT", "real", "imag", "at"})
DICT_METHODS = frozenset({"items", "keys", "values", "copy"})
# methods whose result is the pytree's auxiliary data: the keys of a dict of arrays are its
# treedef (strings, ints, enums), Python values under tracing (`for k in obs.keys(): if k not
# in tasks:` is static; octo's tokenizers)
KEY_METHODS = frozenset({"keys"})
TREE_METHODS = frozenset({"get", "replace", "_replace", "pop", "setdefault"})
CONCRETE_METHODS = frozenset(
    {
        "item",
        "tolist",
        "tobytes",
        "__array__",
        "devices",
        "device",
        "addressable_shards",
        "copy_to_host_async",
        "is_deleted",
        "block_until_ready",
        "startswith",
        "endswith",
        "format",
        "join",
        "split",
        "lower",
        "upper",
        "strip",
        "index",
        "count",
    }
)
# the top-level packages of JAX and the libraries the rules know: the prefilter's default gate
# always includes them, and the project index never takes a project file of the same name
# beside an importer inside a package for one of them (analysis/project.py `_module_path`)
LIBRARY_ROOTS = frozenset(
    {"jax", "jaxlib", "flax", "equinox", "optax", "numpy", "chex", "haiku", "numpyro", "diffrax"}
)
# calls whose result is never traced, whatever the arguments
# Python's `map` and JAX's own: `map(jnp.shape, leaves)` of a STATIC_CALLS function gives
# Python values (v19 rows, tuning material: jax-fem-cfd `_shapes(x0) != _shapes(b)`, JAX110)
PYTHON_MAPS = frozenset({"map", "jax._src.util.safe_map", "jax.util.safe_map"})
# transforms whose result, called, gives a Python object describing the program, not arrays
STATIC_FACTORIES = frozenset({"jax.make_jaxpr"})
STATIC_CALLS = frozenset(
    {
        "len",
        "isinstance",
        "issubclass",
        "type",
        "id",
        "callable",
        "hasattr",
        "getattr",
        "str",
        "repr",
        "hash",
        "print",
        "format",
        "range",
        "int",
        "float",
        "bool",
        "complex",
        "vars",
        "dir",
        "super",
        "object",
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "jax.numpy.result_type",
        "jax.numpy.dtype",
        "jax.numpy.finfo",
        "jax.numpy.iinfo",
        "jax.numpy.issubdtype",
        "jax.numpy.iscomplexobj",
        "jax.numpy.isrealobj",
        "jax.numpy.isscalar",
        "jax.dtypes.result_type",
        "jax.dtypes.canonicalize_dtype",
        "jax.dtypes.issubdtype",
        # JAX's own `_shapes(pytree)`, `map(np.shape, tree_leaves(pytree))` in 0.10.2 and
        # 0.12.1, which code built on `jax.scipy.sparse.linalg` imports (v41 n-gao/pesnet
        # `utils/optim.py:220`, `jssl._shapes(x0) != jssl._shapes(b)`: JAX110, read after the
        # set's measurement)
        "jax._src.scipy.sparse.linalg._shapes",
        "numpy.shape",
        "numpy.ndim",
        "numpy.size",
        "numpy.dtype",
        "numpy.finfo",
        "numpy.iinfo",
        "numpy.result_type",
        "numpy.issubdtype",
        # they read the dtype (or the Python type) only: a Python bool of a tracer too (v29
        # row, tuning material: cr-sparse thresholding.py:44, `if np.iscomplexobj(x):` in a
        # jitted function, JAX110; checked with JAX 0.12)
        "numpy.iscomplexobj",
        "numpy.isrealobj",
        "numpy.isscalar",
        # `iter(x)` in a try: a 1-d tracer iterates, a 0-d one raises TypeError (caught), so a
        # Python bool without reading a value (v35 row, tuning material after its reading:
        # squiggle chebyshev.py:436 `np.iterable(k)` under jit, JAX101; run with JAX 0.12)
        "numpy.iterable",
        "jax.typeof",
        "jax.eval_shape",
        "jax.ShapeDtypeStruct",
        "jax.tree.structure",
        "jax.tree_util.tree_structure",
        "jax.tree.leaves_with_path",
        "jax.process_index",
        "jax.process_count",
        "jax.device_count",
        "jax.local_device_count",
        "jax.devices",
        "jax.local_devices",
        "jax.core.get_aval",
        "jax.debug.print",
        "jax.debug.callback",
        "jax.pure_callback",
        "jax.experimental.io_callback",
    }
)
# NumPy functions that dispatch to the array's own method and so work on tracers (facts §0.7;
# NumPy's `_wrapfunc`/`_wrapreduction`: `np.repeat(a, 2)` is `a.repeat(2)`, t5x's moe
# checkpoints); every other NumPy function on a tracer raises TracerArrayConversionError.
# Each entry was run under `jax.jit` (JAX 0.12, NumPy 2.5; tests/test_kinds.py lists them);
# `take`, `argsort`, `clip`, `sort`, `ravel`, `nonzero`, `diagonal`, `trace` fail there.
NUMPY_DISPATCHING = frozenset(
    {
        "sum",
        "mean",
        "max",
        "min",
        "amax",
        "amin",
        "prod",
        "std",
        "var",
        "argmax",
        "argmin",
        "cumsum",
        "cumprod",
        "reshape",
        "transpose",
        "swapaxes",
        "squeeze",
        "repeat",
        "searchsorted",
        "round",
        "around",
        "any",
        "all",
        "shape",
        "ndim",
        "size",
        "dtype",
        "finfo",
        "iinfo",
        "issubdtype",
        "result_type",
        "promote_types",
        "can_cast",
        "isscalar",
        "iscomplexobj",
        "isrealobj",
        "errstate",
        "broadcast_shapes",
        "iterable",  # `iter(x)` only (v35 squiggle, JAX101; run under jit with JAX 0.12)
    }
)
# jax.numpy functions returning a boolean array
MASK_FUNCTIONS = frozenset(
    """isnan isinf isfinite isneginf isposinf isclose isreal iscomplex signbit isin
    logical_and logical_or logical_not logical_xor equal not_equal greater greater_equal less
    less_equal""".split()
)
# pytree utilities returning Python lists/tuples of leaves (containers, not arrays)
TREE_CONTAINERS = frozenset(
    {
        "jax.tree.leaves",
        "jax.tree_util.tree_leaves",
        "jax.tree.flatten",
        "jax.tree_util.tree_flatten",
        "jax.tree_leaves",
        "jax.tree_flatten",
        "jax.tree.flatten_with_path",
        "jax.tree_util.tree_flatten_with_path",
        "jax.tree_util.tree_leaves_with_path",
    }
)
# pytree and transform utilities returning a fixed-size tuple whose parts differ in kind: per
# part, "tree" (what the input's leaves are: traced when the input is) or "static" (a Python
# object under tracing: a PyTreeDef, an unravel or VJP function). `leaves, treedef =
# jax.tree.flatten(x)` then `if treedef != other:` compares tree structures, a Python bool
# (jax2onnx's fori_loop plugin; checked with JAX 0.12 under jit)
TuplePart = Literal["tree", "static"]
TUPLE_RESULTS: dict[str, tuple[TuplePart, ...]] = {
    **dict.fromkeys(
        (
            "jax.tree.flatten",
            "jax.tree_util.tree_flatten",
            "jax.tree_flatten",
            "jax.tree.flatten_with_path",
            "jax.tree_util.tree_flatten_with_path",
        ),
        ("tree", "static"),
    ),
    "jax.flatten_util.ravel_pytree": ("tree", "static"),
    "jax.vjp": ("tree", "static"),
    "jax.linearize": ("tree", "static"),
}
# transforms that trace only the array leaves of their arguments (the rest is static)
FILTERING = ("equinox.", "flax.nnx.")
# of those, the ones whose arguments are whatever the caller passes: a parameter holds a
# tracer only when an array is passed (analysis/kinds.py `_filtered_kind`); not the loop and
# branch bodies of nnx (`nnx.scan`'s carry and slices are arrays by construction)
PASS_VALUES_THROUGH = frozenset(
    {
        "equinox.filter_jit",
        "equinox.filter_vmap",
        "equinox.filter_pmap",
        "equinox.filter_grad",
        "equinox.filter_value_and_grad",
        "equinox.filter_checkpoint",
        "flax.nnx.jit",
        "flax.nnx.vmap",
        "flax.nnx.pmap",
        "flax.nnx.grad",
        "flax.nnx.value_and_grad",
        "flax.nnx.remat",
    }
)
# exceptions JAX raises on tracers: code in a `try` that catches one of them is probing for
# concreteness on purpose
TRACER_ERRORS = ("Concretization", "Tracer", "NonConcrete", "UnexpectedTracer")
ARRAY_MODULES = (
    "jax.numpy.",
    "jax.lax.",
    "jax.nn.",
    "jax.random.",
    "jax.scipy.",
    "jax.image.",
    "numpy.",
    "math.",
    "jax.experimental.pallas.",
    "optax.",
)


# where a concrete value is needed: jax functions' shape/size parameters (positions and
# keywords) and array methods taking shapes (used to decide whether replacing a NumPy value by
# a jax.numpy one keeps code working)
SHAPE_KEYWORDS = frozenset(
    """shape newshape new_shape size num reps repeats total_repeat_length N M n length axis
    axes window_shape window_dimensions window_strides strides kernel_size padding
    dimension dimensions out_sharding""".split()
)
SHAPE_FIRST = frozenset(
    """zeros ones empty full eye identity tri arange linspace logspace""".split()
)
SHAPE_SECOND = frozenset("""reshape tile broadcast_to resize repeat""".split())
# `jax.random` samplers whose second positional argument is the shape (`normal(key, (n, d))`)
RANDOM_SHAPE_SECOND = frozenset(
    """normal uniform randint exponential gumbel laplace logistic rademacher cauchy""".split()
)
SHAPE_METHODS = frozenset({"reshape", "tile", "repeat", "broadcast_to", "resize", "transpose"})
# ahead-of-time compilation API: called on a jitted function (not traced), returns host objects
AOT_METHODS = frozenset(
    {"lower", "compile", "cost_analysis", "memory_analysis", "as_text", "compiler_ir"}
)
JAX_ARRAY_MODULES = tuple(m for m in ARRAY_MODULES if m.startswith("jax."))

# -- asynchronous dispatch (the benchmarking family) ------------------------------------------
# calls that dispatch device work and return before it finishes (a timing must wait for them)
ASYNC_PREFIXES = ("jax.numpy.", "jax.random.", "jax.lax.", "jax.nn.", "jax.scipy.")
ASYNC_CALLS = frozenset({"jax.device_put"})
# index expressions that build an array from their operands (`jnp.c_[a, b]`: a concatenation
# dispatched like any jax.numpy call; the result is ready only once the operands are)
ARRAY_INDEX_BUILDERS = frozenset({"jax.numpy.c_", "jax.numpy.r_"})
# of those, the ones whose result is known on the host at once (shapes, dtypes), or whose work
# is not what a timing measures: making or deriving a key (`rng, sub = split(rng)` each step of
# a timed loop), where blocking on the key waits for nothing of the timed work
STATIC_RESULTS = frozenset(
    {
        "jax.numpy.shape",
        "jax.numpy.dtype",
        "jax.numpy.finfo",
        "jax.numpy.iinfo",
        "jax.random.key",
        "jax.random.PRNGKey",
        "jax.random.split",
        "jax.random.fold_in",
        "jax.random.clone",
    }
)

# -- transforms that run their function op by op -------------------------------------------
# outside a compiled program these run the function eagerly, one operation at a time: a Python
# loop in it is executed step by step, not unrolled into one program to compile
EAGER_TRANSFORMS = frozenset(
    {
        "jax.vmap",
        "jax.grad",
        "jax.value_and_grad",
        "jax.jacfwd",
        "jax.jacrev",
        "jax.hessian",
        "jax.jvp",
        "jax.vjp",
        "jax.linearize",
        "jax.checkpoint",
        "jax.remat",
    }
)


# registering a class as a pytree (analysis/pytrees.py reads its fields; a registered class is
# no plain class: `self` of its jitted method is flattened and rebuilt, a copy per trace)
REGISTER_DATACLASS = frozenset({"jax.tree_util.register_dataclass", "jax.tree.register_dataclass"})
REGISTER_STATIC = frozenset({"jax.tree_util.register_static", "jax.tree.register_static"})
REGISTER_NODE_CLASS = frozenset({"jax.tree_util.register_pytree_node_class"})
REGISTER_NODE = frozenset(
    {"jax.tree_util.register_pytree_node", "jax.tree_util.register_pytree_with_keys"}
)
PYTREE_CLASS_DECORATORS = REGISTER_DATACLASS | REGISTER_STATIC | REGISTER_NODE_CLASS
