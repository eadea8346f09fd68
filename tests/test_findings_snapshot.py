"""The findings snapshot: every rule over every piece of code the project owns.

Sources: the regression cases (`tests/regressions/cases/`, `tests/regressions/realworld/`), every rule example (invalid, valid and
the "before" side of each fix), the templates and `examples/`. Each is linted with every rule
selected (opt-in rules included), and the findings (code, line, column, message, fix applicability)
are compared with `tests/snapshots/findings.json`.

Why: refactors (moving rules, sharing helpers, the flow walker) must not change what users see
without someone noticing. A change to this file's JSON is reviewed in the commit that makes it:
say in the message which findings changed and why.

Update after a deliberate change:

    JAXLINT_UPDATE_SNAPSHOT=1 python -m pytest tests/test_findings_snapshot.py
    git diff tests/snapshots/findings.json
"""

from __future__ import annotations

import json
import os
import pathlib

from jaxlint.engine import LintOptions, lint_text
from jaxlint.rules import ALL_RULES
from tests.conftest import snippet

ROOT = pathlib.Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "snapshots" / "findings.json"


def _sources() -> dict[str, str]:
    """Name -> source text, in a stable order."""
    out: dict[str, str] = {}
    for folder in ("cases", "realworld"):
        for path in sorted((ROOT / "tests" / "regressions" / folder).glob("*.py")):
            out[f"regressions/{folder}/{path.name}"] = path.read_text(encoding="utf-8")
    for rule in sorted(ALL_RULES, key=lambda r: r.code):
        ex = rule.examples
        for kind in ("invalid", "valid"):
            for i, text in enumerate(getattr(ex, kind)):
                out[f"{rule.code}/{kind}/{i}"] = snippet(text)
        for kind in ("fixes", "unsafe_fixes"):
            for i, pair in enumerate(getattr(ex, kind)):
                out[f"{rule.code}/{kind}/{i}"] = snippet(pair[0])
    for folder in ("jaxlint/templates", "examples"):
        for path in sorted((ROOT / folder).glob("*.py")):
            out[f"{folder}/{path.name}"] = path.read_text(encoding="utf-8")
    return out


def current_findings() -> dict[str, list[str]]:
    """Source name -> one line per finding: `line:col CODE [fix] message`."""
    options = LintOptions(codes=frozenset(r.code for r in ALL_RULES))
    out: dict[str, list[str]] = {}
    for name, text in _sources().items():
        rows = []
        for d in lint_text(text, name.rsplit("/", 1)[-1], options):
            fix = f"[{d.fix.safety}]" if d.fix else "[-]"
            rows.append(f"{d.line}:{d.col} {d.code} {fix} {d.message}")
        if rows:
            out[name] = rows
    return out


def test_findings_snapshot():
    got = current_findings()
    if os.environ.get("JAXLINT_UPDATE_SNAPSHOT"):
        SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
        SNAPSHOT.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    want = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    changed = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
    detail = []
    for key in changed[:20]:
        old, new = set(want.get(key, ())), set(got.get(key, ()))
        detail += [f"{key}: - {row}" for row in sorted(old - new)]
        detail += [f"{key}: + {row}" for row in sorted(new - old)]
    assert not changed, (
        f"{len(changed)} sources changed findings (see this file's docstring to update):\n"
        + "\n".join(detail)
    )
