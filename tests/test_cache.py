"""The result cache: keys, round trips with fixes, corruption, concurrent writers, pruning,
invalidation, location, and `--fix` through the cache."""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import time

import pytest

from jaxlint.core.config import Settings
from jaxlint.engine import LintOptions, lint_text
from jaxlint.run import cache as result_cache
from tests.conftest import snippet

FIXABLE = snippet(
    """
    import jax

    def f(tree):
        return jax.tree_map(lambda x: x + 1, tree)
    """
)
CLEAN = "import jax\n\nx = 1\n"


def _diags(text: str = FIXABLE, path: str = "a.py"):
    return lint_text(text, path, LintOptions())


def _salt(settings: Settings | None = None, codes=("JAX801",)) -> bytes:
    return result_cache.salt(settings or Settings(), codes)


# -- entries ------------------------------------------------------------------------------------


def test_round_trip_keeps_fixes(tmp_path):
    diags = _diags()
    assert any(d.fix is not None for d in diags), "the sample needs a fixable finding"
    c = result_cache.Cache(str(tmp_path / "c"))
    k = result_cache.key(FIXABLE.encode(), _salt(), "a.py")
    assert c.get(k, "a.py") is None
    c.put(k, diags, "a.py")
    assert c.get(k, "a.py") == diags
    # the path is not stored: the same entry answers for the display path asked
    assert c.get(k, "b.py") == [d.with_path("b.py") for d in diags]
    assert c.stats == {"hits": 2, "misses": 1, "writes": 1}


def test_odd_text_round_trips(tmp_path):
    from jaxlint.core.diagnostic import Diagnostic, Edit, Fix, Position, Span

    d = Diagnostic(
        code="JAX101",
        message='caf\u00e9 \U0001d11e \udcff "quoted"\n',
        path="x.py",
        span=Span.of(3, 4, 5, 6),
        name="n",
        fix=Fix((Edit(Position(1, 0), Position(1, 2), "\u00e9\udcff"),), "unsafe", "m"),
        cell=2,
        severity="error",
        notes=("a", "b"),
        confidence="medium",
    )
    c = result_cache.Cache(str(tmp_path))
    c.put("ab" * 32, [d], "x.py")
    assert c.get("ab" * 32, "x.py") == [d]
    for f in dataclasses.fields(Diagnostic):  # a field added later needs a value here
        if f.name not in ("code", "message", "path", "span"):
            assert getattr(d, f.name) != f.default, f"give `{f.name}` a non-default value"


def test_fields_json_cannot_hold_are_not_cached(tmp_path):
    import dataclasses as dc

    d = dc.replace(_diags()[0], notes=(object(),))  # type: ignore[arg-type]
    c = result_cache.Cache(str(tmp_path))
    c.put("ac" * 32, [d], "a.py")
    assert c.get("ac" * 32, "a.py") is None


@pytest.mark.parametrize(
    "garbage",
    [b"", b"\x00\xff garbage", b'{"key": "x", "diags": []}', b"[1, 2", b'{"key": null}'],
)
def test_damaged_entry_is_a_miss_and_is_rewritten(tmp_path, garbage):
    c = result_cache.Cache(str(tmp_path))
    k = result_cache.key(b"x = 1\n", _salt(), "a.py")
    c.put(k, _diags(), "a.py")
    with open(c.path(k), "wb") as fh:
        fh.write(garbage)
    assert c.get(k, "a.py") is None
    c.put(k, _diags(), "a.py")
    assert c.get(k, "a.py") == _diags()


def test_wrong_shape_rows_are_a_miss(tmp_path):
    c = result_cache.Cache(str(tmp_path))
    k = "cd" * 32
    os.makedirs(os.path.dirname(c.path(k)))
    with open(c.path(k), "w") as fh:
        json.dump({"key": k, "diags": [{"code": "JAX101", "message": "m"}]}, fh)
    assert c.get(k, "a.py") is None


def test_internal_errors_are_not_cached(tmp_path):
    from jaxlint.core.diagnostic import internal_error

    c = result_cache.Cache(str(tmp_path))
    c.put("ef" * 32, [internal_error("a.py", "internal error in rule JAX101: boom")], "a.py")
    assert c.get("ef" * 32, "a.py") is None
    c.put("ef" * 32, [internal_error("a.py", "could not parse: invalid syntax")], "a.py")
    assert c.get("ef" * 32, "a.py") is not None


def test_unwritable_cache_warns_once_and_lints_on(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    c = result_cache.Cache(str(blocker / "cache"))
    c.put("01" * 32, _diags(), "a.py")
    c.put("02" * 32, _diags(), "a.py")
    err = capsys.readouterr().err
    assert err.count("cannot write the cache") == 1


# -- keys ---------------------------------------------------------------------------------------


def test_key_changes_with_content_path_settings_rules_and_version(monkeypatch):
    base = result_cache.key(b"x = 1\n", _salt(), "a.py")
    assert result_cache.key(b"x = 1\n", _salt(), "a.py") == base
    assert result_cache.key(b"x = 2\n", _salt(), "a.py") != base
    assert result_cache.key(b"x = 1\n", _salt(), "b.py") != base
    for settings in (
        Settings(select=("JAX1",)),
        Settings(ignore=("JAX801",)),
        Settings(jit_decorators=("m.jit",)),
        Settings(per_file_ignores=(("a.py", ("JAX8",)),)),
        Settings(options=(("unroll-threshold", 3),)),
    ):
        assert result_cache.key(b"x = 1\n", _salt(settings), "a.py") != base, settings
    assert result_cache.key(b"x = 1\n", _salt(codes=("JAX801", "JAX101")), "a.py") != base
    assert result_cache.salt(Settings(), ["JAX801"], kind="ipynb") != _salt()
    assert result_cache.salt(Settings(), ["JAX801"], verbose=True) != _salt()
    assert result_cache.salt(Settings(), ["JAX801"], apply_noqa=False) != _salt()
    monkeypatch.setattr(result_cache, "__version__", "999.0")
    assert result_cache.key(b"x = 1\n", _salt(), "a.py") != base
    monkeypatch.undo()
    monkeypatch.setattr(result_cache, "_CODE", "another build of jaxlint")
    assert result_cache.key(b"x = 1\n", _salt(), "a.py") != base


def test_code_fingerprint_follows_the_sources(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg"
    (pkg / "run").mkdir(parents=True)
    (pkg / "run" / "cache.py").write_text("# a\n")
    (pkg / "rule.py").write_text("A = 1\n")
    monkeypatch.setattr(result_cache, "__file__", str(pkg / "run" / "cache.py"))
    first = result_cache._code_fingerprint()
    os.utime(pkg / "rule.py", (0, 0))
    assert result_cache._code_fingerprint() == first  # mtimes do not matter
    (pkg / "rule.py").write_text("A = 2\n")
    assert result_cache._code_fingerprint() != first


# -- concurrency --------------------------------------------------------------------------------


def _writer(directory: str, keys: list[str], rounds: int) -> None:
    c = result_cache.Cache(directory)
    diags = _diags()
    for _ in range(rounds):
        for k in keys:
            c.put(k, diags, "a.py")


def test_concurrent_writers_never_expose_half_an_entry(tmp_path):
    directory = str(tmp_path / "c")
    keys = [result_cache.key(str(i).encode(), _salt(), "a.py") for i in range(20)]
    ctx = multiprocessing.get_context("fork")
    writers = [ctx.Process(target=_writer, args=(directory, keys, 30)) for _ in range(2)]
    for w in writers:
        w.start()
    reader = result_cache.Cache(directory)
    expected = _diags()
    seen = 0
    while any(w.is_alive() for w in writers):
        for k in keys:
            got = reader.get(k, "a.py")
            if got is not None:
                assert got == expected
                seen += 1
    for w in writers:
        w.join()
        assert w.exitcode == 0
    assert all(reader.get(k, "a.py") == expected for k in keys)
    leftovers = [n for _, _, files in os.walk(directory) for n in files if n.startswith(".tmp-")]
    assert leftovers == []


def test_two_processes_linting_the_same_files(tmp_path, run_cli):
    for i in range(12):
        (tmp_path / f"m{i}.py").write_text(FIXABLE if i % 2 else CLEAN)
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "jaxlint", "check", "--cache-dir", "cc", "-j", "2", "."]
    procs = [
        subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert outs[0][0] == outs[1][0]
    again = run_cli("check", "--cache-dir", "cc", ".", cwd=tmp_path)
    assert again.stdout.encode() == outs[0][0]


# -- pruning ------------------------------------------------------------------------------------


def _fill(c: result_cache.Cache, n: int) -> list[str]:
    keys = []
    for i in range(n):
        k = result_cache.key(str(i).encode(), _salt(), "a.py")
        c.put(k, [], "a.py")
        keys.append(k)
    return keys


def test_prune_by_age_and_lru(tmp_path):
    c = result_cache.Cache(str(tmp_path))
    keys = _fill(c, 10)
    now = time.time()
    for i, k in enumerate(keys):  # key i last used i days ago
        os.utime(c.path(k), (now - i * 86400, now - i * 86400))
    assert result_cache.prune(str(tmp_path), max_age_days=5.5, now=now) == 4
    assert [os.path.exists(c.path(k)) for k in keys] == [True] * 6 + [False] * 4
    # over the bound: least recently used go first, down to 3/4 of it
    removed = result_cache.prune(str(tmp_path), max_entries=4, now=now)
    assert removed == 3
    assert [os.path.exists(c.path(k)) for k in keys[:6]] == [True] * 3 + [False] * 3


def test_prune_removes_stale_temporary_files_only(tmp_path):
    c = result_cache.Cache(str(tmp_path))
    (key,) = _fill(c, 1)
    shard = os.path.dirname(c.path(key))
    old, fresh = os.path.join(shard, ".tmp-old"), os.path.join(shard, ".tmp-new")
    for p in (old, fresh):
        open(p, "w").close()
    os.utime(old, (0, 0))
    result_cache.prune(str(tmp_path))
    assert not os.path.exists(old) and os.path.exists(fresh)


def test_hit_refreshes_an_old_entry(tmp_path):
    c = result_cache.Cache(str(tmp_path))
    (key,) = _fill(c, 1)
    os.utime(c.path(key), (0, 0))
    assert c.get(key, "a.py") == []
    assert time.time() - os.stat(c.path(key)).st_mtime < 60


def test_maybe_prune_runs_at_most_hourly(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(result_cache, "prune", lambda d: calls.append(d) or 0)
    c = result_cache.Cache(str(tmp_path))
    _fill(c, 1)
    c.maybe_prune()
    c.maybe_prune()
    assert calls == [str(tmp_path)]


# -- location and CLI ---------------------------------------------------------------------------


def test_default_location(tmp_path, monkeypatch):
    monkeypatch.delenv("JAXLINT_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert result_cache.default_dir(None) == os.path.join(str(tmp_path), ".jaxlint_cache")
    cfg = tmp_path / "proj" / "pyproject.toml"
    cfg.parent.mkdir()
    cfg.write_text("[tool.jaxlint]\n")
    s = Settings(config_file=str(cfg))
    assert result_cache.default_dir(s) == str(tmp_path / "proj" / ".jaxlint_cache")
    cfg.write_text('[tool.jaxlint]\ncache-dir = "build/lint"\n')
    assert result_cache.default_dir(s) == str(tmp_path / "proj" / "build" / "lint")
    monkeypatch.setenv("JAXLINT_CACHE_DIR", "/env/cache")
    assert result_cache.default_dir(s) == "/env/cache"
    assert result_cache.default_dir(s, "/explicit") == "/explicit"


def test_cli_caches_beside_the_config_and_no_cache_writes_nothing(tmp_path, run_cli):
    proj = tmp_path / "proj"
    (proj / "src").mkdir(parents=True)
    (proj / "pyproject.toml").write_text("[tool.jaxlint]\n")
    (proj / "src" / "m.py").write_text(FIXABLE)
    first = run_cli("check", "--no-cache", "src", cwd=proj)
    assert not (proj / ".jaxlint_cache").exists()
    cold = run_cli("check", "src", cwd=proj)
    assert (proj / ".jaxlint_cache" / "v1").is_dir()
    assert (proj / ".jaxlint_cache" / ".gitignore").read_text().strip().endswith("*")
    assert (proj / ".jaxlint_cache" / "CACHEDIR.TAG").exists()
    warm = run_cli("check", "src", cwd=proj)
    assert first.stdout == cold.stdout == warm.stdout
    assert first.returncode == cold.returncode == warm.returncode == 1


def test_cli_invalidates_on_content_and_config_change(tmp_path, run_cli):
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\n")
    m = tmp_path / "m.py"
    m.write_text(FIXABLE)
    assert "JAX801" in run_cli("check", "m.py").stdout
    assert "JAX801" in run_cli("check", "m.py").stdout  # a hit
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nignore = ["JAX801"]\n')
    assert "JAX801" not in run_cli("check", "m.py").stdout
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\n")
    m.write_text(CLEAN)
    out = run_cli("check", "m.py")
    assert out.returncode == 0 and "JAX801" not in out.stdout


def test_fix_goes_through_the_cache(tmp_path, run_cli):
    m = tmp_path / "m.py"
    m.write_text(FIXABLE)
    run_cli("check", "--cache-dir", "c", "m.py")  # cached: a finding with a safe fix
    fixed = run_cli("check", "--cache-dir", "c", "--fix", "m.py")
    assert "jax.tree.map" in m.read_text(), fixed.stdout + fixed.stderr
    after = run_cli("check", "--cache-dir", "c", "m.py")
    nocache = run_cli("check", "--no-cache", "m.py")
    assert after.stdout == nocache.stdout and after.returncode == nocache.returncode


def test_fix_skips_files_whose_cached_findings_have_no_fix(tmp_path, monkeypatch):
    from jaxlint.files import driver
    from jaxlint.run import parallel

    m = tmp_path / "m.py"
    m.write_text(CLEAN)
    c = result_cache.Cache(str(tmp_path / "c"))
    opts = LintOptions()
    parallel.fix_file_cached(c, str(m), "m.py", opts, unsafe=False, write=True)
    monkeypatch.setattr(driver, "fix_file", lambda *a, **k: pytest.fail("not skipped"))
    result = parallel.fix_file_cached(c, str(m), "m.py", opts, unsafe=False, write=True)
    assert result.remaining == [] and result.diff == ""


def test_fix_uses_but_does_not_create_the_default_cache(tmp_path, run_cli):
    m = tmp_path / "m.py"
    m.write_text(FIXABLE)
    run_cli("check", "--fix", "m.py")
    assert not (tmp_path / ".jaxlint_cache").exists()
    m.write_text(FIXABLE)
    run_cli("check", "m.py")  # creates it
    assert (tmp_path / ".jaxlint_cache").is_dir()
    run_cli("check", "--fix", "m.py")
    assert "jax.tree.map" in m.read_text()
    entries = [f for _, _, fs in os.walk(tmp_path / ".jaxlint_cache" / "v1") for f in fs]
    # before and after the fix, m.py's project-index summary (a linted file is a possible
    # caller of other modules' key helpers) and the index's joined seeds (read by a warm run)
    # (the table of digests trusted by stat, when the files were old enough to be recorded)
    table = result_cache._digests_key()[2:]
    assert len([e for e in entries if e not in ("last-prune", table)]) == 4


# -- digests trusted by stat (a warm run reads no file) -----------------------------------------


def test_digests_trust_the_stat_and_see_an_edit_that_keeps_size_and_mtime(tmp_path, monkeypatch):
    import hashlib

    monkeypatch.setattr(result_cache, "RACY_NS", 0)  # the file was written just now
    m = tmp_path / "m.py"
    m.write_text("x = 1\n")
    first = result_cache.Cache(str(tmp_path / "c"))
    _, digest = first.digests.read(str(m))
    first.digests.save()
    later = result_cache.Cache(str(tmp_path / "c")).digests  # the next run: from the table
    monkeypatch.setattr(
        result_cache.Digests, "read", lambda *a: pytest.fail("read a file whose stat is known")
    )
    assert later.known(str(m)) == digest == hashlib.sha256(b"x = 1\n").digest()
    monkeypatch.undo()
    st = os.stat(m)
    time.sleep(0.05)  # past the file system clock's tick
    m.write_text("x = 2\n")  # the same size ...
    os.utime(m, ns=(st.st_atime_ns, st.st_mtime_ns))  # ... and mtime: the ctime still moved
    assert (os.stat(m).st_size, os.stat(m).st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    assert later.known(str(m)) is None
    assert later.digest(str(m)) == hashlib.sha256(b"x = 2\n").digest()


def test_a_file_written_just_before_it_is_read_is_not_trusted(tmp_path):
    m = tmp_path / "m.py"
    m.write_text("x = 1\n")  # now: a write in the same clock tick would keep its stat
    c = result_cache.Cache(str(tmp_path / "c"))
    c.digests.read(str(m))
    assert c.digests.known(str(m)) is None
    c.digests.save()
    assert not (tmp_path / "c").exists()  # nothing to record


def _project(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\n')
    (tmp_path / "helpers.py").write_text(  # n_rows returns a Python int: static under jit
        "import jax.numpy as jnp\n\n\ndef n_rows(x) -> int:\n    return x.shape[0]\n\n\n"
        "def g(x):\n    return jnp.sum(x)\n"
    )
    (tmp_path / "main.py").write_text(
        "import jax\nfrom helpers import n_rows\n\n\n@jax.jit\ndef f(x):\n"
        "    if n_rows(x) > 2:\n        return x\n    return x * 2\n"
    )


def test_a_warm_run_reads_no_file_and_an_edit_is_seen(tmp_path, monkeypatch, capsys):
    """With the stats recorded, a run that changes nothing reads none of the project's files
    (the results, the project index's fingerprint and its joined seeds all come from the
    digests the stats vouch for); an edit that moves the mtime gives fresh findings, also
    in a file whose seeds come from the edited one."""
    from jaxlint import project_index
    from jaxlint.cli import main

    monkeypatch.setattr(result_cache, "RACY_NS", 0)
    _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    argv = ["check", "--preview", "--select", "JAX110", "--cache-dir", str(tmp_path / "c"), "."]
    main(argv)
    cold = capsys.readouterr().out
    assert "main.py" not in cold  # n_rows returns a Python int: the branch is static
    reads: list[str] = []
    real_read = result_cache.Digests.read
    monkeypatch.setattr(
        result_cache.Digests, "read", lambda self, p: reads.append(p) or real_read(self, p)
    )
    monkeypatch.setattr(  # the index's slow path decodes every file
        project_index, "decode_source", lambda *a: pytest.fail("the index read a module")
    )
    main(argv)
    assert capsys.readouterr().out == cold and reads == []
    monkeypatch.undo()
    monkeypatch.setattr(result_cache, "RACY_NS", 0)
    monkeypatch.chdir(tmp_path)
    time.sleep(0.05)
    (tmp_path / "helpers.py").write_text(
        "import jax.numpy as jnp\n\n\ndef n_rows(x):\n    return jnp.sum(x)\n"  # an array now
    )
    main(argv)
    warm = capsys.readouterr().out
    main([*argv[:4], "--no-cache", "."])
    assert warm == capsys.readouterr().out
    assert "main.py" in warm  # the branch on an array under jit
