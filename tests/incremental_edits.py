"""Random small edits of a module's text, as a person makes them in an editor: for the
differential test of the editor's incremental lint (tests/test_incremental.py).

Each edit takes the text and a `random.Random` and returns a new text (or None when the text
offers no place for it); the result may not parse (as while typing), which is part of the test.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

Edit = Callable[[str, random.Random], "str | None"]

_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_DEF = re.compile(r"^(\s*)(?:async\s+)?def\s+(\w+)\s*\(")
_ASSIGNED = re.compile(r"^\s+([a-z_]\w*)\s*(?:,\s*[a-z_]\w*\s*)*=[^=]")
_DRAW = re.compile(r"^(\s+).*\b(?:random\.\w+|split|fold_in)\(")
_SPLIT = re.compile(r"\brandom\.split\(|\bsplit\(")
_CONSTANT = re.compile(r"^([A-Z_][A-Z0-9_]*)\s*=\s*(.+)$")
_DECORATOR = re.compile(r"^(\s*)@")
_SIMPLE = re.compile(r"^\s+[\w.\[\]\"', ]+\s*[-+*/]?=\s*[^\s].*[^:,(\[{\\]$")


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _join(lines: list[str]) -> str:
    return "\n".join(lines)


def _body_lines(lines: list[str]) -> list[int]:
    """Indices of indented code lines (inside a def or class), not continuation lines."""
    out = []
    depth = 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        if depth == 0 and line[:1] in (" ", "\t") and stripped and not stripped.startswith("#"):
            out.append(i)
        depth += line.count("(") + line.count("[") + line.count("{")
        depth -= line.count(")") + line.count("]") + line.count("}")
        depth = max(depth, 0)
    return out


def change_literal(text: str, rng: random.Random) -> str | None:
    found = list(_NUMBER.finditer(text))
    if not found:
        return None
    m = rng.choice(found)
    new = rng.choice(["0", "1", "2", "3", "7", "42", "0.5", "1e-3", "1000"])
    return text[: m.start()] + new + text[m.end() :]


def rename_local(text: str, rng: random.Random) -> str | None:
    lines = _lines(text)
    defs = [i for i, line in enumerate(lines) if _DEF.match(line)]
    if not defs:
        return None
    start = rng.choice(defs)
    indent = len(_DEF.match(lines[start]).group(1))  # type: ignore[union-attr]
    end = start + 1
    while end < len(lines) and (
        not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent
    ):
        end += 1
    names = [m.group(1) for i in range(start + 1, end) if (m := _ASSIGNED.match(lines[i]))]
    if not names:
        return None
    old = rng.choice(names)
    new = rng.choice([old + "_2", "tmp", "key", "params", "x"])
    pattern = re.compile(rf"(?<![\w.]){re.escape(old)}\b")
    for i in range(start, end):
        lines[i] = pattern.sub(new, lines[i])
    return _join(lines)


_INSERTED = [
    "{i}_unused = 0",
    "{i}print('here')",
    "{i}k_extra = jax.random.PRNGKey(0)",
    "{i}noise = jax.random.normal(key, (3,))",
    "{i}x = jnp.asarray(x)",
    "{i}pass",
    "{i}if x is None:",
    "{i}return x",
    "{i}value = float(jnp.sum(x))",
]


def insert_line(text: str, rng: random.Random) -> str | None:
    lines = _lines(text)
    body = _body_lines(lines)
    if not body:
        return None
    i = rng.choice(body)
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    lines.insert(i + rng.randint(0, 1), rng.choice(_INSERTED).format(i=indent))
    return _join(lines)


def delete_line(text: str, rng: random.Random) -> str | None:
    lines = _lines(text)
    body = [i for i in _body_lines(lines) if _SIMPLE.match(lines[i])]
    if not body:
        return None
    del lines[rng.choice(body)]
    return _join(lines)


def add_key_reuse(text: str, rng: random.Random) -> str | None:
    lines = _lines(text)
    draws = [i for i, line in enumerate(lines) if _DRAW.match(line) and line.rstrip()[-1:] == ")"]
    if not draws:
        return None
    i = rng.choice(draws)
    indent = _DRAW.match(lines[i]).group(1)  # type: ignore[union-attr]
    copy = lines[i].strip()
    if "=" in copy.split("(")[0]:
        copy = "again_" + copy.lstrip()
    lines.insert(i + 1, indent + copy)
    return _join(lines)


def remove_split(text: str, rng: random.Random) -> str | None:
    lines = _lines(text)
    splits = [i for i, line in enumerate(lines) if _SPLIT.search(line) and line[:1] == " "]
    if not splits:
        return None
    i = rng.choice(splits)
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    lines[i] = indent + "pass"
    return _join(lines)


def edit_constant(text: str, rng: random.Random) -> str | None:
    lines = _lines(text)
    constants = [i for i, line in enumerate(lines) if _CONSTANT.match(line)]
    if constants and rng.random() < 0.7:
        i = rng.choice(constants)
        name = _CONSTANT.match(lines[i]).group(1)  # type: ignore[union-attr]
        lines[i] = f"{name} = {rng.choice(['0', '1', '3.5', 'None', 'True', '(1, 2)', '[]'])}"
    else:  # a new module-level constant after the imports
        last_import = max(
            (i for i, line in enumerate(lines) if line.startswith(("import ", "from "))),
            default=-1,
        )
        lines.insert(last_import + 1, f"EDITED_{rng.randint(0, 9)} = {rng.randint(0, 99)}")
    return _join(lines)


_DECORATORS = [
    "@jax.jit",
    "@partial(jax.jit, static_argnums=(0,))",
    "@jax.vmap",
    "@functools.lru_cache",
    "@staticmethod",
]


def edit_decorator(text: str, rng: random.Random) -> str | None:
    lines = _lines(text)
    decorated = [i for i, line in enumerate(lines) if _DECORATOR.match(line)]
    defs = [i for i, line in enumerate(lines) if _DEF.match(line)]
    if decorated and rng.random() < 0.5:
        i = rng.choice(decorated)
        if rng.random() < 0.5:
            del lines[i]
        else:
            lines[i] = _DECORATOR.match(lines[i]).group(1) + rng.choice(_DECORATORS)[0:]  # type: ignore[union-attr]
            lines[i] = lines[i].replace("@@", "@")
        return _join(lines)
    if not defs:
        return None
    i = rng.choice(defs)
    indent = _DEF.match(lines[i]).group(1)  # type: ignore[union-attr]
    lines.insert(i, indent + rng.choice(_DECORATORS))
    return _join(lines)


def call_another(text: str, rng: random.Random) -> str | None:
    """A call of another top-level function from inside a body (links two definitions)."""
    lines = _lines(text)
    names = [m.group(2) for line in lines if (m := _DEF.match(line)) and not m.group(1)]
    body = _body_lines(lines)
    if not names or not body:
        return None
    i = rng.choice(body)
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    lines.insert(i, f"{indent}_r = {rng.choice(names)}(key, x)")
    return _join(lines)


def module_statement(text: str, rng: random.Random) -> str | None:
    """A module-level statement that acts on the whole module (x64 on, a call at import)."""
    lines = _lines(text)
    line = rng.choice(
        [
            'jax.config.update("jax_enable_x64", True)',
            "main()",
            'if __name__ == "__main__":\n    main()',
            "x = jnp.zeros((3,), dtype=jnp.float64)",
            "KEY = jax.random.PRNGKey(0)",
        ]
    )
    lines.insert(rng.randint(0, len(lines)), line)
    return _join(lines)


def type_character(text: str, rng: random.Random) -> str | None:
    """One character typed or deleted anywhere (the text may no longer parse)."""
    if not text:
        return None
    i = rng.randrange(len(text))
    if rng.random() < 0.5:
        return text[:i] + text[i + 1 :]
    return text[:i] + rng.choice("abx_0(:) \n") + text[i:]


EDITS: list[Edit] = [
    change_literal,
    rename_local,
    insert_line,
    delete_line,
    add_key_reuse,
    remove_split,
    edit_constant,
    edit_decorator,
    call_another,
    module_statement,
    type_character,
]
# how often each is drawn: the edits of a function body most, the module-wide ones least
WEIGHTS = [3, 3, 3, 2, 3, 2, 2, 2, 2, 1, 1]


def random_edit(text: str, rng: random.Random) -> str:
    """One random edit of `text` (tries others when one finds no place)."""
    for _ in range(20):
        edit = rng.choices(EDITS, WEIGHTS)[0]
        new = edit(text, rng)
        if new is not None and new != text:
            return new
    return text + "\n# edited\n"
