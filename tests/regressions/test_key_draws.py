"""JAX201's confidence on proven and unproven draws through callees (issues 23, 24;
analysis/flow/key_draws.py): one file per family of cases in `key_draws/`. A line marked
`# error: JAX201` is found at high confidence (both consumptions proven to draw); `# medium:
JAX201` at medium (a consumption that may draw nothing); both with --preview only (JAX201 is in
preview again since the v32 check set). Every other line stays silent in both modes."""

from __future__ import annotations

import pathlib
import re

import pytest

from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, lint_text

CASES = sorted((pathlib.Path(__file__).parent / "key_draws").glob("*.py"))
_MARK = re.compile(r"#\s*(error|medium):\s*JAX201")


def _marks(text: str) -> dict[int, str]:
    return {
        i: m.group(1)
        for i, line in enumerate(text.splitlines(), start=1)
        if (m := _MARK.search(line))
    }


def _found(text: str, name: str, preview: bool) -> dict[int, str]:
    settings = Settings(preview=preview)
    diags = lint_text(text, name, LintOptions(settings=settings))
    return {d.line: d.confidence for d in diags if d.code == "JAX201"}


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_confidence_follows_proven_draws(path):
    text = path.read_text(encoding="utf-8")
    marks = _marks(text)
    want = {line: "high" if kind == "error" else "medium" for line, kind in marks.items()}
    # JAX201 is in preview (since the v15 check set; its high level came back on v17, v19,
    # v21 and v30 and left again on v18, v20, v26 and v32): nothing by default
    assert _found(text, path.name, preview=False) == {}
    assert _found(text, path.name, preview=True) == want
