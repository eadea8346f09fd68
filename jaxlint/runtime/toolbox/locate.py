"""`jaxlint locate TOPIC`: find the docs, tests and source in JAX that talk about a topic, offline.

Searches a JAX checkout (`--root`) or the installed `jax` package (found without importing it).
The first run builds an index (per-file token counts, def/class and heading names) and caches it
under `$XDG_CACHE_HOME/jaxlint/locate/` (default `~/.cache/...`), one file per root; later runs
re-read only files whose mtime or size changed. Ranking is BM25 over tokens, where identifiers are
also split into their snake_case/camelCase parts and re-joined (`shard_map` -> `shard`, `map`,
`shardmap`), with bonuses for matches in the path and in def/class names or headings, and a
penalty for files that miss some of the topic's words.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import os
import pickle
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jaxlint.core.errors import JaxMissingError, UsageError
from jaxlint.files.write import write_atomic

INDEX_VERSION = 2
SUFFIXES = {".py": "source", ".pyi": "source", ".md": "doc", ".rst": "doc", ".ipynb": "doc"}
SKIP_DIRS = {
    ".git",
    "__pycache__",
    "node_modules",
    ".tox",
    ".venv",
    "venv",
    ".mypy_cache",
    ".pytest_cache",
    "_build",
}
MAX_BYTES = 3_000_000
KINDS = ("doc", "test", "source")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_DEF = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_][A-Za-z0-9_]*)")
_HEADING = re.compile(r"^\s*#{1,6}\s+(.+)$")
_STOP = {"the", "a", "an", "of", "in", "on", "for", "to", "and", "or", "with", "how", "is", "jax"}


def word_parts(word: str) -> list[str]:
    """snake_case and camelCase pieces, lower case: `PRNGKey` -> [`prng`, `key`]."""
    return [p.lower() for chunk in word.split("_") for p in _PART.findall(chunk)]


def word_tokens(word: str) -> list[str]:
    """`shard_map` -> [`shard_map`, `shard`, `map`, `shardmap`]; `PRNGKey` -> [`prngkey`, `prng`, `key`]."""
    parts = word_parts(word)
    out = [word.lower()]
    if len(parts) > 1:
        out += parts
        joined = "".join(parts)
        if joined != out[0]:
            out.append(joined)
    return out


def text_tokens(text: str) -> Iterator[str]:
    for match in _WORD.finditer(text):
        yield from word_tokens(match.group())


@dataclass(frozen=True, slots=True)
class Query:
    """The topic as `terms` (single words, all wanted) and `phrases` (compound spellings)."""

    text: str
    terms: tuple[str, ...]
    phrases: tuple[str, ...]

    @classmethod
    def parse(cls, topic: str) -> Query:
        words = _WORD.findall(topic)
        terms: list[str] = []
        for word in words:
            parts = word_parts(word) or [word.lower()]
            terms += [p for p in parts if p not in _STOP or len(words) == 1]
        terms = list(dict.fromkeys(terms))
        phrases: list[str] = []
        if len(terms) > 1:
            phrases += ["_".join(terms), "".join(terms)]
        phrases += [w.lower() for w in words if "_" in w.strip("_") or w.lower() != w]
        phrases = [p for p in dict.fromkeys(phrases) if p not in terms]
        if not terms:
            raise UsageError(f"topic {topic!r} has no searchable words")
        return cls(topic, tuple(terms), tuple(phrases))


def kind_of(rel: str) -> str:
    """doc (.md/.rst/.ipynb), test (a tests/ folder, test_*.py, *_test.py) or source."""
    path = Path(rel)
    kind = SUFFIXES.get(path.suffix, "source")
    if kind == "doc":
        return kind
    parts = {p.lower() for p in path.parts[:-1]}
    if {"tests", "test"} & parts or path.name.startswith("test_") or path.stem.endswith("_test"):
        return "test"
    return kind


def read_text(path: Path) -> str:
    """File text; for notebooks, the cell sources joined (line numbers refer to that text)."""
    raw = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix != ".ipynb":
        return raw
    try:
        cells = json.loads(raw).get("cells", [])
    except (ValueError, AttributeError):
        return ""
    chunks = []
    for cell in cells:
        source = cell.get("source", "")
        chunks.append("".join(source) if isinstance(source, list) else str(source))
    return "\n".join(chunks)


def index_file(path: Path) -> dict[str, Any]:
    """Token counts, token total and the line of each def/class/heading token."""
    text = read_text(path)
    counts: Counter[str] = Counter(text_tokens(text))
    defs: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = _DEF.match(line) or (_HEADING.match(line) if path.suffix != ".py" else None)
        if match:
            for token in text_tokens(match.group(1)):
                defs.setdefault(token, number)
    return {"counts": dict(counts), "length": sum(counts.values()), "defs": defs}


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "jaxlint" / "locate"


def _walk(root: Path) -> Iterator[tuple[str, os.stat_result]]:
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(
            d for d in dirs if d not in SKIP_DIRS and not d.startswith((".", "bazel-"))
        )
        for name in sorted(files):
            if Path(name).suffix not in SUFFIXES:
                continue
            full = os.path.join(folder, name)
            try:
                stat = os.stat(full)
            except OSError:
                continue
            if stat.st_size <= MAX_BYTES:
                yield os.path.relpath(full, root), stat


def load_index(root: Path, use_cache: bool = True) -> dict[str, dict[str, Any]]:
    """Per-file index for `root`, reusing cached entries whose mtime and size are unchanged."""
    cache_file = cache_dir() / (hashlib.sha256(str(root).encode()).hexdigest()[:20] + ".pickle")
    cached: dict[str, dict[str, Any]] = {}
    if use_cache and cache_file.is_file():
        try:
            with cache_file.open("rb") as handle:
                data = pickle.load(handle)
            if data.get("version") == INDEX_VERSION and data.get("root") == str(root):
                cached = data["files"]
        except Exception:  # a corrupt or foreign cache is rebuilt, never fatal
            cached = {}
    files: dict[str, dict[str, Any]] = {}
    changed = False
    for rel, stat in _walk(root):
        entry = cached.get(rel)
        if entry is None or entry["mtime_ns"] != stat.st_mtime_ns or entry["size"] != stat.st_size:
            try:
                entry = {"mtime_ns": stat.st_mtime_ns, "size": stat.st_size, "kind": kind_of(rel)}
                entry.update(index_file(root / rel))
            except OSError:
                continue
            changed = True
        files[rel] = entry
    if use_cache and (changed or len(files) != len(cached)):
        _save(cache_file, {"version": INDEX_VERSION, "root": str(root), "files": files})
    return files


def _save(cache_file: Path, data: dict[str, Any]) -> None:
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        blob = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
        write_atomic(str(cache_file), blob, durable=False)  # a cache: no fsync, mode 0o600
    except OSError:  # read-only home: search still works, just without a cache
        pass


def default_root() -> Path:
    """The installed `jax` package folder, found without importing JAX."""
    spec = importlib.util.find_spec("jax")
    if spec is None or not spec.submodule_search_locations:
        error = JaxMissingError("locate")
        error.args = (f"{error}, or pass --root DIR (a JAX checkout)",)
        raise error
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def score_files(
    index: dict[str, dict[str, Any]], query: Query, kinds: Iterable[str] = KINDS
) -> list[tuple[float, str]]:
    """BM25 over terms and phrases, plus path and definition bonuses, times term coverage."""
    wanted = set(kinds)
    total = len(index) or 1
    avg_len = sum(e["length"] for e in index.values()) / total or 1.0
    words = query.terms + query.phrases
    df = {w: sum(1 for e in index.values() if w in e["counts"]) for w in words}
    idf = {w: math.log(1 + (total - df[w] + 0.5) / (df[w] + 0.5)) for w in words}
    scored: list[tuple[float, str]] = []
    k1, b = 1.2, 0.75
    for rel, entry in index.items():
        if entry["kind"] not in wanted:
            continue
        counts = entry["counts"]
        path_tokens = set(text_tokens(rel.replace(os.sep, " ")))
        norm = k1 * (1 - b + b * entry["length"] / avg_len)
        score = 0.0
        matched = 0
        for word in words:
            weight = 2.0 if word in query.phrases else 1.0
            tf = counts.get(word, 0)
            in_path = word in path_tokens
            if tf:
                score += weight * idf[word] * tf * (k1 + 1) / (tf + norm)
            if in_path:
                score += weight * 3.0 * idf[word]
            if word in entry["defs"]:
                score += weight * 1.5 * idf[word]
            if word in query.terms and (tf or in_path):
                matched += 1
        if score <= 0:
            continue
        phrase_hit = any(p in counts or p in path_tokens for p in query.phrases)
        coverage = 1.0 if phrase_hit else matched / len(query.terms)
        scored.append((score * coverage**2, rel))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return scored


def best_line(text: str, query: Query, defs: dict[str, int]) -> tuple[int, str]:
    """The line that matches most of the topic (phrases count double, definitions win ties)."""
    best = (0.0, 0, "")
    def_lines = set(defs.values())
    for number, line in enumerate(text.splitlines(), 1):
        tokens = set(text_tokens(line))
        value = sum(1 for t in query.terms if t in tokens) + sum(
            2 for p in query.phrases if p in tokens
        )
        if not value:
            continue
        value += 0.5 if number in def_lines else 0.0
        if value > best[0]:
            best = (value, number, line.strip())
    return best[1], best[2][:200]


def locate(
    topic: str,
    root: str | Path | None = None,
    kind: str | None = None,
    limit: int = 10,
    use_cache: bool = True,
) -> dict[str, Any]:
    """Ranked files about `topic` under `root` (default: the installed jax package)."""
    if kind is not None and kind not in KINDS:
        raise UsageError(f"--kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if limit < 1:
        raise UsageError("--limit must be at least 1")
    if root is None:
        base = default_root()
    else:
        base = Path(root).expanduser().resolve()
        if not base.is_dir():
            raise UsageError(f"--root {str(root)!r} is not a folder")
    query = Query.parse(topic)
    index = load_index(base, use_cache=use_cache)
    results = []
    for score, rel in score_files(index, query, [kind] if kind else KINDS)[:limit]:
        entry = index[rel]
        try:
            line, snippet = best_line(read_text(base / rel), query, entry["defs"])
        except OSError:
            line, snippet = 0, ""
        results.append(
            {
                "path": str(base / rel),
                "relpath": rel,
                "kind": entry["kind"],
                "line": line,
                "snippet": snippet,
                "score": round(score, 3),
            }
        )
    return {
        "topic": topic,
        "root": str(base),
        "terms": list(query.terms),
        "phrases": list(query.phrases),
        "files_indexed": len(index),
        "results": results,
    }
