"""The path shortcuts a warm run leans on answer what the general `os.path` calls answer.

`display_path` and `config._relative` slice a prefix off a path under the current folder (or
the config root) instead of asking `relpath`, discovery keys a named file by its folder's real
path, and `module_names` can share a memo of package chains; a warm run asks these for every
file of the project several times."""

from __future__ import annotations

import os

import pytest

from jaxlint.analysis.project_data import module_names
from jaxlint.core.config import ConfigResolver, _relative
from jaxlint.files.discover import discover, display_path


def _old_display(path: str) -> str:
    path = os.path.normpath(path)
    if os.path.isabs(path):
        rel = os.path.relpath(path)
        if not rel.startswith(".."):
            return rel
    return path


@pytest.mark.parametrize(
    "rel",
    ["a.py", "pkg/a.py", "./pkg//a.py", ".", "", "../x.py", "pkg/../b.py"],
)
def test_display_path_matches_relpath(tmp_path, monkeypatch, rel):
    monkeypatch.chdir(tmp_path)
    for path in (rel or ".", os.path.join(str(tmp_path), rel)):
        assert display_path(path) == _old_display(path)
    # a sibling whose name starts with the current folder's name is outside it
    sibling = str(tmp_path) + "-other/a.py"
    assert display_path(sibling) == _old_display(sibling) == sibling
    assert display_path("/") == _old_display("/")


@pytest.mark.parametrize(
    ("path", "root"),
    [
        ("/a/b/c.py", "/a"),
        ("/a/b/c.py", "/a/"),
        ("/a/b", "/a/b"),
        ("/a/bc/d.py", "/a/b"),
        ("/x/y.py", "/a/b"),
        ("/a/b/c.py", "/"),
        ("/a/./b/../c.py", "/a"),
    ],
)
def test_relative_matches_relpath(path, root):
    expected = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    assert _relative(path, root) == expected.replace(os.sep, "/")


def test_relative_of_relative_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _relative("pkg/m.py", ".") == "pkg/m.py"
    assert _relative("pkg/m.py", str(tmp_path / "pkg")) == "m.py"
    assert _relative("m.py", str(tmp_path / "pkg")) == "../m.py"


def test_named_files_keyed_by_real_path(tmp_path):
    real = tmp_path / "real"
    (real / "pkg").mkdir(parents=True)
    (real / "pkg" / "m.py").write_text("x = 1\n")
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    (tmp_path / "alias.py").symlink_to(real / "pkg" / "m.py")
    resolver = ConfigResolver()
    given = [
        str(real / "pkg" / "m.py"),
        str(tmp_path / "link" / "pkg" / "m.py"),  # the same file through a linked folder
        str(tmp_path / "alias.py"),  # the same file through a linked file
    ]
    found = discover(given, resolver.for_path)
    assert [p for p, _ in found.files] == [given[0]]
    # and a walk of the folder after naming the file does not list it twice
    found = discover([given[1], str(real)], resolver.for_path)
    assert [p for p, _ in found.files] == [given[1]]


def test_module_names_memo_changes_nothing(tmp_path):
    (tmp_path / "top" / "pkg" / "sub").mkdir(parents=True)
    for d in ("top/pkg", "top/pkg/sub"):
        (tmp_path / d / "__init__.py").write_text("")
    files = [
        tmp_path / "top" / "pkg" / "sub" / "m.py",
        tmp_path / "top" / "pkg" / "sub" / "__init__.py",
        tmp_path / "top" / "pkg" / "n.py",
        tmp_path / "top" / "script.py",
        tmp_path / "top" / "src" / "lib" / "k.py",
    ]
    memo: dict[str, list[str]] = {}
    root = str(tmp_path / "top")
    for f in files + files:
        assert module_names(str(f), root, memo) == module_names(str(f), root)
    assert module_names(str(files[0]), root, memo) == (["pkg.sub.m"], False)
    assert module_names(str(files[1]), root, memo) == (["pkg.sub"], True)
