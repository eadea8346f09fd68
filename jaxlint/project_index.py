"""Building the project index (`jaxlint.analysis.project`) for a run, an editor or flake8.

The project is the nearest folder above the linted paths holding `pyproject.toml`,
`setup.py`, `setup.cfg` or `.git` (never above a virtualenv or `site-packages`), else the
linted roots themselves. Every Python file there is read; only those that name a JAX
transform (or are a package `__init__`) are summarised, each summary cached by content hash
(with its module name and the `jit-decorators`) in the result cache, so a warm run parses
nothing. Misses run in the process pool, like linting.
"""

from __future__ import annotations

import ast
import hashlib
import multiprocessing
import os
import re
from collections import ChainMap
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from jaxlint.analysis.constants import module_constants
from jaxlint.analysis.construction import method_calls, post_construction_calls
from jaxlint.analysis.flow.keys import KEY_HELPERS
from jaxlint.analysis.project import (
    NESTED_IMPORT,
    SEED_ENTRIES,
    SUMMARY_FORMAT,
    KeyHelpers,
    ModuleSummary,
    ProjectIndex,
    Seed,
    declares_static,
    module_names,
    needs_summary,
    returns_numpy,
    seeds_digest,
    summarize,
    summarize_seeded,
    uses_random,
    uses_transform,
)
from jaxlint.analysis.project_summary import drawfree_modules, linen_modules, returned_kinds_of
from jaxlint.core.config import quiet_warnings
from jaxlint.core.errors import UsageError
from jaxlint.core.source import ReadError, decode_source
from jaxlint.run import cache as result_cache

ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
MAX_INDEX_FILES = 20_000  # a "project" bigger than this is a home folder: index the linted files
SERIAL_BELOW = 16  # summaries to compute; a pool costs more than it saves below this


def project_root(paths: Iterable[str]) -> str | None:
    """The nearest folder with a project marker above the linted paths; None when there is
    none (then the linted files alone make the index)."""
    absolute = [os.path.abspath(p) for p in paths] or [os.getcwd()]
    try:
        common = os.path.commonpath(absolute)
    except ValueError:
        return None
    return _root_above(common if os.path.isdir(common) else os.path.dirname(common), {})


def _folders_up(d: str) -> Iterator[str]:
    """`d`, then each folder above it, up to the file system's root."""
    while True:
        yield d
        parent = os.path.dirname(d)
        if parent == d:
            return
        d = parent


def _root_above(d: str, memo: dict[str, str | None]) -> str | None:
    """`project_root` from the folder `d` up; `memo` (folder -> answer) is shared by the
    calls of one run, so 938 files named one by one cost one walk per folder, not per file."""
    seen: list[str] = []
    found: str | None = None
    for cur in _folders_up(d):
        if cur in memo:
            found = memo[cur]
            break
        seen.append(cur)
        if any(os.path.exists(os.path.join(cur, m)) for m in ROOT_MARKERS):
            found = cur
            break
        if os.path.basename(cur) in ("site-packages", "dist-packages") or os.path.exists(
            os.path.join(cur, "pyvenv.cfg")
        ):
            break
    for folder in seen:
        memo[folder] = found
    return found


def package_top(path: str) -> str:
    """Without a project marker: the folder above the file's outermost package (or the
    file's folder), as `jaxlint check` on that folder would index it."""
    d = os.path.dirname(os.path.abspath(path))
    while os.path.isfile(os.path.join(d, "__init__.py")) and os.path.dirname(d) != d:
        parent = os.path.dirname(d)
        if os.path.basename(parent) in ("site-packages", "dist-packages"):
            return d  # an installed package is its own project, not all of site-packages
        d = parent
    return d


@dataclass
class ProjectGroup:
    """Linted files that share a project: the command-line paths whose project root is one
    folder (or, without a marker, whose files have one package top), and that root."""

    root: str | None
    paths: list[str]  # the command-line paths, absolute
    linted: list[str]  # the linted files, as discovered


def project_groups(paths: Iterable[str], linted: Iterable[str]) -> list[ProjectGroup]:
    """The projects of one run: each command-line path's root is the one linting it alone
    would use (`project_root`, else the single package top of its files), and paths with one
    root are one project. Three repositories in one command are three projects, each
    resolving its own modules (each has a `tests/test_utils.py`: one index rooted above them
    would make `tests.test_utils` three files, or none)."""
    given = [os.path.abspath(p) for p in paths] or [os.getcwd()]
    named = set(given)
    files: dict[str, list[str]] = {p: [] for p in given}
    for f in linted:
        # the deepest named path holding the file: the nearest of its ancestors (itself
        # first) that was named, found walking up (a run naming 938 files one by one
        # compared each with all of them: 0.2 s)
        a = os.path.abspath(f)
        owner = next((d for d in _folders_up(a) if d in named), None)
        files.setdefault(owner or a, []).append(f)
    groups: dict[object, ProjectGroup] = {}
    roots: dict[str, str | None] = {}
    top_of: dict[str, str] = {}  # a file's folder -> its package top (`package_top`)

    def top(f: str) -> str:
        folder = os.path.dirname(os.path.abspath(f))
        found = top_of.get(folder)
        if found is None:
            found = top_of[folder] = package_top(f)
        return found

    for p, found in files.items():
        root = _root_above(p if os.path.isdir(p) else os.path.dirname(p), roots)
        key: object = root
        if root is None:
            tops = {top(f) for f in found if f.endswith(".py")}
            root = tops.pop() if len(tops) == 1 else None
            key = ("top", root) if root is not None else ("alone", p)
        group = groups.setdefault(key, ProjectGroup(root, [], []))
        group.paths.append(p)
        group.linted.extend(found)
    return list(groups.values())


class ProjectIndexes:
    """The indexes of a run with several projects, one per `ProjectGroup`, asked like one
    index: a file's seeds come from its own project's index only, so a file gets the findings
    it gets when its project is linted alone."""

    def __init__(self, parts: list[tuple[ProjectGroup, ProjectIndex]]) -> None:
        self.parts = parts
        self._owner: dict[str, ProjectIndex] = {}
        for group, index in parts:
            for f in group.linted:
                self._owner.setdefault(os.path.abspath(f), index)
        self.names: Mapping[str, list[str]] = ChainMap(*(index.names for _, index in parts))

    def index_of(self, path: str) -> ProjectIndex | None:
        return self._owner.get(os.path.abspath(path))

    def seeds_for(self, path: str) -> dict:
        index = self.index_of(path)
        return index.seeds_for(path) if index is not None else {}

    def add_module(
        self,
        path: str,
        names: list[str],
        summary: ModuleSummary | None,
        same_inputs: bool = False,
    ) -> None:
        index = self.index_of(path)
        if index is not None:
            index.add_module(path, names, summary, same_inputs)

    def inputs_complete(self) -> None:
        for _, index in self.parts:
            index.inputs_complete()

    def add_summary(self, root: str | None, path: str, summary: ModuleSummary | None) -> None:
        """A deferred summary for the index of the tree at `root` (`SummaryJobs`)."""
        for group, index in self.parts:
            if group.root == root:
                index.add_module(path, index.names.get(path, []), summary, same_inputs=True)
                return


def project_files(root: str | None, linted: Iterable[str], settings_for) -> list[str]:  # noqa: ANN001
    """Absolute paths of the project's `.py` files (the linted ones always)."""
    from jaxlint.files.discover import iter_python_files

    out: dict[str, None] = {}
    for path in linted:
        if path.endswith((".py", ".pyi")):
            out[os.path.abspath(path)] = None
    if root is None:
        return list(out)
    alone = list(dict.fromkeys(os.path.abspath(p) for p in linted if p.endswith(".py")))
    found = 0
    try:
        with quiet_warnings():  # configs of folders nobody asked to lint: not this run's news
            for path, _ in iter_python_files([root], settings_for, warn=lambda m: None):
                if not path.endswith(".py"):
                    continue
                found += 1
                if found > MAX_INDEX_FILES:
                    return alone
                out[os.path.abspath(path)] = None
    except UsageError:
        # a broken config in a folder not linted (a sibling under /tmp) must not stop the
        # lint: index the linted files alone (the lint reports their own config errors)
        return alone
    return list(out)


def summary_key(data: bytes, module: str, is_package: bool, jit_decorators: tuple[str, ...]) -> str:
    return summary_key_for(hashlib.sha256(data).digest(), module, is_package, jit_decorators)


def summary_key_for(
    digest: bytes, module: str, is_package: bool, jit_decorators: tuple[str, ...]
) -> str:
    """The summary's cache key from the SHA-256 of the file's bytes (`summary_key`)."""
    h = hashlib.sha256(
        "\0".join(
            (
                f"jaxlint-summary {SUMMARY_FORMAT}",
                result_cache.code_fingerprint(),
                module,
                str(int(is_package)),
                ",".join(jit_decorators),
            )
        ).encode("utf-8", "surrogatepass")
    )
    h.update(b"\0\0")
    h.update(digest)
    return h.hexdigest()


def derive_text(
    text: str,
    path: str,
    base: ModuleSummary,
    is_package: bool,
    jit_decorators: tuple[str, ...],
    seeds: Mapping[str, object],
) -> ModuleSummary | None:
    """What one file's text passes on once `seeds` reach it (`summarize_seeded`); None when
    it does not parse or cannot be analysed. Key helpers that the text never calls
    (`name(` for each name they are imported as) change nothing and cost no analysis."""
    helpers = seeds.get(KEY_HELPERS)
    if helpers is not None and not any(
        _calls(name, text)
        for name in helpers.as_map()  # type: ignore[attr-defined]
    ):
        seeds = {k: v for k, v in seeds.items() if k != KEY_HELPERS}
    if not seeds:
        return base
    from jaxlint.analysis import ModuleFacts
    from jaxlint.core.parse import parse
    from jaxlint.core.source import SourceText

    parsed = parse(SourceText(text), path)
    if parsed.tree is None:
        return None
    try:
        facts = ModuleFacts(parsed.tree, jit_decorators, seeds)
        facts.key_reuses = False  # a summary reads no reuse (`KeyFlow(reuses=False)`)
        return summarize_seeded(facts, base, is_package, seeds)
    except (RecursionError, MemoryError):
        return None
    except Exception:  # an analysis bug costs the cross-module facts, never the run
        return None


def _calls(name: str, text: str) -> bool:
    """Whether the text can call `name` (`name(`): the key analysis matches calls by name."""
    return re.search(rf"(?<![\w.]){re.escape(name)}\s*\(", text) is not None


_MODULE_CLASS = re.compile(r"^class\s+\w+\s*\([^)]*\bModule\b", re.MULTILINE)


def imports_only(text: str, is_package: bool, transforms_used: bool, random_used: bool) -> bool:
    """`summarize_text` summarises the module from its top-level imports alone: its summary
    is then not the one its full facts give (`passes`, `annotated`), so only the other
    modules' summaries may come from a lint's facts (`build_index_deferred`)."""
    return not (
        is_package
        or transforms_used
        or random_used
        or NESTED_IMPORT.search(text)
        or declares_static(text)
        or returns_numpy(text)
    )


def summarize_text(
    text: str, path: str, module: str, is_package: bool, jit_decorators: tuple[str, ...]
) -> ModuleSummary | None:
    """The summary of one file's text; None when it does not parse or cannot be analysed."""
    from jaxlint.analysis import ModuleFacts
    from jaxlint.core.parse import parse
    from jaxlint.core.source import SourceText

    parsed = parse(SourceText(text), path)
    if parsed.tree is None:
        return None
    transforms_used, random_used = uses_transform(text, jit_decorators), uses_random(text)
    tree = parsed.tree
    if imports_only(text, is_package, transforms_used, random_used):
        # a caller that only imports: the facts of its imports give its summary's imports
        imports = [s for s in tree.body if isinstance(s, (ast.Import, ast.ImportFrom))]
        tree = ast.Module(body=imports, type_ignores=[])
    try:
        facts = ModuleFacts(tree, jit_decorators)
        facts.key_reuses = False  # a summary reads no reuse (`KeyFlow(reuses=False)`)
        summary = summarize(facts, module, is_package, transforms_used, random_used)
        summary.constants = module_constants(parsed.tree)  # `tree` may be its imports only
        if tree is not parsed.tree:  # the methods a driver calls, what its functions return
            setup = post_construction_calls(parsed.tree)
            summary.method_calls = method_calls(ast.walk(parsed.tree), setup=setup)
            summary.setup_calls = sorted(set(setup.values()))
            summary.static_returns, summary.bool_returns = returned_kinds_of(parsed.tree, text)
        if tree is not parsed.tree and _MODULE_CLASS.search(text):
            # the classes of a file that only defines flax Modules (no transform, no
            # `random`): which of them draw nothing at `init` (flow/key_drawfree.py)
            whole = ModuleFacts(parsed.tree, jit_decorators)
            summary.drawfree_modules = drawfree_modules(whole)
            summary.linen_modules = linen_modules(whole)
        return summary
    except (RecursionError, MemoryError):
        return None
    except Exception:  # an analysis bug costs the cross-module facts, never the run
        return None


@dataclass(frozen=True)
class SummaryJob:
    """A summary to compute: alone (`_summarize_job`) or from the facts of the file's lint
    (`summary_from_facts`, so a cold run analyses each linted file once)."""

    path: str
    module: str
    is_package: bool
    jit_decorators: tuple[str, ...]
    key: str | None
    transforms: bool = True  # the text names a transform
    random: bool = True  # the text names `random`

    def from_facts(self, facts, cache: result_cache.Cache | None) -> dict | None:  # noqa: ANN001 - analysis.ModuleFacts
        """`summary_from_facts` for this job: the runner calls it on the job it was handed,
        so `run` needs no import of this module (the package cycle run <-> project_index)."""
        return summary_from_facts(self, facts, cache)


@dataclass(frozen=True)
class SummaryJobs:
    """The summaries of one linted file in several trees' indexes, from the facts of its one
    lint: a file linted in its own tree is indexed by the trees above it too (the corpus's
    `optax` tree indexes `optax/_src`, a tree of its own), under other module names there.
    Summarised alone for those, it was parsed and analysed a second time."""

    # (the tree's root, its job, whether the file is linted in that tree: its own index)
    jobs: tuple[tuple[str | None, SummaryJob, bool], ...]

    def from_facts(self, facts, cache: result_cache.Cache | None) -> list:  # noqa: ANN001 - analysis.ModuleFacts
        """[(root, own tree, summary JSON or None)] per tree, in `jobs` order."""
        return [(root, own, summary_from_facts(job, facts, cache)) for root, job, own in self.jobs]


def summary_from_facts(job: SummaryJob, facts, cache: result_cache.Cache | None) -> dict | None:  # noqa: ANN001 - analysis.ModuleFacts
    """The JSON summary from the facts a lint computed (no seeds), stored in the cache."""
    try:
        summary = summarize(facts, job.module, job.is_package, job.transforms, job.random)
    except Exception:  # an analysis bug costs the cross-module facts, never the run
        return None
    data = summary.to_json()
    if job.key is not None and cache is not None:
        try:
            cache.put_data(job.key, data)
        except Exception:
            pass
    return data


def _summarize_job(job: SummaryJob) -> tuple[str, dict | None]:
    try:
        with open(job.path, "rb") as fh:
            text = decode_source(fh.read()).text
    except Exception:
        return job.path, None
    summary = summarize_text(text, job.path, job.module, job.is_package, job.jit_decorators)
    data = summary.to_json() if summary is not None else None
    if data is not None and job.key is not None and _JOB_CACHE is not None:
        try:
            _JOB_CACHE.put_data(job.key, data)
        except Exception:
            pass
    return job.path, data


_JOB_CACHE: result_cache.Cache | None = None


def build_index(
    files: Iterable[str],
    root: str | None,
    jit_decorators_for,  # noqa: ANN001 - path -> tuple[str, ...]
    cache: result_cache.Cache | None = None,
    jobs: int = 1,
    texts: dict[str, str] | None = None,
    linted: set[str] | None = None,
) -> ProjectIndex:
    """Summaries of `files` (absolute paths), from the cache where it has them.

    `texts` overrides what is on disk (an editor's unsaved buffers); the files in `linted`
    are summarised as callers of other modules' key helpers too.
    """
    return build_index_deferred(files, root, jit_decorators_for, cache, jobs, texts, linted=linted)[
        0
    ]


_InputRow = tuple[str, list[str], bool, tuple[str, ...], bytes | None, bytes | None]


def _index_inputs(
    files: Iterable[str],
    root: str | None,
    jit_decorators_for,  # noqa: ANN001 - path -> tuple[str, ...]
    cache: result_cache.Cache | None,
    texts: dict[str, str],
) -> tuple[Any, list[_InputRow]]:
    """What the join of an index reads, per file (path, module names, is a package, jit
    decorators, bytes when read, digest), and their hash: every file's name, settings and
    bytes (a warm run with nothing changed reads the joined seeds from the cache:
    `ProjectIndex.fingerprint`). Bytes are read only when no digest is known by stat."""
    digests = cache.digests if cache is not None else None
    inputs = hashlib.sha256(f"jaxlint-index {SUMMARY_FORMAT} {root}".encode())
    rows: list[_InputRow] = []
    packages: dict[str, list[str]] = {}
    for path in files:
        names, is_package = module_names(path, root, packages)
        if not names:
            continue
        jd = tuple(jit_decorators_for(path))
        data: bytes | None = None
        digest: bytes | None = None
        if path in texts:
            data = texts[path].encode("utf-8", "surrogatepass")
        elif digests is not None:
            digest = digests.known(path)
            if digest is None:
                try:
                    data, digest = digests.read(path)
                except OSError:
                    continue  # the lint reports it; no summary
        if cache is not None:
            if digest is None:
                digest = hashlib.sha256(data).digest()  # type: ignore[arg-type]
            row = "\0".join((path, ",".join(names), str(int(is_package)), ",".join(jd)))
            inputs.update(row.encode("utf-8", "surrogatepass") + b"\0")
            inputs.update(digest)
        rows.append((path, names, is_package, jd, data, digest))
    return inputs, rows


def build_index_deferred(
    files: Iterable[str],
    root: str | None,
    jit_decorators_for,  # noqa: ANN001 - path -> tuple[str, ...]
    cache: result_cache.Cache | None = None,
    jobs: int = 1,
    texts: dict[str, str] | None = None,
    defer: set[str] | None = None,
    linted: set[str] | None = None,
    seeds_only: bool = False,
) -> tuple[ProjectIndex, dict[str, SummaryJob]]:
    """`build_index`, leaving the summaries of the files in `defer` that the cache lacks to
    the caller (returned as jobs): their lint computes the same facts. The files in `defer`
    and `linted` are summarised as callers too (`needs_summary(linted=True)`).

    `seeds_only`: the caller asks the index for seeds and nothing else (`seeds_for`; the
    lint of `jaxlint check`). Then, when the cache holds the joined seeds of exactly these
    inputs (the fingerprint: every file's name, settings and digest, the digests known
    from their stat without reading: `run.cache.Digests`), the index is those seeds and
    the files' names, with no summary: a run that changes nothing reads no file here."""
    defer = defer or set()
    linted = linted or set()
    deferred: dict[str, SummaryJob] = {}
    global _JOB_CACHE
    index = ProjectIndex()
    index.loader = Loader(root, jit_decorators_for, cache, dict(texts or {}))
    todo: list[SummaryJob] = []
    texts = texts or {}
    inputs, rows = _index_inputs(files, root, jit_decorators_for, cache, texts)
    if seeds_only and cache is not None and not texts:
        fingerprint = inputs.hexdigest()
        stored = index.loader.cached_seeds(fingerprint)
        if stored is not None:
            for path, names, *_ in rows:
                index.add_module(path, names, None)
            index.pending_fingerprint = fingerprint
            index.inputs_complete()
            index.preset_seeds(stored)
            return index, {}
    for path, names, is_package, jd, data, digest in rows:
        try:
            if data is None:
                with open(path, "rb") as fh:
                    data = fh.read()
            text = decode_source(data).text
        except (OSError, ReadError):
            continue  # the lint reports it; no summary
        used = (uses_transform(text, jd), uses_random(text))  # once: the job needs both
        # any importer can be a link in a chain, so every file counts as linted here
        if not needs_summary(path, text, jd, linted=True, used=used):
            index.add_module(path, names, None)
            continue
        key = summary_key_for(digest, names[0], is_package, jd) if digest is not None else None
        if path in texts:
            index.add_module(path, names, summarize_text(text, path, names[0], is_package, jd))
            continue
        if key is not None:
            hit = cache.get_data(key)  # type: ignore[union-attr]
            if hit is not None:
                try:
                    index.add_module(path, names, ModuleSummary.from_json(hit))
                    continue
                except (ValueError, KeyError, TypeError):
                    pass
        index.add_module(path, names, None)
        job = SummaryJob(path, names[0], is_package, jd, key, *used)
        # a file linted in another tree's run (`defer` but not `linted`) takes the summary
        # its lint's facts give where that is the one it gets alone
        if path in defer and (path in linted or not imports_only(text, is_package, *used)):
            deferred[path] = job
        else:
            todo.append(job)
    _JOB_CACHE = cache
    try:
        if jobs <= 1 or len(todo) < SERIAL_BELOW:
            results = [_summarize_job(j) for j in todo]
        else:
            methods = multiprocessing.get_all_start_methods()
            ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
            with ctx.Pool(processes=min(jobs, len(todo))) as pool:
                results = list(pool.imap_unordered(_summarize_job, todo, chunksize=4))
    finally:
        _JOB_CACHE = None
    for path, data in results:
        if data is not None:
            index.add_module(path, index.names.get(path, []), ModuleSummary.from_json(data))
    if cache is not None:
        # with deferred summaries the join waits for them: the caller adds them, then says
        # `inputs_complete()` (they are computed from the same bytes)
        index.pending_fingerprint = inputs.hexdigest()
        if not deferred:
            index.inputs_complete()
    return index, deferred


class Loader:
    """Reads for the index what summaries leave out (`analysis.project.Loader`): a module's
    summary analysed with the seeds that reach it (chains of helpers across modules), cached
    by content, seeds and settings; the names a `from m import *` of a module binds."""

    def __init__(
        self,
        root: str | None,
        jit_decorators_for,  # noqa: ANN001 - path -> tuple[str, ...]
        cache: result_cache.Cache | None = None,
        texts: dict[str, str] | None = None,
    ) -> None:
        self.root = root
        self.jit_decorators_for = jit_decorators_for
        self.cache = cache
        self.texts = texts if texts is not None else {}
        self._public: dict[str, frozenset[str] | None] = {}

    def _text(self, path: str) -> tuple[bytes, str] | None:
        if path in self.texts:
            text = self.texts[path]
            return text.encode("utf-8", "surrogatepass"), text
        try:
            with open(path, "rb") as fh:
                data = fh.read()
            return data, decode_source(data).text
        except (OSError, ReadError):
            return None

    def derive(
        self,
        path: str,
        names: list[str],
        seeds: Mapping[str, object],
        base: ModuleSummary,
    ) -> ModuleSummary | None:
        if not names:
            return None
        read = self._text(path)
        if read is None:
            return None
        data, text = read
        jd = tuple(self.jit_decorators_for(path))
        is_package = os.path.basename(path) == "__init__.py"
        key = None
        if self.cache is not None:
            key = summary_key(data, names[0], is_package, jd)
            key = hashlib.sha256(f"{key}\0seeds={seeds_digest(seeds)}".encode()).hexdigest()
            hit = self.cache.get_data(key)
            if hit is not None:
                try:
                    return ModuleSummary.from_json(hit)
                except (ValueError, KeyError, TypeError):
                    pass
        summary = derive_text(text, path, base, is_package, jd, seeds)
        if summary is not None and key is not None:
            try:
                self.cache.put_data(key, summary.to_json())  # type: ignore[union-attr]
            except Exception:
                pass
        return summary

    def _seeds_key(self, fingerprint: str) -> str:
        text = f"jaxlint-seeds {SUMMARY_FORMAT}\0{result_cache.code_fingerprint()}\0{fingerprint}"
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def cached_seeds(self, fingerprint: str) -> dict | None:
        """The joined seeds of an index with these inputs, from the cache (None: a miss)."""
        if self.cache is None:
            return None
        data = self.cache.get_data(self._seeds_key(fingerprint))
        if not isinstance(data, dict) or data.get("format") != SUMMARY_FORMAT:
            return None
        try:
            out: dict = {}
            for path, rows in data["seeds"].items():
                entry = out[str(path)] = {}
                for name, value in rows:
                    if name == KEY_HELPERS:
                        entry[name] = KeyHelpers.from_json(value)
                    elif name in SEED_ENTRIES:
                        entry[name] = SEED_ENTRIES[name].from_json(value)
                    else:
                        entry[str(name)] = Seed.from_json(value)
            return out
        except (KeyError, TypeError, ValueError):
            return None

    def store_seeds(self, fingerprint: str, seeds: Mapping[str, Mapping[str, object]]) -> None:
        if self.cache is None:
            return
        rows = {
            path: [[name, value.to_json()] for name, value in sorted(entry.items())]  # type: ignore[attr-defined]
            for path, entry in seeds.items()
        }
        try:
            self.cache.put_data(
                self._seeds_key(fingerprint), {"format": SUMMARY_FORMAT, "seeds": rows}
            )
        except Exception:  # a cache problem must never cost the run
            pass

    def called(self, path: str, helpers: KeyHelpers) -> KeyHelpers | None:
        """The entries of `helpers` that the file's text calls (`name(`); None if none.
        An entry it never calls changes nothing but would have the file linted again."""
        read = self._text(path)
        if read is None:
            return helpers
        rows = tuple((n, p) for n, p in helpers.helpers if _calls(n, read[1]))
        kept = {n for n, _ in rows}
        products = tuple((n, p) for n, p in helpers.products if n in kept)
        draws = tuple((n, d) for n, d in helpers.draws if n in kept)
        drawfree = tuple(n for n in helpers.drawfree if _calls(n, read[1]))
        linen = tuple(n for n in helpers.linen if _calls(n, read[1]))
        if not (rows or drawfree or linen):
            return None
        return KeyHelpers(rows, products, draws, drawfree, linen)

    def set_text(self, path: str, text: str) -> None:
        """An editor's buffer: what the file holds from now on."""
        self.texts[path] = text
        self._public.pop(path, None)

    def public_names(self, path: str) -> frozenset[str] | None:
        if path not in self._public:
            read = self._text(path)
            self._public[path] = public_names(read[1]) if read is not None else None
        return self._public[path]


def public_names(text: str) -> frozenset[str] | None:
    """The names `from m import *` binds: `__all__` when it is a literal list or tuple of
    strings, else the module's top-level names without a leading underscore; None when
    unknown (it does not parse, or `__all__` is computed)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    names: set[str] = set()
    declared: set[str] | None = None
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                if alias.name == "*":
                    return None  # what it binds is another module's business
                names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                if isinstance(t, ast.Name) and t.id == "__all__":
                    value = stmt.value
                    if isinstance(stmt, ast.AugAssign) or not isinstance(
                        value, (ast.List, ast.Tuple)
                    ):
                        return None
                    if not all(
                        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
                    ):
                        return None
                    declared = {e.value for e in value.elts}  # type: ignore[attr-defined]
                elif isinstance(t, ast.Name):
                    names.add(t.id)
    if declared is not None:
        return frozenset(declared)
    return frozenset(n for n in names if not n.startswith("_"))


# -- one index per project and process (flake8, the LSP) --------------------------------------

_MEMO: dict[str, ProjectIndex] = {}


def index_for_file(path: str, settings) -> ProjectIndex:  # noqa: ANN001 - config.Settings
    """The index of the project holding `path`, built (or read from the cache) once per
    process and project: flake8 lints file by file."""
    root = project_root([path]) or package_top(path)
    found = _MEMO.get(root)
    if found is None:
        found = _MEMO[root] = build_for_root(root, path, settings)
    else:
        _add_caller(found, root, path, settings)
    return found


def _add_caller(index: ProjectIndex, root: str, path: str, settings) -> None:  # noqa: ANN001
    """A file linted after the index was built (flake8 goes file by file) is summarised as a
    caller of key helpers, as the first one was (`needs_summary(linted=True)`)."""
    path = os.path.abspath(path)
    if path in index.summaries:
        return
    try:
        with open(path, "rb") as fh:
            text = decode_source(fh.read()).text
    except (OSError, ReadError):
        return
    names, is_package = module_names(path, root)
    jd = tuple(settings.jit_decorators)
    if names and needs_summary(path, text, jd, linted=True):
        index.add_module(path, names, summarize_text(text, path, names[0], is_package, jd))


def build_for_root(root: str, path: str, settings) -> ProjectIndex:  # noqa: ANN001
    """A fresh index of the project at `root` (which holds `path`), from the cache where it
    exists (never creating one: an editor or flake8 run leaves no folder behind)."""
    from jaxlint.core.config import ConfigResolver

    resolver = ConfigResolver()
    try:
        cache = result_cache.Cache(result_cache.default_dir(settings), create=False)
    except Exception:
        cache = None
    files = project_files(root, [path], resolver.for_path)
    return build_index(
        files,
        root,
        lambda p: resolver.for_path(p).jit_decorators,
        cache,
        1,
        linted={os.path.abspath(path)},
    )
