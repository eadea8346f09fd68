"""Example inputs of an entry, per parameter, without running anything.

The sources, in order: `--args`, `[tool.jaxlint.verify]` (`file::function` tables), inputs
recorded by `--capture-*`, annotations (jaxtyping, `jax.Array` with `verify.default-shape`,
scalars), defaults (omitted) and, with `guess`, a name-based guess (`KEY_NAMES`, `INT_NAMES`,
...). Each input is a spec string the child materializes (`inputs.py`); a parameter none of
these covers is reported as missing, so the job says which input to pass. Static: no JAX.
"""

from __future__ import annotations

import ast
import fnmatch
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.imports import dotted
from jaxlint.analysis.syntax import param_defaults
from jaxlint.core.config import Settings
from jaxlint.core.errors import UsageError
from jaxlint.verify.plan_locate import positional_params

DEFAULT_SHAPE = (8,)
KEY_NAMES = re.compile(r"^(key|rng|prng|subkey|sub_key|rng_key|prng_key|keys|.*_key|key_.*)$")
INT_NAMES = re.compile(
    r"^(n|m|k|i|j|t|size|num|count|steps?|length|len|idx|index|axis|dim|start|stop|seed|"
    r"epochs?|iters?|iterations?|repeats?|rounds?|times|"
    r"n_.*|num_.*|.*_size|.*_len|.*_steps?)$"
)
BOOL_NAMES = re.compile(r"^(flag|training|train|is_.*|use_.*|deterministic|verbose|debug)$")
# probabilities and small coefficients: 0.5 is valid for each (`bernoulli(key, 1 - rate)`
# rejects an int; a dropout rate of 3 is no rate)
FLOAT_NAMES = re.compile(
    r"^(p|prob|probs?|rate|.*_rate|dropout|keep_prob|.*_prob|eps|epsilon|lr|alpha|beta|gamma|"
    r"tau|temperature|temp|momentum|decay|.*_decay|frac|fraction|ratio|scale|weight_decay)$"
)
ARRAY_ANNOTATIONS = {
    "jax.Array",
    "jax.numpy.ndarray",
    "jax.typing.ArrayLike",
    "jaxtyping.Array",
    "jaxtyping.ArrayLike",
    "numpy.ndarray",
    "Array",
    "ArrayLike",
    "ndarray",
}
KEY_ANNOTATIONS = {"jaxtyping.PRNGKeyArray", "PRNGKeyArray", "jax.random.PRNGKeyArray"}
JAXTYPING_DTYPES = {
    "Float": "f32",
    "Float32": "f32",
    "Float64": "f64",
    "Float16": "f16",
    "BFloat16": "bf16",
    "Real": "f32",
    "Inexact": "f32",
    "Num": "f32",
    "Shaped": "f32",
    "Int": "i32",
    "Int32": "i32",
    "Int64": "i64",
    "Int16": "i16",
    "Int8": "i8",
    "Integer": "i32",
    "UInt": "u32",
    "UInt32": "u32",
    "UInt8": "u8",
    "UInt16": "u16",
    "Bool": "bool",
    "Complex": "c64",
    "Complex64": "c64",
    "Key": "key",
}
SCALAR_ANNOTATIONS = {"int": "3", "float": "0.5", "bool": "True", "complex": "1j"}


@dataclass
class InputOptions:
    """Where example inputs come from (besides annotations and defaults)."""

    function: str | None = None  # PATH::FUNCTION's function, when given
    args: str | None = None  # --args
    static: tuple[str, ...] = ()  # --static
    guess: bool = False  # fill the rest by parameter name (testing aid)
    table: dict[str, Any] = field(default_factory=dict)  # extra "file::func" -> spec entries
    # recorded by --capture-main/--capture-cmd: {qualname: {param: spec or None}}
    captured: dict[str, dict[str, str | None]] = field(default_factory=dict)
    # --capture-main: the user lets their `__main__` block run, so a finding inside it is run
    # with the block's statements; without it such a finding cannot run at all
    run_main: bool = False
    # the later distinct recorded calls of a function (`captured` is the first): the runner
    # tries them in turn when the first does not reach the flagged line
    captured_more: dict[str, list[dict[str, str | None]]] = field(default_factory=dict)


# --------------------------------------------------------------------------- inputs


def _annotation_text(node: ast.expr | None) -> ast.expr | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    return node


def _unwrap_optional(node: ast.expr) -> ast.expr:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        for side in (node.left, node.right):
            if not (isinstance(side, ast.Constant) and side.value is None):
                return _unwrap_optional(side)
    if isinstance(node, ast.Subscript) and (dotted(node.value) or "").split(".")[-1] == "Optional":
        return _unwrap_optional(node.slice)
    return node


def spec_from_annotation(
    node: ast.expr | None, name: str, facts: ModuleFacts, default_shape: Sequence[int]
) -> str | None:
    """`Float[Array, "8 128"]` -> `f32[8,128]`; `jax.Array` -> `f32[8]`; `int` -> `3`."""
    node = _annotation_text(node)
    if node is None:
        return None
    node = _unwrap_optional(node)
    shape_text = ",".join(str(d) for d in default_shape)
    if isinstance(node, ast.Subscript) and (dotted(node.value) or "") in (
        "list",
        "tuple",
        "List",
        "Tuple",
        "typing.List",
        "typing.Tuple",
        "Sequence",
    ):
        return _literal_sequence(node, default_shape)
    if isinstance(node, ast.Subscript):
        base = dotted(node.value) or ""
        short = base.split(".")[-1]
        resolved = facts.index.qualname(node.value) or base
        if short in JAXTYPING_DTYPES and (
            resolved.startswith("jaxtyping") or resolved == short or base == short
        ):
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            dims_node = parts[1] if len(parts) > 1 else None
            dims: list[str] = []
            if isinstance(dims_node, ast.Constant) and isinstance(dims_node.value, str):
                for token in dims_node.value.split():
                    token = token.strip()
                    if token in ("...", "#...") or token.startswith("*"):
                        continue
                    token = token.split("=")[-1].lstrip("#")
                    dims.append(
                        token if token.isdigit() else str(default_shape[0] if default_shape else 8)
                    )
            elif dims_node is not None:
                return None
            dtype = JAXTYPING_DTYPES[short]
            if dtype == "key":
                return "key" + (f"[{','.join(dims)}]" if dims else "")
            return f"{dtype}[{','.join(dims)}]"
        return None
    text = dotted(node)
    if text is None:
        return None
    resolved = facts.index.qualname(node) or text
    if text in SCALAR_ANNOTATIONS:
        return SCALAR_ANNOTATIONS[text]
    if text in ("list", "List", "typing.List", "Sequence"):  # a bare list: of floats
        size = default_shape[0] if default_shape else 3
        return "[" + ", ".join(f"{i + 1}.0" for i in range(size)) + "]"
    if resolved in KEY_ANNOTATIONS or text in KEY_ANNOTATIONS:
        return "key"
    if resolved in ARRAY_ANNOTATIONS or text in ARRAY_ANNOTATIONS:
        if KEY_NAMES.match(name):
            return "key"
        return f"f32[{shape_text}]"
    return None


def _literal_sequence(node: ast.Subscript, default_shape: Sequence[int]) -> str | None:
    """`list[float]` -> `[1.0, 2.0, ...]`; `list[list[float]]` -> a nested literal; `tuple[int, ...]`
    -> `(8,)` (a shape)."""
    size = default_shape[0] if default_shape else 3
    outer = (dotted(node.value) or "").split(".")[-1].lower()
    inner = node.slice
    if isinstance(inner, ast.Tuple):
        elts = [e for e in inner.elts if not (isinstance(e, ast.Constant) and e.value is Ellipsis)]
        if outer == "tuple" and elts and all(dotted(e) == "int" for e in elts):
            count = len(elts) if len(elts) == len(inner.elts) else 1
            return "(" + ", ".join(str(d) for d in (list(default_shape) * count)[:count]) + ",)"
        return None
    element = dotted(inner)
    if element in ("float", "int", "bool"):
        values = {
            "float": [f"{i + 1}.0" for i in range(size)],
            "int": [str(i + 1) for i in range(size)],
            "bool": ["True", "False"] * size,
        }[element][:size]
        text = ", ".join(values)
        return f"[{text}]" if outer != "tuple" else f"({text},)"
    if isinstance(inner, ast.Subscript):
        row = _literal_sequence(inner, default_shape[1:] or (3,))
        if row is not None:
            rows = ", ".join([row] * min(size, 4))
            return f"[{rows}]"
    return None


def guess_spec(name: str, default_shape: Sequence[int], *, static: bool = False) -> str:
    """A name-based guess (`--guess-inputs`); static parameters get a hashable Python value."""
    if KEY_NAMES.match(name) and not static:
        return "key"
    if BOOL_NAMES.match(name):
        return "True"
    if FLOAT_NAMES.match(name):
        return "0.5"
    if INT_NAMES.match(name) or static:
        return "3"
    return f"f32[{','.join(str(d) for d in default_shape)}]"


def infer_rank(fn: ast.AST, name: str) -> int | None:
    """The smallest rank the body of `fn` needs for array parameter `name`, from how it is used:
    `a, b = x.shape` (2), `x.shape[2]` (3+), `x[i, j]` / `x[i][j]` (2+), `x @ w`, `x.T`,
    `jnp.dot/matmul(x, w)` (2, and every dimension the same size, so contractions agree).
    None when nothing says (the default shape is kept)."""
    rank = 0

    def is_param(node: ast.AST) -> bool:
        return isinstance(node, ast.Name) and node.id == name

    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if (
                isinstance(target, ast.Tuple)
                and isinstance(value, ast.Attribute)
                and value.attr == "shape"
                and is_param(value.value)
                and not any(isinstance(e, ast.Starred) for e in target.elts)
            ):
                rank = max(rank, len(target.elts))
        elif isinstance(node, ast.Subscript):
            base, depth = node, 0
            while isinstance(base, ast.Subscript):
                index = base.slice
                depth += len(index.elts) if isinstance(index, ast.Tuple) else 1
                base = base.value  # type: ignore[assignment]
            if is_param(base) and not any(
                isinstance(e, ast.Constant) and e.value is Ellipsis for e in ast.walk(node)
            ):
                rank = max(rank, depth)
            if (
                isinstance(base, ast.Attribute)
                and base.attr == "shape"
                and is_param(base.value)
                and isinstance(node.slice, ast.Constant)
                and isinstance(node.slice.value, int)
                and node.slice.value >= 0
            ):
                rank = max(rank, node.slice.value + 1)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            if is_param(node.left) or is_param(node.right):
                rank = max(rank, 2)
            for side in (node.left, node.right):
                if isinstance(side, ast.Attribute) and side.attr == "T" and is_param(side.value):
                    rank = max(rank, 2)
        elif isinstance(node, ast.Attribute) and node.attr in ("T", "mT") and is_param(node.value):
            rank = max(rank, 2)
        elif isinstance(node, ast.Call):
            callee = dotted(node.func) or ""
            if callee.rpartition(".")[2] in ("dot", "matmul") and any(
                is_param(a) for a in node.args[:2]
            ):
                rank = max(rank, 2)
    return rank or None


def _split(text: str) -> list[str]:
    from jaxlint.runtime.toolbox.inputs import split_items

    return split_items(text)


def _config_path_matcher(settings: Settings, path: str) -> tuple[Path, Callable[[str], bool]]:
    """The resolved file, and whether the path part of a `[tool.jaxlint.verify]` key names it:
    a glob of its path relative to the project root or of its file name, or its path."""
    root = Path(settings.root or ".").resolve()
    file = Path(path).resolve()
    try:
        rel = file.relative_to(root).as_posix()
    except ValueError:
        rel = file.as_posix()

    def names_file(key_path: str) -> bool:
        return (
            fnmatch.fnmatch(rel, key_path)
            or fnmatch.fnmatch(file.name, key_path)
            or (root / key_path).resolve() == file
        )

    return file, names_file


def config_inputs(
    settings: Settings, path: str, function: str
) -> tuple[list[str] | dict[str, str] | None, str | None]:
    """`[tool.jaxlint.verify]` entry for `path::function`: positional items or a per-name table."""
    _, names_file = _config_path_matcher(settings, path)
    for key, value in settings.verify:
        if key in ("default-shape", "default_shape"):
            continue
        key_path, sep, key_fn = str(key).rpartition("::")
        if not sep:
            key_path, key_fn = "", str(key)
        if key_fn != function:
            continue
        if key_path and not names_file(key_path):
            continue
        where = f"[tool.jaxlint.verify] {key!r}"
        if isinstance(value, str):
            return _split(value), where
        if isinstance(value, list) and all(isinstance(v, (str, int, float, bool)) for v in value):
            return [str(v) for v in value], where
        if isinstance(value, dict):
            return {str(k): str(v) for k, v in value.items()}, where
        raise UsageError(f"{where}: expected a spec string, a list or a table")
    return None, None


def unmatched_config_entries(settings: Settings, path: str, tree: ast.Module) -> list[str]:
    """`[tool.jaxlint.verify]` keys aimed at this file (by path) whose function it does not
    define: a typo that would otherwise be ignored without a word."""
    import difflib

    defined: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defined.add(stmt.name)
        elif isinstance(stmt, ast.ClassDef):
            defined.add(stmt.name)
            for inner in stmt.body:
                if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defined.add(f"{stmt.name}.{inner.name}")
    file, names_file = _config_path_matcher(settings, path)
    out = []
    for key, _ in settings.verify:
        key_path, sep, key_fn = str(key).rpartition("::")
        if not sep or not key_path or key_fn in defined:
            continue  # bare function names may target any file
        if not names_file(key_path):
            continue
        close = difflib.get_close_matches(key_fn, sorted(defined), n=1)
        hint = f"; did you mean `{close[0]}`?" if close else ""
        out.append(f"[tool.jaxlint.verify] {key!r}: {file.name} has no function `{key_fn}`{hint}")
    return out


def default_shape(settings: Settings) -> tuple[int, ...]:
    for key, value in settings.verify:
        if key in ("default-shape", "default_shape"):
            if isinstance(value, list) and all(isinstance(v, int) and v >= 0 for v in value):
                return tuple(value)
            raise UsageError("[tool.jaxlint.verify] default-shape must be a list of integers")
    return DEFAULT_SHAPE


def _builds_self(qualname: str, items: list[str]) -> bool:
    """The first item builds the method's class (`=Layer(4)` for `Layer.__init__`): it is
    `self`, also when defaulted parameters are left out ("=Layer(4), 4" for
    `__init__(self, n, m=16)`; new-user review 4)."""
    owner = qualname.split(".")[-2] if "." in qualname else None
    return bool(items) and owner is not None and items[0].replace(" ", "").startswith(f"={owner}(")


def resolve_inputs(
    fn: ast.AST,
    qualname: str,
    path: str,
    settings: Settings,
    facts: ModuleFacts,
    options: InputOptions,
    skip_first: bool = False,
    static: Sequence[str] = (),
) -> tuple[list[tuple[str, str, str]], list[str]]:
    """[(param, spec, source)] for the positional parameters of `fn`, and the ones still missing.

    Parameters with defaults that no source covers are left out (the function's default is used);
    a required parameter that no source covers is reported as missing.
    """
    params = positional_params(fn)
    everything = [p.arg for p in params]
    if skip_first and params:
        params = params[1:]
    names = [p.arg for p in params]
    defaults = param_defaults(fn)
    shape = default_shape(settings)
    given: dict[str, tuple[str, str]] = {}

    def take(items: list[str] | dict[str, str] | None, where: str) -> None:
        if items is None:
            return
        if isinstance(items, dict):
            for k, v in items.items():
                if k in names:
                    given.setdefault(k, (v, where))
            return
        with_self = len(items) == len(everything) or _builds_self(qualname, items)
        if skip_first and everything and where != "guess" and with_self:
            # a method given `self` explicitly (e.g. "=Model(3), f32[8]")
            if everything[0] not in names:
                names.insert(0, everything[0])
            given.setdefault(everything[0], (items[0], where))
            items = items[1:]
            for name, item in zip(everything[1:], items):
                given.setdefault(name, (item, where))
            return
        for name, item in zip(names, items):
            given.setdefault(name, (item, where))

    cli_items: list[str] | None = None
    if options.args:
        applies = options.function is None or options.function == qualname
        if applies:
            items = _split(options.args)
            has_varargs = getattr(getattr(fn, "args", None), "vararg", None) is not None
            if options.function is not None and not has_varargs and len(items) > len(everything):
                takes = ", ".join(everything) if everything else "no parameters"
                raise UsageError(
                    f"--args has {len(items)} items but `{qualname}` takes "
                    f"{len(everything)} positional parameter{'s' if len(everything) != 1 else ''}"
                    f" ({takes})"
                )
            required = [n for n in names if n not in defaults]
            if options.function is not None or len(required) <= len(items) <= len(everything):
                cli_items = items
    take(cli_items, "--args")
    recorded = options.captured.get(qualname)
    if recorded:
        first = everything[0] if everything else None
        if skip_first and first is not None and recorded.get(first) and first not in names:
            names.insert(0, first)  # the recorded `self` of a method
        for name, spec in recorded.items():
            if spec is not None and name in names:
                given.setdefault(name, (spec, "capture"))
    for table_key in (f"{path}::{qualname}", qualname):
        if table_key in options.table:
            value = options.table[table_key]
            take(_split(value) if isinstance(value, str) else value, "table")
    items, where = config_inputs(settings, path, qualname)
    take(items, where or "config")
    for p in params:
        if p.arg in given:
            continue
        spec = spec_from_annotation(p.annotation, p.arg, facts, shape)
        if spec is not None:
            given[p.arg] = (spec, "annotation")
    out: list[tuple[str, str, str]] = []
    missing: list[str] = []
    for name in names:
        if name in given:
            spec, where = given[name]
            out.append((name, spec, where))
        elif name in defaults:
            continue
        elif options.guess:
            guessed = guess_spec(name, shape, static=name in static)
            rank = infer_rank(fn, name) if guessed.startswith("f32[") else None
            if rank is not None and rank != len(shape):
                size = shape[0] if shape else DEFAULT_SHAPE[0]
                guessed = f"f32[{','.join([str(size)] * rank)}]"
            out.append((name, guessed, "guess"))
        else:
            missing.append(name)
    return out, missing
