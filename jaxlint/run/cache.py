"""A content-hash cache of lint results, so an unchanged file is never analysed twice.

Key: SHA-256 over the SHA-256 of the file's bytes and everything else that can change its
diagnostics: the cache format, jaxlint's version and a fingerprint of its installed sources
(an editable install changes rules without changing the version), the Python version, the
settings' fingerprint, the rules selected for this file (after per-file ignores), the path
the rules see, and the noqa/verbose switches. The hash of the bytes is taken from `Digests`
when the file's stat (size, mtime, ctime, inode) is the one recorded with it, so a run that
changes nothing reads no linted file; any other stat reads and hashes the file again.

Layout: `<cache dir>/v1/<first 2 hex digits>/<other 62>`, one small JSON file per entry,
holding the key and the diagnostics *with their fixes* (every field by name) (so `--fix` can skip files whose
cached diagnostics have nothing to apply). Writers go through a temporary file in the same
folder and one `os.replace`, so concurrent runs never see half an entry; two writers of one
entry write the same bytes. An entry that does not decode, or decodes to the wrong key, is a
miss and gets rewritten. A hit refreshes the entry's mtime (at most once a day), which makes
the mtime a last-use time; at most once an hour a run that wrote entries prunes those unused
for `MAX_AGE_DAYS` and, past `MAX_ENTRIES` or `MAX_BYTES`, the least recently used.

Where: `--cache-dir`, else `$JAXLINT_CACHE_DIR`, else `cache-dir` in the configuration
(relative to its folder), else `.jaxlint_cache/` beside the nearest configuration file, else
in the current directory. The folder holds a `.gitignore` (`*`) and a `CACHEDIR.TAG`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from jaxlint import __version__
from jaxlint.core.config import Settings
from jaxlint.core.diagnostic import Diagnostic, Edit, Fix, Position, Span
from jaxlint.files.write import write_atomic

FORMAT = 1
DIR_NAME = ".jaxlint_cache"
MAX_ENTRIES = 100_000
MAX_BYTES = 512 * 1024 * 1024
MAX_AGE_DAYS = 30
PRUNE_EVERY_S = 3600
TOUCH_AFTER_S = 86400
STALE_TMP_S = 3600
_CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by jaxlint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


# -- where ------------------------------------------------------------------------------------


def _configured_dir(settings: Settings) -> str | None:
    """`cache-dir` from the settings' configuration file, relative to that file's folder."""
    if not settings.config_file:
        return None
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        with open(settings.config_file, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, ValueError):
        return None
    table = data.get("tool", {}).get("jaxlint", data) if isinstance(data, dict) else {}
    value = table.get("cache-dir") if isinstance(table, dict) else None
    if not isinstance(value, str) or not value:
        return None
    base = os.path.dirname(os.path.abspath(settings.config_file))
    return os.path.join(base, os.path.expanduser(value))


def default_dir(settings: Settings | None, explicit: str | None = None) -> str:
    if explicit:
        return explicit
    env = os.environ.get("JAXLINT_CACHE_DIR")
    if env:
        return env
    if settings is not None and settings.config_file:
        configured = _configured_dir(settings)
        if configured:
            return configured
        return os.path.join(os.path.dirname(os.path.abspath(settings.config_file)), DIR_NAME)
    return os.path.join(os.getcwd(), DIR_NAME)


# -- what -------------------------------------------------------------------------------------


def _code_fingerprint() -> str:
    """Hash of the installed jaxlint's modules (their text: ~0.5 MB, a few ms once per run).

    The version alone is not enough: an editable install changes rules without a release.
    """
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # jaxlint/, above run/
    h = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                full = os.path.join(folder, name)
                try:
                    with open(full, "rb") as fh:
                        data = fh.read()
                except OSError:
                    continue
                h.update(os.path.relpath(full, root).encode() + b"\0")
                h.update(hashlib.sha256(data).digest())
    return h.hexdigest()


_CODE: str | None = None


def code_fingerprint() -> str:
    global _CODE
    if _CODE is None:
        _CODE = _code_fingerprint()
    return _CODE


def salt(
    settings: Settings,
    codes: Iterable[str],
    *,
    kind: str = "py",
    apply_noqa: bool = True,
    verbose: bool = False,
) -> bytes:
    """Everything but the path and the content that goes into a key (compute once per setting)."""
    parts = (
        f"jaxlint-cache {FORMAT}",
        __version__,
        code_fingerprint(),
        sys.implementation.cache_tag or "",
        sys.version,
        settings.fingerprint(),
        ",".join(sorted(codes)),
        kind,
        f"noqa={int(apply_noqa)} verbose={int(verbose)}",
    )
    return "\0".join(parts).encode("utf-8", "surrogatepass")


def key(data: bytes, salt_: bytes, display: str) -> str:
    """The entry's name: the salt, the path the rules see, and the file's bytes."""
    return key_for(hashlib.sha256(data).digest(), salt_, display)


def key_for(digest: bytes, salt_: bytes, display: str) -> str:
    """`key` from the SHA-256 of the file's bytes (`Digests` knows it without reading them)."""
    h = hashlib.sha256(salt_)
    h.update(b"\0" + display.encode("utf-8", "surrogatepass") + b"\0\0")
    h.update(digest)
    return h.hexdigest()


# -- entries ----------------------------------------------------------------------------------


_SPECIAL = {"span", "fix", "path"}


def _plain(value: object) -> object:
    """A JSON value for a field (tuples become lists; anything odd is refused)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    raise TypeError(f"cannot cache a {type(value).__name__}")


def _encode(diags: Iterable[Diagnostic], display: str) -> list:
    """One dict per diagnostic, every dataclass field by name (fields added to
    `Diagnostic` later are kept; the code fingerprint invalidates older entries)."""
    out = []
    for d in diags:
        row: dict = {}
        for f in dataclasses.fields(d):
            if f.name not in _SPECIAL:
                row[f.name] = _plain(getattr(d, f.name))
        s = d.span
        row["span"] = [s.start.line, s.start.col, s.end.line, s.end.col]
        if d.fix is not None:
            # edits only when built: a `check` stores that a fix exists, not its edits (a
            # run that needs them treats such an entry as a miss: `has_edits`)
            row["fix"] = [
                d.fix.safety,
                d.fix.message,
                [[e.start.line, e.start.col, e.end.line, e.end.col, e.content] for e in d.fix.edits]
                if d.fix.built
                else None,
            ]
        if d.path != display:
            row["path"] = d.path
        out.append(row)
    return out


def _tuples(value: object) -> object:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _decode(rows: list, display: str) -> list[Diagnostic]:
    names = {f.name for f in dataclasses.fields(Diagnostic)}
    out = []
    for row in rows:
        if not isinstance(row, dict) or not set(row) <= names:
            raise ValueError("bad entry")
        kw = {k: _tuples(v) for k, v in row.items() if k not in _SPECIAL}
        l1, c1, l2, c2 = (int(x) for x in row["span"])
        kw["span"] = Span.of(l1, c1, l2, c2)
        kw["path"] = str(row.get("path", display))
        fix = row.get("fix")
        if fix is not None:
            safety, message, edits = fix
            if edits is None:
                kw["fix"] = Fix.detached(str(safety), str(message))  # type: ignore[arg-type]
            else:
                kw["fix"] = Fix(
                    tuple(
                        Edit(Position(int(a), int(b)), Position(int(c), int(d)), str(t))
                        for a, b, c, d, t in edits
                    ),
                    str(safety),  # type: ignore[arg-type]
                    str(message),
                )
        d = Diagnostic(**kw)
        if not (isinstance(d.code, str) and isinstance(d.message, str)):
            raise ValueError("bad entry")
        out.append(d)
    return out


def cacheable(diags: Iterable[Diagnostic]) -> bool:
    """Results that hold an internal error (a jaxlint bug) are recomputed every time."""
    return not any(d.code == "JAX000" and "internal error" in d.message for d in diags)


@dataclass
class Cache:
    directory: str
    create: bool = True  # False: use the folder if it exists, never make it
    stats: dict = field(default_factory=lambda: {"hits": 0, "misses": 0, "writes": 0})
    _ready: bool = False
    _broken: bool = False
    _digests: Digests | None = None

    @property
    def digests(self) -> Digests:
        """The run's table of file digests trusted by their stat (`Digests`)."""
        if self._digests is None:
            self._digests = Digests(self)
        return self._digests

    @property
    def root(self) -> str:
        return os.path.join(self.directory, f"v{FORMAT}")

    def path(self, key_: str) -> str:
        return os.path.join(self.root, key_[:2], key_[2:])

    def get(self, key_: str, display: str) -> list[Diagnostic] | None:
        path = self.path(key_)
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
                st = os.fstat(fh.fileno())
        except OSError:
            self.stats["misses"] += 1
            return None
        try:
            entry = json.loads(raw)
            if entry.get("key") != key_:
                raise ValueError("key mismatch")
            diags = _decode(entry["diags"], display)
        except Exception:  # damaged or foreign: a miss; the caller rewrites it
            self.stats["misses"] += 1
            return None
        if time.time() - st.st_mtime > TOUCH_AFTER_S:
            try:
                os.utime(path)
            except OSError:
                pass
        self.stats["hits"] += 1
        return diags

    def get_data(self, key_: str) -> object | None:
        """A JSON value stored by `put_data` (project-index summaries), or None."""
        try:
            with open(self.path(key_), "rb") as fh:
                entry = json.loads(fh.read())
            if entry.get("key") != key_:
                return None
            return entry["data"]
        except Exception:
            return None

    def put_data(self, key_: str, value: object) -> None:
        if self._broken:
            return
        try:
            data = json.dumps(
                {"key": key_, "data": value}, ensure_ascii=True, separators=(",", ":")
            ).encode("ascii")
        except (TypeError, ValueError):
            return
        self._write(key_, data)

    def put(self, key_: str, diags: list[Diagnostic], display: str) -> None:
        if self._broken or not cacheable(diags):
            return
        try:
            data = json.dumps(
                {"key": key_, "diags": _encode(diags, display)},
                ensure_ascii=True,  # lone surrogates from odd sources survive the round trip
                separators=(",", ":"),
            ).encode("ascii")
        except (TypeError, ValueError):  # a field JSON cannot hold: not cached
            return
        self._write(key_, data)

    def _write(self, key_: str, data: bytes) -> None:
        if not self._ready and not self.create:
            if not os.path.isdir(self.root):
                self._broken = True  # quietly: this run was not asked to make a cache
                return
            self._ready = True
        folder = os.path.dirname(self.path(key_))
        try:
            if not self._ready:
                self._prepare()
            os.makedirs(folder, exist_ok=True)
            # disposable entries: no fsync, no mode; `.tmp-` names are what prune() sweeps
            write_atomic(self.path(key_), data, prefix=".tmp-", suffix="", durable=False)
        except OSError as exc:
            self._broken = True  # read-only or full: lint on, without caching
            print(
                f"jaxlint: warning: cannot write the cache in {self.directory}: {exc.strerror or exc}; "
                "continuing without it (--no-cache silences this)",
                file=sys.stderr,
            )
            return
        self.stats["writes"] += 1

    def _prepare(self) -> None:
        os.makedirs(self.root, exist_ok=True)
        for name, text in (
            (".gitignore", "# created by jaxlint\n*\n"),
            ("CACHEDIR.TAG", _CACHEDIR_TAG),
        ):
            target = os.path.join(self.directory, name)
            if not os.path.exists(target):
                try:
                    with open(target, "x", encoding="utf-8") as fh:
                        fh.write(text)
                except OSError:
                    pass
        self._ready = True

    # -- pruning ------------------------------------------------------------------------------

    def maybe_prune(self) -> None:
        """After a run that wrote entries; at most once per PRUNE_EVERY_S for all runs."""
        if self._broken or not self.stats["writes"]:
            return
        stamp = os.path.join(self.root, "last-prune")
        try:
            if time.time() - os.stat(stamp).st_mtime < PRUNE_EVERY_S:
                return
        except OSError:
            pass
        try:
            with open(stamp, "w", encoding="utf-8") as fh:
                fh.write(f"{time.time():.0f}\n")
        except OSError:
            return
        prune(self.directory)


# -- digests trusted by stat ------------------------------------------------------------------

DIGESTS_FORMAT = 1
# a file whose mtime or ctime is this close to the moment it was read is not recorded: a
# write in the same tick of a coarse clock (1-2 s on some file systems) would keep its stat
RACY_NS = 2_000_000_000
MAX_DIGESTS = 200_000
# what a row also says about the bytes, for scans that would read every file for a word
FLAG_X64 = 1  # they hold `jax_enable_x64` or `JAX_ENABLE_X64` (analysis/x64.py's scan)
_ROW = 7


def _digests_key() -> str:
    return hashlib.sha256(f"jaxlint-digests {FORMAT} {DIGESTS_FORMAT}".encode()).hexdigest()


def _stat_row(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


class Digests:
    """The SHA-256 of each file's bytes, trusted while the file's stat is the one recorded
    with it: size, mtime, ctime and inode (in ns), so a run that changes nothing reads no file.

    Every key stays a content hash (`key_for`, the project index's fingerprint and summary
    keys); only how the hash is known changes. A file is read and hashed again when any of
    the four differ: an edit changes the mtime and the ctime (the kernel sets the ctime on
    every write, and `os.utime` cannot set it back), an atomic replace the inode. As with
    ruff's cache, an edit that keeps all four is not seen: that needs a file system whose
    clock did not move between two writes of the same size, which `RACY_NS` rules out for
    files written up to two seconds before they were read (those are not recorded; the next
    run hashes them again).

    One table per cache folder (a `put_data` entry, absolute path -> [size, mtime_ns,
    ctime_ns, inode, hex digest, day last seen, flags]; the flags say which words the bytes
    hold, `FLAG_X64`), read once per run and written back by
    `save` when rows changed, merged with what another run may have written meanwhile;
    rows unseen for `MAX_AGE_DAYS` are dropped. Pool workers never save (forked copies)."""

    def __init__(self, cache: Cache) -> None:
        self.cache = cache
        self._table: dict[str, list] | None = None
        self._new: dict[str, list] = {}
        self._today = int(time.time() // 86400)

    def _load(self) -> dict[str, list]:
        data = self.cache.get_data(_digests_key())
        table = data.get("files") if isinstance(data, dict) else None
        if not isinstance(table, dict) or data.get("format") != DIGESTS_FORMAT:  # type: ignore[union-attr]
            table = {}
        return table

    def _row(self, path: str) -> tuple[str, list] | None:
        """(absolute path, its row) when the file's stat is the recorded one."""
        if self._table is None:
            self._table = self._load()
        path = os.path.abspath(path)
        row = self._new.get(path) or self._table.get(path)
        if not isinstance(row, list) or len(row) != _ROW:
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None
        if _stat_row(st) != row[:4]:
            return None
        return path, row

    def known(self, path: str) -> bytes | None:
        """The digest of the file's bytes when its stat is the recorded one; None: read it
        (`read`)."""
        found = self._row(path)
        if found is None:
            return None
        path, row = found
        try:
            digest = bytes.fromhex(row[4])
        except (TypeError, ValueError):
            return None
        if len(digest) != 32:
            return None
        if row[5] != self._today and path not in self._new:
            row = self._new[path] = [*row[:5], self._today, row[6]]  # kept MAX_AGE_DAYS more
        return digest

    def lacks_x64(self, path: str) -> bool:
        """The file's bytes hold neither `jax_enable_x64` nor `JAX_ENABLE_X64`: from its row
        when the stat is the recorded one, else from its bytes, read here and recorded (the
        next run asks the stat only). False when it cannot be read."""
        found = self._row(path)
        if found is not None and isinstance(found[1][6], int):
            return not found[1][6] & FLAG_X64
        try:
            data, _ = self.read(path)
        except OSError:
            return False
        return not (b"jax_enable_x64" in data or b"JAX_ENABLE_X64" in data)

    def read(self, path: str) -> tuple[bytes, bytes]:
        """The file's bytes and their digest, recorded with the stat of the file read (the
        stat taken on the open file, before its bytes: a write after it changes the stat).
        Raises OSError."""
        now = time.time_ns()
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            data = fh.read()
        digest = hashlib.sha256(data).digest()
        self.record(path, st, data, digest, now)
        return data, digest

    def record(
        self, path: str, st: os.stat_result, data: bytes, digest: bytes, now_ns: int
    ) -> None:
        """Record `digest` as the hash of `data`, read from `path` with stat `st` at `now_ns`
        (not when the file was written within `RACY_NS` of that)."""
        path = os.path.abspath(path)
        if max(st.st_mtime_ns, st.st_ctime_ns) >= now_ns - RACY_NS:
            self._new.pop(path, None)
            return
        flags = FLAG_X64 if b"jax_enable_x64" in data or b"JAX_ENABLE_X64" in data else 0
        self._new[path] = [*_stat_row(st), digest.hex(), self._today, flags]

    def digest(self, path: str) -> bytes | None:
        """`known`, else `read`'s digest; None when the file cannot be read."""
        found = self.known(path)
        if found is not None:
            return found
        try:
            return self.read(path)[1]
        except OSError:
            return None

    def save(self) -> None:
        """Write the rows recorded or refreshed by this run into the table (merged with the
        table as it is now on disk: another run may have saved since this one read it)."""
        if not self._new:
            return
        table = self._load()
        table.update(self._new)
        old = self._today - MAX_AGE_DAYS
        table = {
            p: r for p, r in table.items() if isinstance(r, list) and len(r) == _ROW and r[5] >= old
        }
        if len(table) > MAX_DIGESTS:  # the most recently seen
            table = dict(sorted(table.items(), key=lambda it: -it[1][5])[: MAX_DIGESTS * 3 // 4])
        self.cache.put_data(_digests_key(), {"format": DIGESTS_FORMAT, "files": table})
        self._table = table
        self._new = {}


def prune(
    directory: str,
    max_entries: int = MAX_ENTRIES,
    max_bytes: int = MAX_BYTES,
    max_age_days: float = MAX_AGE_DAYS,
    now: float | None = None,
) -> int:
    """Delete entries unused for `max_age_days`, then the least recently used down to 3/4 of
    either bound when one is exceeded, plus leftover temporary files. Returns how many went."""
    now = time.time() if now is None else now
    root = os.path.join(directory, f"v{FORMAT}")
    entries: list[tuple[float, int, str]] = []
    removed = 0
    try:
        shards = list(os.scandir(root))
    except OSError:
        return 0
    for shard in shards:
        if not shard.is_dir(follow_symlinks=False):
            continue
        try:
            items = list(os.scandir(shard.path))
        except OSError:
            continue
        for item in items:
            try:
                st = item.stat(follow_symlinks=False)
            except OSError:
                continue
            old = now - st.st_mtime
            if item.name.startswith(".tmp-"):
                if old > STALE_TMP_S:
                    removed += _unlink(item.path)
                continue
            if old > max_age_days * 86400:
                removed += _unlink(item.path)
                continue
            entries.append((st.st_mtime, st.st_size, item.path))
    total = sum(size for _, size, _ in entries)
    if len(entries) > max_entries or total > max_bytes:
        entries.sort()  # oldest use first
        keep_n, keep_b = max_entries * 3 // 4, max_bytes * 3 // 4
        n = len(entries)
        for _, size, path in entries:
            if n <= keep_n and total <= keep_b:
                break
            removed += _unlink(path)
            n -= 1
            total -= size
    return removed


def _unlink(path: str) -> int:
    try:
        os.unlink(path)
        return 1
    except OSError:
        return 0
