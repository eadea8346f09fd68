"""Static half of `jaxlint verify`: turn each finding into a job the sandboxed child can run.

Nothing here imports JAX or executes user code. For every diagnostic it works out, from the same
facts the linter used (`jaxlint.analysis`):

- which verifier kinds confirm it (`KIND_PLANS`, else the rule's `verifier`);
- the *entry*: how to reach the flagged line so that it runs the way JAX would run it: trace the
  function under our own `jax.jit` with the parameters the analysis found traced (a jitted
  function, a helper called from one, a scan body...), push it through `jax.jvp` (grad-only
  contexts), call it as plain Python (eager code, host loops, timing code), call a module-level
  name (`g = jax.jit(lambda ...)`), or execute the module's top-level statements (`module`);
- the example inputs of that entry, per parameter: `--args`, `[tool.jaxlint.verify]`, annotations
  (jaxtyping, `jax.Array` with `verify.default-shape`), defaults (omitted), and with `guess` a
  name-based guess; a parameter none of these covers makes the job `could-not-run`;
- the fixed source (this finding's own fix applied) and a line map, so each verifier can show that
  the fix removes the problem and keeps the results;
- kind-specific hints: dotted names for `import`, suspect parameters for `retrace-static`, whether
  the line prints (`execcount`), the pmapped name (`numeric` for JAX301).

A job is plain JSON; the child (`verify_runtime`) never re-runs the linter.
"""

from __future__ import annotations

import ast
import fnmatch
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.imports import FUNCTION_NODES, ancestors, dotted
from jaxlint.config import Settings
from jaxlint.diagnostic import Diagnostic
from jaxlint.errors import UsageError
from jaxlint.source import SourceText

# Verifier kinds per rule where RULES.md lists more than the rule's own `verifier` attribute.
# The first kind decides the verdict; SUPPLEMENTARY kinds only add evidence.
KIND_PLANS: dict[str, tuple[str, ...]] = {
    "JAX110": ("trace", "retrace-static"),
    "JAX120": ("trace", "retrace-static"),
    "JAX130": ("trace", "numeric"),
    "JAX201": ("keycheck", "draws"),
    "JAX501": ("trace", "numeric"),
    "JAX502": ("execcount", "leaks"),
    "JAX602": ("compiles", "bench"),
    "JAX802": ("import", "numeric"),
    "JAX803": ("import", "trace"),
}
ALL_KINDS = (
    "trace",
    "retrace-static",
    "compiles",
    "keycheck",
    "draws",
    "retrace-cmp",
    "execcount",
    "leaks",
    "bench",
    "lower",
    "transfers",
    "numeric",
    "dtype",
    "import",
)
KIND_ALIASES = {"numerics": "numeric", "prng": "draws", "retrace": "retrace-cmp"}
# Kinds that never decide a verdict on their own when another kind comes first.
SUPPLEMENTARY = {"retrace-static", "numeric"}
DEVICES = 8

DEFAULT_SHAPE = (8,)
KEY_NAMES = re.compile(r"^(key|rng|prng|subkey|sub_key|rng_key|prng_key|keys|.*_key|key_.*)$")
INT_NAMES = re.compile(
    r"^(n|m|k|i|j|t|size|num|count|steps?|length|len|idx|index|axis|dim|start|stop|seed|"
    r"epochs?|iters?|iterations?|repeats?|rounds?|times|"
    r"n_.*|num_.*|.*_size|.*_len|.*_steps?)$"
)
BOOL_NAMES = re.compile(r"^(flag|training|train|is_.*|use_.*|deterministic|verbose|debug)$")
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
CLOCKS = {
    "time.perf_counter",
    "time.perf_counter_ns",
    "time.time",
    "time.time_ns",
    "time.monotonic",
    "time.monotonic_ns",
    "time.process_time",
    "timeit.default_timer",
}


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


# --------------------------------------------------------------------------- helpers


def kinds_for(rule: Any) -> tuple[str, ...]:
    """Verifier kinds for a rule class: the RULES.md plan, else its `verifier` split on `+`/`,`."""
    code = getattr(rule, "code", "")
    if code in KIND_PLANS:
        return KIND_PLANS[code]
    raw = getattr(rule, "verifier", None)
    if not raw:
        return ()
    kinds = []
    for part in re.split(r"[+,]", str(raw)):
        part = part.strip().lower()
        part = KIND_ALIASES.get(part, part)
        if part:
            kinds.append(part)
    return tuple(kinds)


def _qual(fn: ast.AST, tree: ast.Module) -> str | None:
    """`name` or `Class.name` for a module-level def (or a method of a module-level class)."""
    parent = getattr(fn, "jl_parent", None)
    name = getattr(fn, "name", None)
    if name is None:
        return None
    if parent is tree:
        return name
    if isinstance(parent, ast.ClassDef) and getattr(parent, "jl_parent", None) is tree:
        return f"{parent.name}.{name}"
    return None


def _positional(fn: ast.AST) -> list[ast.arg]:
    args = fn.args  # type: ignore[attr-defined]
    return [*args.posonlyargs, *args.args]


def _defaults(fn: ast.AST) -> dict[str, ast.expr]:
    args = fn.args  # type: ignore[attr-defined]
    positional = _positional(fn)
    out = dict(
        zip([a.arg for a in positional[len(positional) - len(args.defaults) :]], args.defaults)
    )
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        if d is not None:
            out[a.arg] = d
    return out


def _is_method(fn: ast.AST) -> bool:
    return isinstance(getattr(fn, "jl_parent", None), ast.ClassDef)


def _stmt_of(node: ast.AST) -> ast.stmt | None:
    cur: ast.AST | None = node
    while cur is not None and not isinstance(cur, ast.stmt):
        cur = getattr(cur, "jl_parent", None)
    return cur  # type: ignore[return-value]


def _header_lines(stmt: ast.stmt) -> tuple[int, int]:
    """Lines of a statement, or of a compound statement's header only."""
    body = getattr(stmt, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.AST):
        first = min(
            [getattr(d, "lineno", stmt.lineno) for d in getattr(stmt, "decorator_list", [])]
            + [stmt.lineno]
        )
        return first, max(first, body[0].lineno - 1)
    return stmt.lineno, getattr(stmt, "end_lineno", stmt.lineno) or stmt.lineno


class Located:
    """The AST node a diagnostic points at, and its surroundings."""

    def __init__(self, tree: ast.Module, source: SourceText, diag: Diagnostic) -> None:
        self.tree = tree
        self.node = _find_node(tree, source, diag)
        self.stmt = _stmt_of(self.node) if self.node is not None else None
        start, end = diag.span.start.line, max(diag.span.end.line, diag.span.start.line)
        lines = set(range(start, end + 1))
        if self.stmt is not None:
            a, b = _header_lines(self.stmt)
            if a <= start <= b:
                lines |= set(range(a, b + 1))
        self.lines = sorted(lines)
        self.functions = _enclosing_functions(self.node) if self.node is not None else []


def _enclosing_functions(node: ast.AST) -> list[ast.AST]:
    """Functions whose *body* holds `node`, innermost first (decorators and defaults run outside)."""
    out = []
    child = node
    for parent in ancestors(node):
        if isinstance(parent, FUNCTION_NODES):
            body = parent.body if isinstance(parent.body, list) else [parent.body]
            if any(child is b for b in body):
                out.append(parent)
        child = parent
    return out


def _find_node(tree: ast.Module, source: SourceText, diag: Diagnostic) -> ast.AST | None:
    """Smallest node whose span covers the diagnostic's span (exact match preferred)."""
    want_start = (diag.span.start.line, diag.span.start.col)
    want_end = (diag.span.end.line, diag.span.end.col)
    best: ast.AST | None = None
    best_size: tuple[int, int] | None = None
    for node in ast.walk(tree):
        if not hasattr(node, "lineno") or getattr(node, "end_lineno", None) is None:
            continue
        start = (node.lineno, source.col_from_utf8(node.lineno, node.col_offset))
        end = (node.end_lineno, source.col_from_utf8(node.end_lineno, node.end_col_offset))
        if start <= want_start and want_end <= end:
            size = (end[0] - start[0], (end[1] - start[1]) if end[0] == start[0] else 10**6)
            exact = start == want_start and end == want_end
            if exact and isinstance(node, ast.expr):
                size = (-1, 0)
            if best_size is None or size < best_size:
                best, best_size = node, size
    if best is None:  # fall back to the statement on the line
        for node in ast.walk(tree):
            if isinstance(node, ast.stmt) and node.lineno == diag.line:
                return node
    return best


def line_map(source: SourceText, edits: Sequence[Any]) -> list[int]:
    """`map[L]` = line of original line L in the text with `edits` applied (index 0 unused)."""
    count = source.line_count
    result = [0] * (count + 2)
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    for line in range(1, count + 2):
        text = source.line(line)
        first = len(text) - len(text.lstrip())
        pos = (line, first)
        shift = 0
        inside = None
        for e in ordered:
            s, t = (e.start.line, e.start.col), (e.end.line, e.end.col)
            delta = e.content.count("\n") - (e.end.line - e.start.line)
            if t <= pos and s < pos or (s == t == pos and e.content.endswith("\n")):
                shift += delta
            elif s <= pos < t:
                inside = e.start.line + shift
        result[line] = inside if inside is not None else line + shift
    return result


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
    from jaxlint.runtime_checks.inputs import split_items

    return split_items(text)


def config_inputs(
    settings: Settings, path: str, function: str
) -> tuple[list[str] | dict[str, str] | None, str | None]:
    """`[tool.jaxlint.verify]` entry for `path::function`: positional items or a per-name table."""
    root = Path(settings.root or ".").resolve()
    file = Path(path).resolve()
    try:
        rel = file.relative_to(root).as_posix()
    except ValueError:
        rel = file.as_posix()
    for key, value in settings.verify:
        if key in ("default-shape", "default_shape"):
            continue
        key_path, sep, key_fn = str(key).rpartition("::")
        if not sep:
            key_path, key_fn = "", str(key)
        if key_fn != function:
            continue
        if key_path and not (
            fnmatch.fnmatch(rel, key_path)
            or fnmatch.fnmatch(file.name, key_path)
            or (root / key_path).resolve() == file
        ):
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
    root = Path(settings.root or ".").resolve()
    file = Path(path).resolve()
    try:
        rel = file.relative_to(root).as_posix()
    except ValueError:
        rel = file.as_posix()
    out = []
    for key, _ in settings.verify:
        key_path, sep, key_fn = str(key).rpartition("::")
        if not sep or not key_path or key_fn in defined:
            continue  # bare function names may target any file
        if not (
            fnmatch.fnmatch(rel, key_path)
            or fnmatch.fnmatch(file.name, key_path)
            or (root / key_path).resolve() == file
        ):
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
    params = _positional(fn)
    everything = [p.arg for p in params]
    if skip_first and params:
        params = params[1:]
    names = [p.arg for p in params]
    defaults = _defaults(fn)
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
        if skip_first and everything and len(items) == len(everything) and where != "guess":
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


# --------------------------------------------------------------------------- entries


@dataclass
class Candidate:
    mode: str  # jit | grad | call | attr | module
    node: ast.AST | None = None  # the def (or lambda) whose parameters get the inputs
    qualname: str | None = None  # module attribute to fetch
    static: tuple[str, ...] = ()
    via: str | None = None
    note: str = ""
    then: ast.AST | None = None  # factory: call the entry, then call what it returns (this def)


def _callers(tree: ast.Module, subject: ast.AST, facts: ModuleFacts) -> list[ast.AST]:
    """Module-level defs that mention `subject` by name (call it or hand it to a transform)."""
    name = getattr(subject, "name", None)
    if not name:
        return []
    out = []
    for stmt in tree.body:
        defs = [stmt] if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        if isinstance(stmt, ast.ClassDef):
            continue
        for d in defs:
            if d is subject:
                continue
            for sub in ast.walk(d):
                if isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Load):
                    if facts.index.resolve_function(sub) is subject:
                        out.append(d)
                        break
    return out


def _mode_for(fn: ast.AST, facts: ModuleFacts, extra_static: Sequence[str]) -> Candidate:
    info = facts.function_facts(fn)
    if info is not None and info.is_jit:
        params = [a.arg for a in _positional(fn)]
        kwonly = [a.arg for a in fn.args.kwonlyargs]  # type: ignore[attr-defined]
        static = [p for p in (*params, *kwonly) if p not in info.traced_params]
        if _is_method(fn) and params:
            static = [p for p in static if p != params[0]]
        static += [s for s in extra_static if s not in static]
        return Candidate("jit", fn, static=tuple(static), via=info.via, note=info.describe())
    if info is not None and info.is_grad:
        params = [a.arg for a in _positional(fn)]
        static = [p for p in params if p not in info.traced_params]
        static += [s for s in extra_static if s not in static]
        return Candidate("grad", fn, static=tuple(static), via=info.via, note=info.describe())
    return Candidate("call", fn, static=tuple(extra_static))


def _module_lambda_target(fn: ast.Lambda, tree: ast.Module) -> str | None:
    """`g = jax.jit(lambda x: ...)` at module level -> `g`."""
    stmt = _stmt_of(fn)
    if (
        isinstance(stmt, ast.Assign)
        and getattr(stmt, "jl_parent", None) is tree
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ):
        return stmt.targets[0].id
    return None


def candidates_for(
    loc: Located, facts: ModuleFacts, kinds: Sequence[str], extra_static: Sequence[str]
) -> list[Candidate]:
    tree = loc.tree
    if not loc.functions:
        return [Candidate("module", note="module-level code")]
    outer = loc.functions[-1]
    if isinstance(outer, ast.Lambda):
        target = _module_lambda_target(outer, tree)
        traced = facts.function_facts(outer) is not None
        if target is not None and loc.functions[0] is outer and traced:
            info = facts.function_facts(outer)
            return [
                Candidate("attr", outer, qualname=target, note=info.describe() if info else ""),
                Candidate("module", note="module-level code"),
            ]
        return [Candidate("module", note="module-level code")]
    # the outermost def reachable by name: module-level def or method of a module-level class
    tops = [f for f in loc.functions if _qual(f, tree) is not None]
    if not tops:
        return [Candidate("module", note="module-level code")]
    top = tops[-1]
    subject = loc.functions[0]
    first = _mode_for(top, facts, extra_static)
    first.qualname = _qual(top, tree)
    out = [first]
    if subject is top:
        info = facts.function_facts(top)
        callers: list[ast.AST] = []
        if info is not None and info.chain:
            for name in info.chain[:-1]:
                for stmt in tree.body:
                    if getattr(stmt, "name", None) == name and stmt is not top:
                        callers.append(stmt)
        callers += [c for c in _callers(tree, top, facts) if c not in callers]
        via_callers = []
        for caller in callers:
            cand = _mode_for(caller, facts, ())
            cand.qualname = _qual(caller, tree)
            if cand.qualname:
                cand.note = f"through its caller `{cand.qualname}`"
                via_callers.append(cand)
        # a scan/fori/while body or cond branch gets its inputs from the function that loops
        if info is not None and info.via.startswith(CONTROL_FLOW_PREFIXES) and not info.chain:
            return via_callers + out
        return out + via_callers
    if first.mode == "call":
        product = _returned_def(top, facts)
        if product is not None:
            first.then = product
    return out


CONTROL_FLOW_PREFIXES = (
    "jax.lax.",
    "flax.nnx.scan",
    "flax.nnx.fori_loop",
    "flax.nnx.while_loop",
    "flax.nnx.cond",
    "flax.nnx.switch",
)


def capture_targets(
    path: str, source: SourceText | str, diags: Iterable[Diagnostic], settings: Settings
) -> list[str]:
    """Qualnames whose real inputs `--capture-*` should record: every entry candidate of every
    finding (the function around it and the callers that reach it)."""
    source = source if isinstance(source, SourceText) else SourceText(source)
    tree = ast.parse(source.text)
    facts = ModuleFacts(tree, settings.jit_decorators)
    facts.index  # noqa: B018 - sets parent links
    out: list[str] = []
    for diag in diags:
        loc = Located(tree, source, diag)
        for cand in candidates_for(loc, facts, ("trace",), ()):
            if cand.qualname and cand.qualname not in out:
                out.append(cand.qualname)
    return out


def _returned_def(top: ast.AST, facts: ModuleFacts) -> ast.AST | None:
    """A nested def that `top` returns by name (a factory such as `make_step()`)."""
    for stmt in ast.walk(top):
        if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name):
            fn = facts.index.resolve_function(stmt.value)
            if fn is not None and fn is not top and not isinstance(fn, ast.Lambda):
                return fn
    return None


# --------------------------------------------------------------------------- kind hints


def _names_at(loc: Located, facts: ModuleFacts) -> tuple[list[str], list[str]]:
    """Dotted JAX names used at the finding (for `import`), and config options it names."""
    if loc.node is None:
        return [], []
    return _names_in([loc.node], facts.index, loc.tree)


def _names_in(
    roots: Sequence[ast.AST], index: Any, tree: ast.Module, *, unique: bool = True
) -> tuple[list[str], list[str]]:
    names: list[str] = []
    options: list[str] = []
    for root in roots:
        for sub in ast.walk(root):
            if isinstance(sub, ast.ImportFrom) and sub.module and not sub.level:
                for alias in sub.names:
                    if alias.name != "*":
                        names.append(f"{sub.module}.{alias.name}")
            elif isinstance(sub, ast.Import):
                for alias in sub.names:
                    names.append(alias.name)
                    if alias.asname:  # `import a.b as m`: what the file reads through `m`
                        names += _alias_uses(tree, alias.asname, alias.name)
            elif isinstance(sub, (ast.Attribute, ast.Name)):
                parent = getattr(sub, "jl_parent", None)
                if isinstance(parent, ast.Attribute) and parent.value is sub:
                    continue
                q = index.qualname(sub)
                if q and (q == "jax" or q.startswith(("jax.", "jaxlib.", "flax.", "equinox."))):
                    names.append(q)
            elif isinstance(sub, ast.Call):
                q = index.qualname(sub.func) or ""
                if q.endswith("config.update") and sub.args:
                    first = sub.args[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        options.append(first.value)
            elif isinstance(sub, ast.Subscript) and (index.qualname(sub.value) or "") in (
                "os.environ",
            ):
                key = sub.slice
                if isinstance(key, ast.Constant) and str(key.value).startswith("JAX_"):
                    options.append(str(key.value).lower())
    # the name itself at a bare reference: prefer the longest (most specific) names
    longest = [n for n in names if not any(o != n and o.startswith(n + ".") for o in names)]
    if not unique:
        return longest, options
    return list(dict.fromkeys(longest)), list(dict.fromkeys(options))


def _line_names(text: str, lines: Sequence[int], *, unique: bool = True) -> list[str]:
    """JAX names and config options used by the statements on `lines` of `text`."""
    from jaxlint.analysis.imports import ModuleIndex

    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    index = ModuleIndex(tree)
    wanted = set(lines)
    roots = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.stmt)
        and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and wanted & set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        and not any(isinstance(c, ast.stmt) for c in ast.iter_child_nodes(node))
    ]
    roots += [
        node
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and wanted & {node.lineno}
    ]
    headers = []
    for node in roots:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            headers += [
                *node.decorator_list,
                *[a.annotation for a in node.args.args if a.annotation],
            ]
            if node.returns is not None:
                headers.append(node.returns)
        else:
            headers.append(node)
    names, options = _names_in(headers, index, tree, unique=unique)
    return names + options


def _alias_uses(tree: ast.Module, alias: str, module: str) -> list[str]:
    """`m.attr` reads anywhere in the module for `import module as m` -> `module.attr`."""
    out = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == alias
        ):
            out.append(f"{module}.{node.attr}")
    return list(dict.fromkeys(out))


def _suspects(loc: Located, fn: ast.AST | None) -> list[str]:
    if fn is None or loc.node is None:
        return []
    params = {a.arg for a in _positional(fn)} | {a.arg for a in fn.args.kwonlyargs}  # type: ignore[attr-defined]
    found = []
    node = loc.node
    if isinstance(node, (ast.If, ast.While)):
        node = node.test
    elif isinstance(node, ast.For):
        node = node.iter
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in params and sub.id not in found:
            found.append(sub.id)
    return found


def _prints(loc: Located, facts: ModuleFacts) -> bool:
    node = loc.node
    calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)] if node is not None else []
    return any(facts.index.qualname(c.func) == "print" for c in calls)


def _pmap_target(loc: Located, tree: ast.Module) -> str | None:
    """The module-level name a flagged `pmap` produces: the decorated def or assigned name."""
    node = loc.node
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _qual(node, tree)
    if (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
    ):
        return node.targets[0].id
    cur = node
    while cur is not None and getattr(cur, "jl_parent", None) is not None:
        parent = cur.jl_parent  # type: ignore[attr-defined]
        if (
            isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef))
            and cur in parent.decorator_list
        ):
            return _qual(parent, tree)
        if isinstance(parent, ast.Assign) and getattr(parent, "jl_parent", None) is tree:
            target = parent.targets[0]
            return target.id if isinstance(target, ast.Name) else None
        if isinstance(parent, ast.stmt):
            return None
        cur = parent
    return None


def _axis_name(loc: Located) -> str | None:
    """`axis_name=` of the flagged pmap (the call around the flagged name, or inside it)."""
    node = loc.node
    roots = [node] if node is not None else []
    cur = node
    while cur is not None and not isinstance(cur, ast.stmt):
        cur = getattr(cur, "jl_parent", None)
        if isinstance(cur, ast.Call):
            roots.append(cur)
    for root in roots:
        for sub in ast.walk(root):
            if isinstance(sub, ast.Call):
                for kw in sub.keywords:
                    if kw.arg == "axis_name" and isinstance(kw.value, ast.Constant):
                        return str(kw.value.value)
    return None


def _entry_dict(cand: Candidate, inputs: list[tuple[str, str, str]]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "mode": cand.mode,
        "function": cand.qualname,
        "static": list(cand.static),
        "inputs": [list(t) for t in inputs],
        "via": cand.via,
        "note": cand.note,
    }
    if cand.node is not None:
        params = [a.arg for a in _positional(cand.node)]
        self_given = bool(inputs) and params[:1] == [inputs[0][0]]
        if (
            cand.mode != "attr"
            and not isinstance(cand.node, ast.Lambda)
            and _is_method(cand.node)
            and not self_given
        ):
            params = params[1:]
        entry["params"] = params
    return entry


def _module_globals(loc: Located, facts: ModuleFacts, tree: ast.Module) -> list[str]:
    """Module-level variables (assigned, not defs or imports) read at the finding."""
    if loc.node is None:
        return []
    module_scope = facts.index.scopes.get(tree)
    out = []
    for sub in ast.walk(loc.node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and module_scope is not None:
            found = facts.index.lookup(sub.id, facts.index.scope_of(sub))
            bindings = module_scope.bindings.get(sub.id) or []
            if found and found is bindings and all(b.kind in ("assign", "local") for b in bindings):
                if sub.id not in out:
                    out.append(sub.id)
    return out


def _pmap_function(loc: Located, tree: ast.Module, target: str | None) -> ast.AST | None:
    """The def a flagged pmap maps: the decorated def, or `f` in `g = pmap(f)`."""
    if target is None:
        return None
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == target:
            return stmt
    node = loc.node
    call = node if isinstance(node, ast.Call) else None
    parent = getattr(node, "jl_parent", None)
    if call is None and isinstance(parent, ast.Call) and parent.func is node:
        call = parent
    if call is None:
        for sub in ast.walk(node) if node is not None else []:
            if isinstance(sub, ast.Call):
                call = sub
                break
    if call is not None and call.args and isinstance(call.args[0], ast.Name):
        for stmt in tree.body:
            if (
                isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                and stmt.name == call.args[0].id
            ):
                return stmt
    return None


# --------------------------------------------------------------------------- planning


def _edit_list(edits: Sequence[Any]) -> list[list[Any]]:
    return [[e.start.line, e.start.col, e.end.line, e.end.col, e.content] for e in edits]


def apply_edits(text: str, edits: Sequence[Sequence[Any]]) -> tuple[str, list[int]]:
    """(new text, line map) for edits given as [start line, start col, end line, end col, text]."""
    from jaxlint.diagnostic import Edit, Position

    source = SourceText(text)
    objs = [Edit(Position(a, b), Position(c, d), content) for a, b, c, d, content in edits]
    return source.apply(objs), line_map(source, objs)


def line_map_between(before: str, after: str) -> list[int]:
    """`map[L]` = the line of `after` that line L of `before` became (difflib on lines); a line
    that was rewritten maps to the start of its replacement."""
    import difflib

    a, b = before.splitlines(), after.splitlines()
    result = list(range(len(a) + 2))
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for k in range(i1, i2):
            if tag == "equal":
                result[k + 1] = j1 + (k - i1) + 1
            else:
                result[k + 1] = min(j1 + (k - i1), max(j2 - 1, j1)) + 1
    result[len(a) + 1] = len(b) + 1
    return result


def _source_mentions_devices(text: str) -> bool:
    return any(word in text for word in DEVICE_WORDS)


DEVICE_WORDS = (
    "pmap",
    "shard_map",
    "make_mesh",
    "Mesh(",
    "mesh",
    "pjit",
    "device_put_replicated",
    "device_put_sharded",
    "PositionalSharding",
    "NamedSharding",
)


def plan_file(
    path: str,
    source: SourceText | str,
    diags: Iterable[Diagnostic],
    settings: Settings,
    rules: dict[str, Any],
    options: InputOptions | None = None,
    *,
    with_fixes: bool = True,
    context: Iterable[Diagnostic] | None = None,
) -> list[dict[str, Any]]:
    """One job per diagnostic (the caller filters by function first); `context` is every finding
    of the file, so a check stopped by one outside the selection can say so."""
    options = options or InputOptions()
    source = source if isinstance(source, SourceText) else SourceText(source)
    tree = ast.parse(source.text)
    facts = ModuleFacts(tree, settings.jit_decorators)
    facts.index  # noqa: B018 - sets parent links
    facts.taint  # noqa: B018 - helper propagation
    diags = list(diags)
    abspath = str(Path(path).resolve())
    others = [
        {
            "code": d.code,
            "line": d.line,
            "edits": _edit_list(d.fix.edits) if d.fix is not None and d.fix.edits else None,
        }
        for d in (list(context) if context is not None else diags)
    ]
    return [
        plan_one(
            i,
            abspath,
            path,
            source,
            tree,
            facts,
            diag,
            settings,
            rules,
            options,
            others,
            with_fixes,
        )
        for i, diag in enumerate(diags)
    ]


def function_of(diag: Diagnostic, tree: ast.Module, source: SourceText) -> str | None:
    """`name` / `Class.name` of the outermost named function around a diagnostic."""
    loc = Located(tree, source, diag)
    tops = [f for f in loc.functions if _qual(f, tree) is not None]
    return _qual(tops[-1], tree) if tops else None


def _loop_lines(loc: Located) -> list[int] | None:
    """Body lines of the innermost loop around the finding, inside the same function."""
    node = loc.node
    if node is None:
        return None
    for parent in ancestors(node):
        if isinstance(parent, FUNCTION_NODES):
            return None
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)) and parent.body:
            first = parent.body[0].lineno
            last = max((getattr(b, "end_lineno", None) or b.lineno) for b in parent.body)
            if first <= loc.lines[0] <= last:
                return [first, last]
    return None


def _call_hint(loc: Located, facts: ModuleFacts) -> dict[str, Any] | None:
    """The function called at the finding and which arguments its statement reassigns
    (`params = step(params, g)` -> donate 0)."""
    node = loc.node
    calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)] if node is not None else []
    if not calls:
        return None
    call = calls[0]
    callee = dotted(call.func)
    if callee is None:
        return None
    targets: set[str] = set()
    stmt = loc.stmt
    if isinstance(stmt, ast.Assign):
        for t in stmt.targets:
            for sub in ast.walk(t):
                if isinstance(sub, ast.Name):
                    targets.add(sub.id)
    donate = [i for i, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id in targets]
    return {"callee": callee, "donate": donate, "line": call.lineno}


def _sharded_name(loc: Located, tree: ast.Module) -> tuple[str | None, ast.AST | None]:
    """The module-level name under which the function around the finding is shard_mapped/pmapped:
    the decorated def itself, or `name = shard_map(fn, ...)`."""
    tops = [f for f in loc.functions if _qual(f, tree) is not None]
    if not tops:
        return None, None
    top = tops[-1]
    if getattr(top, "decorator_list", None):
        return _qual(top, tree), top
    name = getattr(top, "name", None)
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            if any(isinstance(sub, ast.Name) and sub.id == name for sub in ast.walk(stmt.value)):
                return stmt.targets[0].id, top
    return None, None


def plan_one(
    index: int,
    abspath: str,
    display: str,
    source: SourceText,
    tree: ast.Module,
    facts: ModuleFacts,
    diag: Diagnostic,
    settings: Settings,
    rules: dict[str, Any],
    options: InputOptions,
    others: list[dict[str, Any]],
    with_fixes: bool = True,
) -> dict[str, Any]:
    rule = rules.get(diag.code)
    loc = Located(tree, source, diag)
    kinds = kinds_for(rule) if rule is not None else ()
    tops = [f for f in loc.functions if _qual(f, tree) is not None]
    job: dict[str, Any] = {
        "id": index,
        "code": diag.code,
        "name": diag.name,
        "message": diag.message,
        "line": diag.line,
        "col": diag.col,
        "end_line": diag.span.end.line,
        "lines": loc.lines,
        "loop_lines": _loop_lines(loc),
        "kinds": list(kinds),
        "file": abspath,
        "display": display,
        "source": source.text,
        "function": _qual(tops[-1], tree) if tops else None,
        "others": others,
        "entry": None,
        "error": None,
        "devices": DEVICES if _source_mentions_devices(source.text) else None,
    }
    unknown = [k for k in kinds if k not in ALL_KINDS]
    if not kinds:
        reason = "the rule has no runtime verifier"
        if rule is not None and getattr(rule, "verifier", None) is None:
            reason += " (see docs/rules.md)"
        job["error"] = reason
        return job
    if unknown:
        job["error"] = f"unknown verifier kind(s) {', '.join(unknown)}"
        return job

    def inputs_for(
        fn: ast.AST, qualname: str, mode: str, static: Sequence[str]
    ) -> tuple[list[tuple[str, str, str]], list[str]]:
        skip_first = mode != "attr" and not isinstance(fn, ast.Lambda) and _is_method(fn)
        return resolve_inputs(
            fn, qualname, display, settings, facts, options, skip_first=skip_first, static=static
        )

    def missing_message(where: str, missing: list[str]) -> str:
        spec_hint = ", ".join(f"<{m}>" for m in missing)
        plural = len(missing) > 1
        return (
            f"parameter{'s' if plural else ''} {', '.join(f'`{m}`' for m in missing)} of `{where}` "
            f'need{"" if plural else "s"} an input: pass `{display}::{where} --args "{spec_hint}"`, '
            f'add an annotation, or set [tool.jaxlint.verify] "{Path(display).name}::{where}" = "..."'
        )

    # entry and its inputs: the first candidate whose inputs are all known
    missing_note = None
    chosen: Candidate | None = None
    inputs: list[tuple[str, str, str]] = []
    then: dict[str, Any] | None = None
    for cand in candidates_for(loc, facts, kinds, options.static):
        if cand.mode == "module":
            chosen, inputs = cand, []
            break
        got, missing = inputs_for(cand.node, cand.qualname or "", cand.mode, cand.static)
        then = None
        if not missing and cand.then is not None:
            inner = _mode_for(cand.then, facts, options.static)
            inner_name = f"{cand.qualname}.{getattr(cand.then, 'name', 'inner')}"
            more, missing = inputs_for(cand.then, inner_name, inner.mode, inner.static)
            if not missing:
                then = _entry_dict(inner, more)
                then["function"] = inner_name
            else:
                cand_where = inner_name
        else:
            cand_where = cand.qualname or "the function"
        if missing:
            if missing_note is None:
                missing_note = missing_message(cand_where, missing)
            continue
        chosen, inputs = cand, got
        break
    if chosen is None:
        # kinds that need no entry (e.g. `import` of a removed name) can still run
        job["entry_error"] = missing_note or "no way to run the flagged code was found"
    else:
        job["entry"] = _entry_dict(chosen, inputs)
        if then is not None:
            job["entry"]["then"] = then
        job["guessed"] = any(src == "guess" for _, _, src in inputs) or bool(
            then and any(src == "guess" for _, _, src in then["inputs"])
        )
    # kind hints
    if "import" in kinds:
        job["names"], job["config_options"] = _names_at(loc, facts)
    if "retrace-static" in kinds:
        job["suspects"] = _suspects(loc, chosen.node if chosen else None)
    if "execcount" in kinds:
        job["prints"] = _prints(loc, facts)
    if "numeric" in kinds:
        job["globals"] = _module_globals(loc, facts, tree)
    if "lower" in kinds:
        job["call"] = _call_hint(loc, facts)
    if diag.code == "JAX301":
        target = _pmap_target(loc, tree)
        job["pmap_target"] = target
        job["axis_name"] = _axis_name(loc)
        pmap_fn = _pmap_function(loc, tree, target)
        if target and pmap_fn is not None:
            got, missing = inputs_for(pmap_fn, target, "attr", ())
            if not missing:
                job["pmap_entry"] = _entry_dict(Candidate("attr", pmap_fn, qualname=target), got)
            else:
                job["entry_error"] = missing_message(target, missing)
    if diag.code == "JAX303":
        name, fn = _sharded_name(loc, tree)
        if name and fn is not None:
            got, missing = inputs_for(fn, name, "attr", ())
            if not missing:
                job["sharded_entry"] = _entry_dict(Candidate("attr", fn, qualname=name), got)
            else:
                job["entry_error"] = missing_message(name, missing)
    # this finding's own fix, applied alone
    if with_fixes and diag.fix is not None and diag.fix.edits:
        edits = _edit_list(diag.fix.edits)
        fixed_text, _ = apply_edits(source.text, edits)
        try:
            ast.parse(fixed_text)
        except SyntaxError:
            fixed_text = None
        if fixed_text is not None and fixed_text != source.text:
            job["fix"] = {"edits": edits, "safety": diag.fix.safety, "message": diag.fix.message}
            if "import" in kinds and (job.get("names") or job.get("config_options")):
                _, mapping = apply_edits(source.text, edits)
                deleted = {
                    line
                    for a, b, c, d, content in edits
                    if not content.strip() and b == 0 and (d == 0 or c > a)
                    for line in range(a, c if d == 0 else c + 1)
                }
                kept_lines = [n for n in loc.lines if n not in deleted and n < len(mapping)]
                before = Counter(_line_names(source.text, loc.lines, unique=False))
                after = Counter(
                    _line_names(fixed_text, [mapping[n] for n in kept_lines], unique=False)
                )
                job["fix"]["names_kept"] = [
                    n
                    for n in job.get("names", []) + job.get("config_options", [])
                    if after[n] >= before[n] > 0
                ]
                job["fix"]["names_added"] = [n for n in after if after[n] > before[n] and "." in n]
    return job
