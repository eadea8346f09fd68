"""The recall corpus: reading the cases and their headers (no JAX, no jaxlint imports).

Every case is a pair: ``<name>_bad.py`` (a real-world sharp bit, reduced) and
``<name>_good.py`` (its fixed twin), or a pair of folders ``<name>_bad/`` and
``<name>_good/`` for a multi-module case, whose header lives in ``main.py``. The header is
the leading ``# key: value`` comments of the bad program:

- ``source``: the public thread the case comes from;
- ``family``: the sharp-bit family (host-conversion, control-flow, shapes, prng, ...);
- ``expect``: the jaxlint codes any one of which counts as detecting it;
- ``check``: how ``verify_cases.py`` shows the sharp bit with real JAX (see there).

Kept free of imports beyond the standard library so that ``tests/test_recall_corpus.py``
can use it without JAX.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

CASES_DIR = Path(__file__).parent / "cases"
_HEADER = re.compile(r"#\s*(source|family|expect|check):\s*(.*\S)\s*$")


@dataclass(frozen=True)
class Case:
    """One bad/good pair and what its header says about it."""

    name: str
    bad: Path
    good: Path
    source: str
    family: str
    expect: tuple[str, ...]
    check: str

    @property
    def multi_module(self) -> bool:
        """A folder case: several modules, the facts cross an import."""
        return self.bad.is_dir()

    def entry(self, which: str) -> Path:
        """The file to run for the bad or the good program."""
        path = self.bad if which == "bad" else self.good
        return path / "main.py" if path.is_dir() else path


def _header(path: Path) -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        match = _HEADER.match(line)
        if match:
            fields[match.group(1)] = match.group(2)
    return fields


def load_cases(root: Path = CASES_DIR) -> list[Case]:
    """All cases under `root`, sorted by name; a bad program without its twin is an error."""
    cases = []
    for bad in sorted(root.iterdir()):
        stem = bad.name[: -len(".py")] if bad.suffix == ".py" else bad.name
        if not stem.endswith("_bad"):
            continue
        name = stem[: -len("_bad")]
        good = bad.with_name(bad.name.replace("_bad", "_good", 1))
        if not good.exists():
            raise ValueError(f"{bad.name} has no twin {good.name}")
        entry = bad / "main.py" if bad.is_dir() else bad
        fields = _header(entry)
        missing = {"source", "family", "expect", "check"} - set(fields)
        if missing:
            raise ValueError(f"{entry}: header lacks {sorted(missing)}")
        cases.append(
            Case(
                name=name,
                bad=bad,
                good=good,
                source=fields["source"],
                family=fields["family"],
                expect=tuple(fields["expect"].split()),
                check=fields["check"],
            )
        )
    return cases
