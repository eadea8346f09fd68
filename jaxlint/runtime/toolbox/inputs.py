"""Example arguments from a short spec string: `"f32[8,128], i32[], key, 0.5, 'mean'"`.

Parsing is pure Python (no JAX), so the CLI can reject a bad spec before it starts a subprocess.
`materialize` builds the concrete values with a fixed seed, so two runs (or the original and the
fixed code) see the same inputs; `abstractify` gives the `ShapeDtypeStruct` form for `eval_shape`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from jaxlint.core.errors import UsageError

# short name -> NumPy/JAX dtype name
DTYPES: dict[str, str] = {
    "bool": "bool",
    "f16": "float16",
    "bf16": "bfloat16",
    "f32": "float32",
    "f64": "float64",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
    "u16": "uint16",
    "u32": "uint32",
    "u64": "uint64",
    "c64": "complex64",
    "c128": "complex128",
}
_LONG_TO_SHORT = {long: short for short, long in DTYPES.items()}
_ARRAY_RE = re.compile(r"^(?P<dtype>[A-Za-z][A-Za-z0-9_-]*)\s*(?:\[(?P<dims>[^\]]*)\])?$")


@dataclass(frozen=True, slots=True)
class ArraySpec:
    """An array argument: dtype short name (`f32`) and shape."""

    dtype: str
    shape: tuple[int, ...]

    @property
    def dtype_name(self) -> str:
        return DTYPES[self.dtype]

    def __str__(self) -> str:
        return f"{self.dtype}[{','.join(map(str, self.shape))}]"


@dataclass(frozen=True, slots=True)
class KeySpec:
    """A PRNG key: typed (`jax.random.key`) or legacy uint32 (`jax.random.PRNGKey`); optional batch."""

    legacy: bool = False
    shape: tuple[int, ...] = ()

    def __str__(self) -> str:
        name = "legacy-key" if self.legacy else "key"
        return f"{name}[{','.join(map(str, self.shape))}]" if self.shape else name


@dataclass(frozen=True, slots=True)
class LiteralSpec:
    """A Python value passed as is: static configuration, or a weakly typed scalar."""

    value: Any
    text: str

    @property
    def is_scalar(self) -> bool:
        return isinstance(self.value, (bool, int, float, complex))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class ObjectSpec:
    """An instance of a class, rebuilt from its fields (a captured `self`, a NamedTuple state):
    `Model(w=f32[4,8], n=3)`. The class is a module attribute (`Model`) or an importable dotted
    name (`optax.ScaleByAdamState`). NamedTuples and flax.linen Modules are built by calling the
    class; other classes by `cls.__new__(cls)` and setting each field (their `__init__` may need
    other arguments than the fields it stores)."""

    cls: str
    fields: tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class RefSpec:
    """A module-level object by its import path: `__ref__('jax.nn', 'relu')`."""

    module: str
    qualname: str


@dataclass(frozen=True, slots=True)
class TreeSpec:
    """A pytree of specs: `{'w': f32[4,8], 'b': f32[8]}`, `(f32[2], key)`, `[f32[3], 0.5]`,
    `Model(w=f32[4,8])`. Containers are dicts, lists and tuples; leaves are array or key specs,
    Python constants, `ObjectSpec`s and `RefSpec`s."""

    tree: Any
    text: str

    def __str__(self) -> str:
        return self.text


Spec = ArraySpec | KeySpec | LiteralSpec | TreeSpec


def split_items(text: str) -> list[str]:
    """Split on top-level commas; commas inside brackets, parentheses or quotes stay in the item."""
    items: list[str] = []
    depth = 0
    quote = ""
    current: list[str] = []
    for ch in text:
        if quote:
            current.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    if quote or depth != 0:
        raise UsageError(f"unbalanced brackets or quotes in argument spec {text!r}")
    tail = "".join(current).strip()
    if tail or items:
        items.append(tail)
    return items


def parse_item(item: str) -> Spec:
    """Parse one argument spec; raise UsageError naming the item when it is not understood."""
    text = item.strip()
    if not text:
        raise UsageError("empty item in argument spec (two commas in a row?)")
    match = _ARRAY_RE.match(text)
    if match:
        name = match.group("dtype")
        dims_text = match.group("dims")
        if name in ("key", "legacy-key", "legacy_key"):
            return KeySpec(legacy=name != "key", shape=_parse_dims(dims_text, text))
        short = name if name in DTYPES else _LONG_TO_SHORT.get(name)
        if short is not None:
            return _checked_size(ArraySpec(short, _parse_dims(dims_text, text)), text)
        if dims_text is not None:
            known = ", ".join(DTYPES)
            raise UsageError(
                f"unknown dtype {name!r} in argument spec item {text!r} (known: {known})"
            )
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        tree = _parse_tree(text)
        if tree is not None:
            return tree
        raise UsageError(
            f"cannot parse argument spec item {text!r}: expected an array like f32[8,128], "
            "`key`, `legacy-key`, or a Python literal such as 3, 0.5, True, None, 'mean'"
        ) from None
    return LiteralSpec(value, text)


MAX_ARRAY_BYTES = 64 << 30  # one example input; more is a typo (or a job for a real run)
_ITEMSIZE = {"bool": 1, "f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i16": 2, "i32": 4}
_ITEMSIZE |= {"i64": 8, "u8": 1, "u16": 2, "u32": 4, "u64": 8, "c64": 8, "c128": 16}


def _checked_size(spec: ArraySpec, item: str) -> ArraySpec:
    """Refuse absurd shapes here, with the size, rather than as a MemoryError in the child."""
    count = 1
    for dim in spec.shape:
        count *= dim
    size = count * _ITEMSIZE.get(spec.dtype, 8)
    if size > MAX_ARRAY_BYTES:
        raise UsageError(
            f"argument spec item {item!r} is {_human_bytes(size)}; example inputs are limited to "
            f"{_human_bytes(MAX_ARRAY_BYTES)} each (use a smaller shape)"
        )
    return spec


def _human_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"  # pragma: no cover


_EMPTY_DIMS = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([A-Za-z_][\w-]*)\[\s*\]""")


def _scalars_as_names(text: str) -> str:
    """`f32[]` is not Python syntax: inside a pytree it becomes the bare `f32` (the same 0-d
    spec), outside quoted strings, so that `{'lr': f32[]}` and `State(count=i32[])` parse."""
    return _EMPTY_DIMS.sub(lambda m: m.group(1) or m.group(2), text)


def _parse_tree(text: str) -> TreeSpec | None:
    """A pytree spec (`{'w': f32[4,8]}`, `Model(w=f32[2])`), or None when `text` is not one."""
    try:
        node = ast.parse(_scalars_as_names(text), mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    try:
        return TreeSpec(_tree_node(node), text)
    except (UsageError, ValueError, TypeError, RecursionError):
        return None


def _tree_node(node: ast.expr) -> Any:
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise ValueError("** in a dict spec")
        return {ast.literal_eval(k): _tree_node(v) for k, v in zip(node.keys, node.values)}  # type: ignore[arg-type]
    if isinstance(node, ast.List):
        return [_tree_node(e) for e in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(_tree_node(e) for e in node.elts)
    if isinstance(node, (ast.Subscript, ast.Name, ast.BinOp)):
        text = ast.unparse(node)
        if isinstance(node, ast.BinOp):
            text = text.replace(" ", "")
        match = _ARRAY_RE.match(text)
        if match is None:
            raise ValueError(f"not a leaf spec: {text}")
        name = match.group("dtype")
        if name not in ("key", "legacy-key", "legacy_key") and name not in DTYPES:
            if name not in _LONG_TO_SHORT:
                raise ValueError(f"not a leaf spec: {text}")
        return parse_item(text)
    if isinstance(node, ast.Call):
        name = _dotted_name(node.func)
        if name == "__ref__" and len(node.args) == 2 and not node.keywords:
            module, qualname = (ast.literal_eval(a) for a in node.args)
            return RefSpec(str(module), str(qualname))
        if name is None or node.args or any(k.arg is None for k in node.keywords):
            raise ValueError("an object spec is Class(field=spec, ...)")
        return ObjectSpec(name, tuple((str(k.arg), _tree_node(k.value)) for k in node.keywords))
    return ast.literal_eval(node)


def _dotted_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted_name(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


def _parse_dims(dims: str | None, item: str) -> tuple[int, ...]:
    if dims is None or not dims.strip():
        return ()
    shape = []
    for part in dims.split(","):
        part = part.strip()
        if not part.isdigit():
            raise UsageError(f"bad dimension {part!r} in argument spec item {item!r}")
        shape.append(int(part))
    return tuple(shape)


def parse_specs(text: str | Sequence[str]) -> list[Spec]:
    """Parse a comma-separated spec string (or already split items) into spec objects."""
    if isinstance(text, str):
        items = split_items(text)
    else:
        items = []
        for t in text:
            if not t.strip():
                raise UsageError("empty item in argument spec (two commas in a row?)")
            items.extend(split_items(t))
    return [parse_item(item) for item in items]


def format_specs(specs: Iterable[Spec]) -> str:
    """The canonical spec string, e.g. for reports: `f32[8,128], key, 3`."""
    return ", ".join(str(s) for s in specs)


def materialize(
    specs: Sequence[Spec],
    seed: int = 0,
    *,
    on_device: bool = True,
    namespace: dict[str, Any] | None = None,
) -> list[Any]:
    """Concrete values for `specs`, the same for the same seed.

    Arrays come from one NumPy generator in argument order (normal floats, small ints, random
    bits for bool), then `jnp.asarray`; with `on_device=False` they stay NumPy arrays so a caller
    can time the host-to-device transfer itself. Keys are always JAX arrays. Pytree specs are
    filled leaf by leaf in the same order; their classes are looked up in `namespace` (the user's
    module) first, then imported.
    """
    import jax
    import jax.numpy as jnp
    import numpy as np

    rng = np.random.default_rng(seed)
    values: list[Any] = []
    for spec in specs:
        values.append(_build(spec, jax, jnp, np, rng, on_device, namespace or {}))
    return values


def _build(
    spec: Any, jax: Any, jnp: Any, np: Any, rng: Any, on_device: bool, namespace: dict[str, Any]
) -> Any:
    if isinstance(spec, LiteralSpec):
        return spec.value
    if isinstance(spec, KeySpec):
        return _make_key(jax, spec, int(rng.integers(0, 2**31 - 1)))
    if isinstance(spec, ArraySpec):
        host = _host_array(np, rng, spec)
        return jnp.asarray(host, dtype=_jax_dtype(jnp, spec)) if on_device else host
    if isinstance(spec, TreeSpec):
        return _build(spec.tree, jax, jnp, np, rng, on_device, namespace)

    def again(sub: Any) -> Any:
        return _build(sub, jax, jnp, np, rng, on_device, namespace)

    if isinstance(spec, dict):
        return {k: again(v) for k, v in spec.items()}
    if isinstance(spec, list):
        return [again(v) for v in spec]
    if isinstance(spec, tuple):
        return tuple(again(v) for v in spec)
    if isinstance(spec, RefSpec):
        if not spec.module:  # the user's own file (run as `__main__`): its namespace has it
            return resolve_name(spec.qualname, namespace)
        return resolve_name(f"{spec.module}.{spec.qualname}", namespace, module=spec.module)
    if isinstance(spec, ObjectSpec):
        cls = resolve_name(spec.cls, namespace)
        fields = {k: again(v) for k, v in spec.fields}
        return rebuild_object(cls, fields)
    return spec  # a Python constant inside a tree


def resolve_name(dotted: str, namespace: dict[str, Any], *, module: str | None = None) -> Any:
    """`Model` / `Outer.Inner` from the user's module, else an importable `pkg.mod.Class`."""
    import importlib

    parts = dotted.split(".")
    if module is None and parts[0] in namespace:
        obj = namespace[parts[0]]
        for part in parts[1:]:
            obj = getattr(obj, part)
        return obj
    starts = [len(module.split("."))] if module else range(len(parts) - 1, 0, -1)
    for cut in starts:
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            obj = getattr(obj, part)
        return obj
    raise UsageError(f"cannot find {dotted!r} (not in the module, not importable)")


def rebuild_object(cls: Any, fields: dict[str, Any]) -> Any:
    """An instance of `cls` with these fields: NamedTuples, flax.linen Modules and flax.nnx
    Modules (whose fields are their constructor's arguments) through the constructor, anything
    else without running `__init__`."""
    if isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return cls(**fields)
    if _is_linen_module(cls) or _is_nnx_class(cls):
        return cls(**fields)
    obj = cls.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(obj, name, value)
    return obj


def _is_nnx_class(cls: Any) -> bool:
    """A flax.nnx Module or Rngs: its spec is the constructor call that built it (capture
    records `Block.__init__`'s arguments), so it is rebuilt by calling the class."""
    import sys

    nnx = sys.modules.get("flax.nnx")
    if nnx is None or not isinstance(cls, type):
        return False
    bases = tuple(
        b for b in (getattr(nnx, n, None) for n in ("Pytree", "Object", "Module", "Rngs")) if b
    )
    return bool(bases) and issubclass(cls, bases)


def _is_linen_module(cls: Any) -> bool:
    import sys

    linen = sys.modules.get("flax.linen")
    module = getattr(linen, "Module", None) if linen is not None else None
    return module is not None and isinstance(cls, type) and issubclass(cls, module)


def _host_array(np: Any, rng: Any, spec: ArraySpec) -> Any:
    name = spec.dtype_name
    shape = spec.shape
    if name == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if name.startswith("int"):
        return rng.integers(-8, 9, size=shape).astype(name)
    if name.startswith("uint"):
        return rng.integers(0, 17, size=shape).astype(name)
    # draw in float32 unless float64 is asked for: an f32 input never costs a float64 copy
    wide = name in ("float64", "complex128")
    draw = np.float64 if wide else np.float32
    if name.startswith("complex"):
        real = rng.standard_normal(shape, dtype=draw)
        imag = rng.standard_normal(shape, dtype=draw)
        return (real + 1j * imag).astype(name)
    values = rng.standard_normal(shape, dtype=draw)
    if name == "bfloat16":
        import ml_dtypes

        return values.astype(ml_dtypes.bfloat16)
    return values.astype(name)


def _jax_dtype(jnp: Any, spec: ArraySpec) -> Any:
    return getattr(jnp, spec.dtype_name) if spec.dtype_name != "bool" else jnp.bool_


def _make_key(jax: Any, spec: KeySpec, seed: int) -> Any:
    make = jax.random.PRNGKey if spec.legacy else jax.random.key
    key = make(seed)
    if spec.shape:
        count = 1
        for dim in spec.shape:
            count *= dim
        key = jax.random.split(key, count).reshape(*spec.shape, *key.shape)
    return key


def abstractify(specs: Sequence[Spec]) -> list[Any]:
    """`jax.ShapeDtypeStruct` stand-ins for array and key specs (literals stay as they are)."""
    import jax
    import jax.numpy as jnp

    out: list[Any] = []
    for spec in specs:
        if isinstance(spec, LiteralSpec):
            out.append(spec.value)
        elif isinstance(spec, TreeSpec):
            out.append(jax.eval_shape(lambda s=spec: materialize([s])[0]))
        elif isinstance(spec, KeySpec):
            one = jax.eval_shape(lambda s=spec: _make_key(jax, s, 0))
            out.append(jax.ShapeDtypeStruct(one.shape, one.dtype))
        else:
            out.append(jax.ShapeDtypeStruct(spec.shape, _jax_dtype(jnp, spec)))
    return out


def short_dtype(dtype: Any) -> str:
    """`float32` -> `f32`; key and other extended dtypes keep their own name."""
    name = str(getattr(dtype, "name", dtype))
    return _LONG_TO_SHORT.get(name, name)


def describe_value(value: Any) -> str:
    """Abstract signature of one value: `f32[8,128]`, `~f32[]` for a weakly typed scalar, `key<fry>[]`."""
    shape = getattr(value, "shape", None)
    dtype = getattr(value, "dtype", None)
    if shape is None or dtype is None:
        if isinstance(value, bool):
            return "~bool[]"
        if isinstance(value, int):
            return "~i32[]"
        if isinstance(value, float):
            return "~f32[]"
        if isinstance(value, complex):
            return "~c64[]"
        return repr(value)
    weak = "~" if getattr(value, "weak_type", False) else ""
    return f"{weak}{short_dtype(dtype)}[{','.join(map(str, shape))}]"
