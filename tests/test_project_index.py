"""The project index: a helper of `losses.py` called from a jitted step in `train.py` is traced.

`tests/data/project_index/` is a small package (relative and absolute imports, a re-export
through `pkg/__init__.py`, a near miss called only with Python ints). `jaxlint check`, the
flake8 plugin (a real subprocess) and the LSP report the same; the cache re-lints a file
whose incoming seeds changed.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from jaxlint.analysis import ModuleFacts
from jaxlint.analysis.project import ProjectIndex, Seed, module_names, summarize
from jaxlint.analysis.seed_keys import BOOL_HELPERS, PASSED_ARGUMENTS, STATIC_HELPERS
from jaxlint.project_index import build_index, project_files, project_root

DATA = Path(__file__).parent / "data" / "project_index"
LOSS_CHAIN = "traced via train.train_step() -> losses.loss_fn()"

# flake8 is a dev extra: without it these comparisons skip, like the JAX-dependent tests.
needs_flake8 = pytest.mark.skipif(
    importlib.util.find_spec("flake8") is None, reason="flake8 not installed"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    dest = tmp_path / "proj"
    shutil.copytree(DATA, dest, ignore=shutil.ignore_patterns(".jaxlint_cache", "__pycache__"))
    return dest


def _check(run_cli, root: Path, *extra: str) -> list[dict]:
    proc = run_cli("check", "--format", "json", *extra, "pkg", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def _traced(seeds: dict) -> dict:
    """The seeds that make functions traced (not the kind entries of analysis/kinds.py:
    what imported helpers return, what other modules pass)."""
    return {
        k: v for k, v in seeds.items() if k not in (STATIC_HELPERS, PASSED_ARGUMENTS, BOOL_HELPERS)
    }


def _found(diags: list[dict]) -> set[tuple[str, str, int]]:
    return {(Path(d["filename"]).name, d["code"], d["location"]["row"]) for d in diags}


def test_index_seeds_cross_module_helpers(project: Path) -> None:
    from jaxlint.core.config import ConfigResolver

    root = project_root([str(project / "pkg")])
    assert root == str(project)
    files = project_files(root, [], ConfigResolver().for_path)
    index = build_index(files, root, lambda p: ())
    seeds = index.seeds_for(str(project / "pkg" / "losses.py"))
    assert seeds["loss_fn"].positions == (0, 1)
    assert seeds["loss_fn"].chain == ("train.train_step", "losses.loss_fn")
    assert seeds["clip"].positions == (0,)  # the limit is a Python float
    assert "warmup" not in seeds  # called only with Python ints, outside jit
    # `from . import scale` goes through the package's re-export: a package's public API is
    # left alone (library code such as `jnp.where` handles tracers itself)
    assert _traced(index.seeds_for(str(project / "pkg" / "utils.py"))) == {}
    assert index.resolve("pkg.scale", str(project / "pkg" / "train.py")) == (
        str(project / "pkg" / "utils.py"),
        "scale",
    )


def test_no_seeds_between_packages(tmp_path: Path) -> None:
    """Linting two installed packages together: `optax.x` calling `jax.y` seeds nothing."""
    for pkg in ("liba", "libb"):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "__init__.py").write_text("")
    (tmp_path / "liba" / "core.py").write_text("def f(x):\n    if x > 0:\n        return x\n")
    (tmp_path / "libb" / "step.py").write_text(
        "import jax\nfrom liba import core\n\n\n@jax.jit\ndef g(x):\n    return core.f(x)\n"
    )
    files = [str(p) for p in tmp_path.rglob("*.py")]
    assert build_index(files, None, lambda p: ()).seeds() == {}


def test_seeded_function_is_medium_confidence_with_chain(project: Path) -> None:
    text = (project / "pkg" / "losses.py").read_text()
    seed = Seed("jit", "jax.jit", (0, 1), (), ("train.train_step", "losses.loss_fn"))
    facts = ModuleFacts(ast.parse(text), (), {"loss_fn": seed})
    fn = next(n for n in facts.tree.body if getattr(n, "name", "") == "loss_fn")
    got = facts.function_facts(fn)
    assert got is not None and got.confidence == "medium" and got.is_jit
    assert got.traced_params == {"params", "batch"}
    assert got.describe() == LOSS_CHAIN


def test_check_reports_in_losses_with_the_chain(project: Path, run_cli) -> None:
    diags = _check(run_cli, project, "--no-cache")
    assert _found(diags) == {("losses.py", "JAX101", 6), ("losses.py", "JAX110", 11)}
    loss = next(d for d in diags if d["code"] == "JAX101")
    assert LOSS_CHAIN in loss["message"]
    assert _check(run_cli, project, "--no-cache", "--no-project-index") == []


def test_preview_findings_leave_the_default_run(project: Path, run_cli) -> None:
    """The project's pyproject turns preview on: JAX110 is in preview, and so is JAX101 at
    medium confidence (preview after the v13 check set), which a finding seeded through the
    project index has, so the default selection reports neither, seeded or not."""
    assert _check(run_cli, project, "--no-cache", "--no-preview") == []
    (project / "pyproject.toml").write_text('[project]\nname = "pkg"\nversion = "0"\n')
    assert _check(run_cli, project, "--no-cache") == []
    preview = _check(run_cli, project, "--no-cache", "--preview")
    assert sorted(d["code"] for d in preview) == ["JAX101", "JAX110"]


def test_linting_one_file_indexes_its_project(project: Path, run_cli) -> None:
    proc = run_cli("check", "--format", "json", "--no-cache", "pkg/losses.py", cwd=project)
    assert _found(json.loads(proc.stdout)) == {
        ("losses.py", "JAX101", 6),
        ("losses.py", "JAX110", 11),
    }


def test_cache_relints_when_the_caller_changes(project: Path, run_cli) -> None:
    cache = ["--cache-dir", str(project / "cache")]
    assert len(_check(run_cli, project, *cache)) == 2
    assert len(_check(run_cli, project, *cache)) == 2  # warm: same answer
    train = project / "pkg" / "train.py"
    train.write_text(train.read_text().replace("@jax.jit\n", ""))
    assert _check(run_cli, project, *cache) == []  # losses.py unchanged, its seeds gone
    train.write_text(train.read_text().replace("def train_step", "@jax.jit\ndef train_step"))
    assert len(_check(run_cli, project, *cache)) == 2


def test_static_arguments_do_not_seed(tmp_path: Path) -> None:
    """Regression: a helper of another module called from jit with Python values only."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "helpers.py").write_text(
        "def ramp(step, total):\n    if step < total:\n        return float(step)\n    return 1.0\n"
    )
    (tmp_path / "main.py").write_text(
        "import jax\nfrom helpers import ramp\n\n\n"
        "@jax.jit\ndef f(x):\n    return x * ramp(3, 10)\n"
    )
    index = build_index(
        [str(tmp_path / "helpers.py"), str(tmp_path / "main.py")], str(tmp_path), lambda p: ()
    )
    assert {p: s for p, s in ((p, _traced(s)) for p, s in index.seeds().items()) if s} == {}


def test_flax_call_methods_do_not_seed() -> None:
    """`__call__` of a flax Module is traced only when applied: too weak to seed others."""
    tree = ast.parse(
        "import flax.linen as nn\nfrom pkg import helpers\n\n\n"
        "class M(nn.Module):\n    def __call__(self, x):\n        return helpers.h(x)\n"
    )
    assert summarize(ModuleFacts(tree), "pkg.model", False).outgoing == []


def test_module_names(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    for rel in ("pkg/__init__.py", "pkg/sub/__init__.py", "pkg/sub/m.py", "script.py"):
        (tmp_path / rel).write_text("")
    assert module_names(str(tmp_path / "pkg/sub/m.py"), str(tmp_path)) == (["pkg.sub.m"], False)
    assert module_names(str(tmp_path / "pkg/__init__.py")) == (["pkg"], True)
    assert module_names(str(tmp_path / "script.py"), str(tmp_path))[0] == ["script"]


def test_ambiguous_module_names_resolve_to_the_importers_folder(tmp_path: Path) -> None:
    index = ProjectIndex()
    for folder in ("a", "b"):
        index.add_module(str(tmp_path / folder / "utils.py"), ["utils"], None)
    assert index.resolve("utils.f", str(tmp_path / "a" / "run.py")) == (
        str(tmp_path / "a" / "utils.py"),
        "f",
    )
    assert index.resolve("utils.f", str(tmp_path / "c" / "run.py")) is None


@needs_flake8
def test_flake8_reports_the_same(project: Path, run_cli) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "JAX", "pkg/losses.py"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    got = set()
    for line in proc.stdout.splitlines():
        path, row, _col, rest = line.split(":", 3)
        got.add((Path(path).name, rest.split()[0], int(row)))
        if "JAX101" in rest:
            assert LOSS_CHAIN in rest
    assert got == _found(_check(run_cli, project, "--no-cache")), proc.stderr


def test_fix_and_stdin_see_the_seeds(project: Path, run_cli) -> None:
    """`--diff` and `--stdin-filename` lint with the same seeds as a plain check."""
    losses = project / "pkg" / "losses.py"
    proc = run_cli(
        "check",
        "--format",
        "json",
        "--no-cache",
        "--stdin-filename",
        "pkg/losses.py",
        "-",
        cwd=project,
        input=losses.read_text(),
    )
    assert {d["code"] for d in json.loads(proc.stdout)} == {"JAX101", "JAX110"}, proc.stderr
    # the fix path sees the seeds too: the JAX101 in losses.py is found there, and its
    # `.astype(float)` rewrite is a display-only suggestion, so it stays after --fix
    proc = run_cli(
        "check", "--fix", "--unsafe-fixes", "--no-cache", "--format", "json", "pkg", cwd=project
    )
    left = [d for d in json.loads(proc.stdout) if d["code"] == "JAX101"]
    assert left and left[0]["fix"]["applicability"] == "display-only", proc.stdout + proc.stderr


def test_pool_and_cache_agree_with_serial(project: Path, tmp_path: Path, monkeypatch) -> None:
    """Cold: linted first without seeds (summaries from the same facts), seeded files again."""
    from jaxlint import api
    from jaxlint.core.config import ConfigResolver
    from jaxlint.files.discover import iter_python_files
    from jaxlint.run import parallel

    monkeypatch.setattr(parallel, "SERIAL_BELOW", 0)
    monkeypatch.setattr(parallel, "SERIAL_BELOW_BYTES", 0)

    def lint(**kw) -> list:
        resolver = ConfigResolver()
        root = str(project / "pkg")
        files = iter_python_files([root], resolver.for_path)
        args = dict(paths=[root], jobs=1, no_cache=True, cache_dir=None, verbose=False)
        args.update(kw)
        diags = api.lint_files(files, resolver, api.RunOptions(**args))
        return sorted((Path(d.path).name, d.code, d.line, d.message) for d in diags)

    serial = lint()
    assert {(f, c) for f, c, _, _ in serial} == {("losses.py", "JAX101"), ("losses.py", "JAX110")}
    cache = str(tmp_path / "cache")
    assert lint(jobs=2) == serial
    assert lint(jobs=2, no_cache=False, cache_dir=cache) == serial
    assert lint(jobs=2, no_cache=False, cache_dir=cache) == serial
    assert lint(jobs=1, no_cache=False, cache_dir=cache) == serial


def test_key_consuming_parameters_are_summarised(tmp_path: Path) -> None:
    """For the PRNG analysis of callers in other modules: which parameters a helper consumes."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "sampling.py").write_text(
        "import jax\n\n\ndef noise(key, shape):\n    return jax.random.normal(key, shape)\n"
    )
    (tmp_path / "main.py").write_text("import sampling\n")
    files = [str(tmp_path / "sampling.py"), str(tmp_path / "main.py")]
    index = build_index(files, str(tmp_path), lambda p: ())
    assert index.consumed_params("sampling.noise", str(tmp_path / "main.py")) == {"key"}
    assert index.consumed_params("sampling.other", str(tmp_path / "main.py")) == frozenset()


def test_merged_seed_names_a_caller_of_its_kind() -> None:
    grad = Seed("grad", "jax.grad", (0,), (), ("a.loss", "b.f"))
    jit = Seed("jit", "jax.jit", (1,), (), ("a.step", "b.f"))
    for merged in (grad.merge(jit), jit.merge(grad)):
        assert (merged.kind, merged.via, merged.chain) == ("jit", "jax.jit", ("a.step", "b.f"))
        assert merged.positions == (0, 1)


def test_seed_bound_literals_join_over_calls() -> None:
    """A seed carries the literals its traced calls bind (`Seed.bound_literals`): a literal
    every call passes alike, or a default no call overrides; two calls that disagree, or one
    with `**kwargs`, leave the parameter unknown. The JSON round trip keeps them, and an old
    five-field row still reads (no literals)."""
    fn = ast.parse("def f(z, backend='jax', n=3, *, mode='a', flag=None):\n    pass\n").body[0]

    def seed(src: str) -> Seed:
        call = ast.parse(src).body[0].value
        return Seed.of_call("jit", "jax.jit", (0,), (), ("m.g",), call)

    left = seed("f(x)")
    assert left.bound_literals(fn) == {"backend": "jax", "n": 3, "mode": "a", "flag": None}
    cpu = seed("f(x, 'cpu', mode='b')")
    assert cpu.bound_literals(fn) == {"backend": "cpu", "n": 3, "mode": "b", "flag": None}
    assert left.merge(cpu).bound_literals(fn) == {"n": 3, "flag": None}
    assert left.merge(seed("f(x, n=3.0)")).bound_literals(fn) == {
        "backend": "jax",
        "mode": "a",
        "flag": None,
    }  # 3 and 3.0 are not one literal here
    assert left.merge(seed("f(x, **kw)")).bound_literals(fn) == {}
    assert seed("f(*xs)").bound_literals(fn) == {}
    assert Seed.from_json(json.loads(json.dumps(cpu.to_json()))) == cpu
    old = Seed.from_json(["jit", "jax.jit", [0], [], ["m.g"]])
    assert old.positions == (0,) and old.bound_literals(fn) == {}


# -- PRNG keys consumed by helpers of other modules (issue 13) ----------------------------------

MODEL = """import jax


def init_mlp(key, sizes):
    return jax.random.normal(key, (sizes[0], sizes[1]))
"""

TRAIN = """import jax
from .model import init_mlp


def reuse():
    key = jax.random.key(0)
    p = init_mlp(key, [2, 3])
    x = jax.random.normal(key, (3,))
    return p, x


def split_first():
    key = jax.random.key(0)
    key, sub = jax.random.split(key)
    p = init_mlp(sizes=[2, 3], key=sub)
    x = jax.random.normal(key, (3,))
    return p, x
"""


@pytest.fixture
def keys_project(tmp_path: Path) -> Path:
    root = tmp_path / "kproj"
    (root / "k").mkdir(parents=True)
    # preview on: a key consumed by a helper is JAX201 at medium confidence, in preview
    (root / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\n")
    (root / "k" / "__init__.py").write_text("")
    (root / "k" / "model.py").write_text(MODEL)
    (root / "k" / "train.py").write_text(TRAIN)
    return root


def _check_keys(run_cli, root: Path, *extra: str) -> list[dict]:
    proc = run_cli("check", "--format", "json", "--select", "JAX201", *extra, "k", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def test_key_consumed_by_a_helper_of_another_module(keys_project: Path, run_cli) -> None:
    """`init_mlp(key, ...)` then `normal(key, ...)`: the second use reuses the key, as when
    `init_mlp` is defined in the same module; splitting first (keyword arguments) is silent."""
    diags = _check_keys(run_cli, keys_project, "--no-cache")
    assert _found(diags) == {("train.py", "JAX201", 8)}
    assert "init_mlp" in diags[0]["message"]
    assert _check_keys(run_cli, keys_project, "--no-cache", "--no-project-index") == []


DRAWS_MODEL = (
    MODEL
    + """

def maybe_init(key, sizes, random=False):
    if random:
        return jax.random.normal(key, (sizes[0], sizes[1]))
    return None
"""
)

DRAWS_TRAIN = """import jax
from .model import init_mlp, maybe_init


def reuse():
    key = jax.random.key(0)
    p = init_mlp(key, [2, 3])
    x = jax.random.normal(key, (3,))
    return p, x


def maybe_reuse():
    key = jax.random.key(0)
    p = maybe_init(key, [2, 3])
    x = jax.random.normal(key, (3,))
    return p, x
"""


def test_helper_of_another_module_proven_to_draw_is_high(tmp_path: Path, run_cli) -> None:
    """The summary's `key_draws` (analysis/flow/key_draws.py): `init_mlp` draws from `key` on
    every path, so reusing the key after it is high confidence (the default selection finds
    it); `maybe_init` draws only under a branch, so that reuse stays medium (preview). The
    same from the cached summaries on a second run."""
    root = tmp_path / "dproj"
    (root / "k").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\n")
    (root / "k" / "__init__.py").write_text("")
    (root / "k" / "model.py").write_text(DRAWS_MODEL)
    (root / "k" / "train.py").write_text(DRAWS_TRAIN)
    for extra in (("--no-cache",), (), ()):
        diags = _check_keys(run_cli, root, *extra)
        assert {(d["location"]["row"], d["confidence"]) for d in diags} == {
            (8, "high"),
            (15, "medium"),
        }


@needs_flake8
def test_flake8_sees_key_helpers_of_other_modules(keys_project: Path, run_cli) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "JAX201", "k/train.py"],
        cwd=keys_project,
        capture_output=True,
        text=True,
    )
    got = {
        (Path(p).name, r.split()[0], int(row))
        for p, row, _c, r in (line.split(":", 3) for line in proc.stdout.splitlines())
    }
    assert got == {("train.py", "JAX201", 8)}, proc.stderr
    assert "init_mlp" in proc.stdout


def test_cache_relints_when_the_key_helper_changes(keys_project: Path, run_cli) -> None:
    """The cached result of train.py depends on what model.py's helper consumes."""
    cache = ["--cache-dir", str(keys_project / "cache")]
    assert len(_check_keys(run_cli, keys_project, *cache)) == 1
    assert len(_check_keys(run_cli, keys_project, *cache)) == 1  # warm: same answer
    model = keys_project / "k" / "model.py"
    model.write_text(
        MODEL.replace("jax.random.normal(key,", "jax.random.normal(jax.random.key(1),")
    )
    assert _check_keys(run_cli, keys_project, *cache) == []  # train.py unchanged
    model.write_text(MODEL)
    assert len(_check_keys(run_cli, keys_project, *cache)) == 1


def test_key_helpers_reach_the_importer(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "train.py").write_text(TRAIN.replace("from .model", "from model"))
    files = [str(tmp_path / "model.py"), str(tmp_path / "train.py")]
    index = build_index(files, str(tmp_path), lambda p: ())
    from jaxlint.analysis.flow.keys import KEY_HELPERS

    helpers = index.seeds_for(str(tmp_path / "train.py"))[KEY_HELPERS]
    assert helpers.as_map() == {"init_mlp": (("key", 0),)}
    assert KEY_HELPERS not in index.seeds_for(str(tmp_path / "model.py"))
    assert index.dependents(str(tmp_path / "model.py")) == {str(tmp_path / "train.py")}


def test_stdin_sees_key_helpers_of_other_modules(keys_project: Path, run_cli) -> None:
    proc = run_cli(
        "check",
        "--format",
        "json",
        "--no-cache",
        "--select",
        "JAX201",
        "--stdin-filename",
        "k/train.py",
        "-",
        cwd=keys_project,
        input=TRAIN,
    )
    assert [d["location"]["row"] for d in json.loads(proc.stdout)] == [8], proc.stderr


# -- key helpers through `import m`, package re-exports, attributes (issue 13) -------------------

HELPERS = """import jax


def init_mlp(key, sizes):
    return jax.random.normal(key, (sizes[0], sizes[1]))
"""

# never names `jax.random`: analysed for keys because it passes keys to a consuming helper
CALLER = """import k.sub.model as model
from k import sub
from k.sub import init


def module_attr(key):
    a = model.init_mlp(key, [2, 3])
    b = model.init_mlp(key, [3, 4])
    return a, b


def reexport(key):
    a = init(key, [2, 3])
    b = sub.init(key, [3, 4])
    return a, b


class Trainer:
    def step(self, state):
        a = init(self.key, [2, 3])
        b = init(self.key, [3, 4])
        c = init(state.rng, [1, 2])
        d = model.init_mlp(state.rng, [1, 2])
        return a, b, c, d


def fresh(keys):
    a = model.init_mlp(keys[0], [2, 3])
    b = init(keys[1], [3, 4])
    return a, b


def shadowed(key):
    init = print
    init(key)
    init(key)
"""
CALLER_REUSES = {8: "key", 14: "key", 21: "self.key", 23: "state.rng"}


@pytest.fixture
def helpers_project(tmp_path: Path) -> Path:
    root = tmp_path / "hproj"
    (root / "k" / "sub").mkdir(parents=True)
    # preview on: a key consumed by a helper is JAX201 at medium confidence, in preview
    (root / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\n")
    (root / "k" / "__init__.py").write_text("")
    (root / "k" / "sub" / "__init__.py").write_text("from .model import init_mlp as init\n")
    (root / "k" / "sub" / "model.py").write_text(HELPERS)
    (root / "k" / "train.py").write_text(CALLER)
    return root


def _reuses(diags: list[dict]) -> dict[int, str]:
    out = {}
    for d in diags:
        assert d["code"] == "JAX201" and Path(d["filename"]).name == "train.py", d
        out[d["location"]["row"]] = d["message"].split("`", 2)[1]
    return out


def test_key_helpers_through_module_imports_and_reexports(helpers_project: Path, run_cli) -> None:
    """`import pkg.m as m; m.f(key)`, `from pkg import f` re-exported by `pkg/__init__.py`,
    `pkg.f(key)`, and keys held in attributes (`self.key`, `state.rng`): each call consumes
    the key as a same-module helper would, in a module that never calls `jax.random`."""
    assert "random" not in CALLER
    diags = _check_keys(run_cli, helpers_project, "--no-cache")
    assert _reuses(diags) == CALLER_REUSES
    by_row = {d["location"]["row"]: d["message"] for d in diags}
    assert "`k.sub.model.init_mlp` on line 7" in by_row[8]
    assert "`k.sub.init` on line 22, then `k.sub.model.init_mlp`" in by_row[23]
    assert _check_keys(run_cli, helpers_project, "--no-cache", "--no-project-index") == []
    cache = ["--cache-dir", str(helpers_project / "cache")]
    assert _reuses(_check_keys(run_cli, helpers_project, *cache)) == CALLER_REUSES
    assert _reuses(_check_keys(run_cli, helpers_project, *cache)) == CALLER_REUSES  # warm


@needs_flake8
def test_flake8_stdin_and_fix_see_key_helpers_through_module_imports(
    helpers_project: Path, run_cli
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "JAX201", "k/train.py"],
        cwd=helpers_project,
        capture_output=True,
        text=True,
    )
    rows = {int(line.split(":")[1]) for line in proc.stdout.splitlines()}
    assert rows == set(CALLER_REUSES), proc.stdout + proc.stderr
    proc = run_cli(
        "check",
        "--format",
        "json",
        "--no-cache",
        "--select",
        "JAX201",
        "--stdin-filename",
        "k/train.py",
        "-",
        cwd=helpers_project,
        input=CALLER,
    )
    assert _reuses(json.loads(proc.stdout)) == CALLER_REUSES, proc.stderr
    # the fix path sees them too: the two local keys get split (attributes are left alone)
    proc = run_cli(
        "check",
        "--diff",
        "--unsafe-fixes",
        "--no-cache",
        "--select",
        "JAX201",
        "k",
        cwd=helpers_project,
    )
    assert "+    a = model.init_mlp(subkey, [2, 3])" in proc.stdout, proc.stdout + proc.stderr
    assert "+    b = sub.init(subkey1, [3, 4])" in proc.stdout


@needs_flake8
def test_flake8_sees_key_helpers_in_every_file_it_lints(helpers_project: Path) -> None:
    """flake8 builds the index once per process, for the first file it lints; a second
    caller without `jax.random` is summarised when its turn comes."""
    (helpers_project / "k" / "train2.py").write_text(CALLER)
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "-j", "1", "--select", "JAX201", "k/train.py"]
        + ["k/train2.py"],
        cwd=helpers_project,
        capture_output=True,
        text=True,
    )
    lines = (line.split(":") for line in proc.stdout.splitlines())
    got = {(Path(p).name, int(row)) for p, row, *_ in lines}
    want = {(name, row) for name in ("train.py", "train2.py") for row in CALLER_REUSES}
    assert got == want, proc.stdout + proc.stderr


def test_module_imports_are_summarised(tmp_path: Path) -> None:
    """A caller's summary names the modules its top-level imports bind, and the index hands
    it their helpers' key parameters under the names it calls them by (`m.f`)."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "model.py").write_text(HELPERS)
    (tmp_path / "train.py").write_text(
        "import model\nimport model as m\n\n\ndef f(key):\n    model.init_mlp(key, [1, 2])\n"
        "    m.init_mlp(key, [1, 2])\n    model.other(key)\n"
    )
    files = [str(tmp_path / "model.py"), str(tmp_path / "train.py")]
    index = build_index(files, str(tmp_path), lambda p: (), linted={files[1]})
    summary = index.summaries[files[1]]
    assert summary.imported == {"model": "model", "m": "model"}
    from jaxlint.analysis.flow.keys import KEY_HELPERS

    helpers = index.seeds_for(files[1])[KEY_HELPERS].as_map()
    assert helpers == {"model.init_mlp": (("key", 0),), "m.init_mlp": (("key", 0),)}
    assert index.dependents(files[0]) == {files[1]}  # an editor re-publishes train.py
    # not linted and no `random`, transform or `__init__`: summarised all the same, since
    # any importer can be a link of a chain (a jitted step -> a.f -> b.g)
    assert files[1] in build_index(files, str(tmp_path), lambda p: ()).summaries


def test_key_helper_seeds_lift_the_random_gate() -> None:
    """The prefilter skips the PRNG rules on a text without the word `random`; the project
    index's key-helper seeds must lift that gate (the engine runs no text gate on a seeded
    file), or a caller that never calls `jax.random` would never be analysed."""
    from jaxlint import prefilter
    from jaxlint.analysis.flow.keys import KEY_HELPERS
    from jaxlint.analysis.project import KeyHelpers
    from jaxlint.engine import LintOptions, lint_text
    from jaxlint.rules.prng import PrngKeyReuse

    text = "import model\n\n\ndef f(key):\n    model.g(key)\n    model.g(key)\n"
    assert prefilter.applicable(text, [PrngKeyReuse]) == []
    seeds = {KEY_HELPERS: KeyHelpers((("model.g", (("key", 0),)),))}
    found = lint_text(text, "train.py", LintOptions(codes=frozenset({"JAX201"}), seeds=seeds))
    assert [(d.code, d.line) for d in found] == [("JAX201", 6)]
    assert lint_text(text, "train.py", LintOptions(codes=frozenset({"JAX201"}))) == []


def test_a_broken_config_beside_a_markerless_file_does_not_stop_its_lint(
    tmp_path: Path, run_cli
) -> None:
    """A file in a folder with no project marker indexes that folder; a broken config of a
    sibling project there (not linted) must not turn the lint into a config error."""
    (tmp_path / "scratch.py").write_text(
        "import jax\n\n\n@jax.jit\ndef f(x):\n    return float(x)\n", encoding="utf-8"
    )
    other = tmp_path / "other"
    other.mkdir()
    (other / "pyproject.toml").write_text(
        '[tool.jaxlint]\nunroll-threshold = "32"\n', encoding="utf-8"
    )
    (other / "m.py").write_text("import jax\n", encoding="utf-8")
    proc = run_cli(
        "check", "--format", "json", "--no-cache", "--preview", "scratch.py", cwd=tmp_path
    )
    assert proc.returncode == 1, proc.stderr
    assert _found(json.loads(proc.stdout)) == {("scratch.py", "JAX101", 6)}  # a preview rule


# -- chains across modules, star imports, imports inside functions, `pkg.sub.f` (issue 13) -----

CHAIN_FILES = {
    "c/__init__.py": "from . import rng\n",
    "c/rng.py": "import jax\n\n\ndef noise(key, shape):\n    return jax.random.normal(key, shape)\n",
    # b never names a transform or `random`: it is reached only through a.py
    "c/b.py": """def clip(x, limit):
    if x > limit:
        return limit
    return float(x)


def sample(key):
    from c.rng import noise

    return noise(key, (2,))
""",
    "c/a.py": """from c import b


def middle(x, n):
    return b.clip(x * 2, n)


def draw(key):
    return b.sample(key)
""",
    "c/train.py": """import jax
import c
from c.a import draw, middle


@jax.jit
def step(x):
    return middle(x, 3)


def by_package_attribute():
    key = jax.random.key(0)
    a = c.rng.noise(key, (2,))
    b = jax.random.normal(key, (2,))
    return a, b


def through_two_modules():
    key = jax.random.key(0)
    a = draw(key)
    b = jax.random.normal(key, (2,))
    return a, b


def split_first():
    key, sub = jax.random.split(jax.random.key(0))
    return draw(sub), jax.random.normal(key, (2,))
""",
}
CHAIN = "traced via train.step() -> a.middle() -> b.clip()"
CHAIN_FOUND = {
    ("b.py", "JAX110", 2),  # `if x > limit`: `x` traced two modules away, `limit` is 3
    ("b.py", "JAX101", 4),
    ("train.py", "JAX201", 14),  # `import c` then `c.rng.noise(key)`
    ("train.py", "JAX201", 21),  # draw -> b.sample -> rng.noise (an import inside a def)
}


def _write(root: Path, files: dict[str, str]) -> Path:
    """The project, with preview on: the chained JAX101/JAX110 findings are in preview."""
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\n")
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _flake8(root: Path, *paths: str) -> tuple[set[tuple[str, str, int]], str]:
    proc = subprocess.run(
        [sys.executable, "-m", "flake8", "-j", "1", "--select", "JAX", *paths],
        cwd=root,
        capture_output=True,
        text=True,
    )
    got = set()
    for line in proc.stdout.splitlines():
        path, row, _col, rest = line.split(":", 3)
        got.add((Path(path).name, rest.split()[0], int(row)))
    return got, proc.stdout + proc.stderr


@needs_flake8
def test_seeds_and_keys_follow_chains_of_helpers(tmp_path: Path, run_cli) -> None:
    """A jitted step in train.py -> a.middle -> b.clip: clip's parameter is traced two modules
    away; a key passed to a.draw is consumed by rng.noise through b.sample. The CLI (cold,
    cached, warm) and flake8 (linting each file alone) report the same."""
    root = _write(tmp_path / "chain", CHAIN_FILES)
    proc = run_cli("check", "--format", "json", "--no-cache", "c", cwd=root)
    diags = json.loads(proc.stdout)
    assert _found(diags) == CHAIN_FOUND, proc.stderr
    assert all(CHAIN in d["message"] for d in diags if d["filename"].endswith("b.py"))
    assert "`c.a.draw` on line 20" in next(
        d["message"] for d in diags if d["location"]["row"] == 21
    )
    proc = run_cli("check", "--format", "json", "--no-cache", "--no-project-index", "c", cwd=root)
    assert json.loads(proc.stdout) == []
    proc = run_cli("check", "--format", "json", "--no-cache", "--no-preview", "c", cwd=root)
    # JAX110 and the chained JAX101 at medium confidence (preview after the v13 check set) are
    # in preview, and so is JAX201 since the v15 check set
    assert _found(json.loads(proc.stdout)) == set()
    cache = ("--cache-dir", str(root / "cache"))
    for _ in range(2):  # cold, then warm
        proc = run_cli("check", "--format", "json", *cache, "c", cwd=root)
        assert _found(json.loads(proc.stdout)) == CHAIN_FOUND
    for one in ("c/b.py", "c/train.py"):  # flake8 builds the index for the first file alone
        got, out = _flake8(root, one)
        assert got == {f for f in CHAIN_FOUND if f[0] == Path(one).name}, out
    # the middle link stops passing the traced value on: b.py is silent again (cached run)
    a = root / "c" / "a.py"
    a.write_text(a.read_text().replace("b.clip(x * 2, n)", "b.clip(n, 2) * x"))
    proc = run_cli("check", "--format", "json", *cache, "c", cwd=root)
    assert {f for f in _found(json.loads(proc.stdout)) if f[0] == "b.py"} == set()


def test_chain_seeds_in_the_index(tmp_path: Path) -> None:
    root = _write(tmp_path / "chain", CHAIN_FILES)
    files = sorted(str(p) for p in root.rglob("*.py"))
    index = build_index(files, str(root), lambda p: ())
    seed = index.seeds_for(str(root / "c" / "b.py"))["clip"]
    assert (seed.positions, seed.chain) == ((0,), ("train.step", "a.middle", "b.clip"))
    from jaxlint.analysis.flow.keys import KEY_HELPERS

    helpers = index.seeds_for(str(root / "c" / "train.py"))[KEY_HELPERS].as_map()
    assert helpers["draw"] == (("key", 0),) and helpers["c.rng.noise"] == (("key", 0),)
    # one hop only without the loader (what summaries alone say)
    index.loader = None
    index.add_module(files[0], index.names[files[0]], index.summaries.get(files[0]))
    assert "clip" not in index.seeds_for(str(root / "c" / "b.py"))


def test_chains_through_a_cycle_end(tmp_path: Path, run_cli) -> None:
    """a.f -> b.g -> a.f: the fixed point stops; each function is reported once."""
    root = _write(
        tmp_path / "cyc",
        {
            "d/__init__.py": "",
            "d/a.py": "from d import b\n\n\ndef f(x):\n    if x > 0:\n        return b.g(x)\n",
            "d/b.py": "from d import a\n\n\ndef g(x):\n    return a.f(x - 1) + int(x)\n",
            "d/main.py": "import jax\nfrom d import a\n\n\n@jax.jit\ndef step(x):\n"
            "    return a.f(x)\n",
        },
    )
    proc = run_cli("check", "--format", "json", "--no-cache", "d", cwd=root)
    assert _found(json.loads(proc.stdout)) == {("a.py", "JAX110", 5), ("b.py", "JAX101", 5)}


STAR_FILES = {
    "s/__init__.py": "",
    "s/helpers.py": """import jax

__all__ = ["clip", "noise"]


def clip(x):
    if x > 0:
        return x
    return -x


def noise(key, shape):
    return jax.random.normal(key, shape)


def hidden(x):
    if x > 0:
        return x
""",
    "s/train.py": """import jax
from .helpers import *


@jax.jit
def step(x):
    return clip(x) + hidden(x)


def reuse():
    key = jax.random.key(0)
    a = noise(key, (2,))
    return a, jax.random.normal(key, (2,))


def local_import(x):
    from .helpers import noise as draw

    key = jax.random.key(0)
    return draw(key, (2,)), jax.random.normal(key, (2,))
""",
}


@needs_flake8
def test_star_imports_and_imports_inside_functions(tmp_path: Path, run_cli) -> None:
    """`from .helpers import *` binds what `__all__` lists (`hidden` is not bound, so a name
    error at run time, never a seed); `from .helpers import noise as draw` inside a def."""
    root = _write(tmp_path / "star", STAR_FILES)
    want = {("helpers.py", "JAX110", 7), ("train.py", "JAX201", 13), ("train.py", "JAX201", 20)}
    proc = run_cli("check", "--format", "json", "--no-cache", "s", cwd=root)
    assert _found(json.loads(proc.stdout)) == want, proc.stderr
    for one in ("s/helpers.py", "s/train.py"):
        got, out = _flake8(root, one)
        assert got == {f for f in want if f[0] == Path(one).name}, out
    # a star import of a module outside the project after it: any name may be rebound there
    train = root / "s" / "train.py"
    train.write_text(train.read_text().replace("import *\n", "import *\nfrom numpy import *\n"))
    proc = run_cli("check", "--format", "json", "--no-cache", "s", cwd=root)
    assert _found(json.loads(proc.stdout)) == {("train.py", "JAX201", 21)}, proc.stderr


# -- a helper of another module whose key-derived results the caller never reads (Stoix) ------

EVALUATOR = """import jax
import jax.numpy as jnp


def evaluator_setup(params, key_e, n):
    key_e, *eval_keys = jax.random.split(key_e, n + 1)
    eval_keys = jnp.stack(eval_keys).reshape(n, -1)
    return (lambda p, k: k), (params, eval_keys)


def setup_with_params(key_e, n):
    key_e, *eval_keys = jax.random.split(key_e, n + 1)
    params = jax.random.normal(eval_keys[0], (3,))
    return params, jnp.stack(eval_keys)


class Store:
    pass


def setup_stored(store, key_e, n):
    key_e, *eval_keys = jax.random.split(key_e, n + 1)
    store.keys = eval_keys
    return eval_keys
"""

SYSTEM = """import jax
from .evaluator import evaluator_setup, setup_stored, setup_with_params


def run(seed, n):
    key, key_e = jax.random.split(jax.random.key(seed))
    evaluator, (params, eval_keys) = evaluator_setup(1.0, key_e, n)
    for _ in range(3):
        key_e, *eval_keys = jax.random.split(key_e, n + 1)
        evaluator(params, eval_keys)
    return key


def run_read(seed, n):
    key_e = jax.random.key(seed)
    evaluator, (params, eval_keys) = evaluator_setup(1.0, key_e, n)
    first = evaluator(params, eval_keys)
    key_e, *eval_keys = jax.random.split(key_e, n + 1)
    return first, evaluator(params, eval_keys)


def run_params(seed, n):
    key_e = jax.random.key(seed)
    params, eval_keys = setup_with_params(key_e, n)
    key_e, *eval_keys = jax.random.split(key_e, n + 1)
    return params, jax.random.normal(eval_keys[0], (3,))


def run_stored(store, seed, n):
    key_e = jax.random.key(seed)
    eval_keys = setup_stored(store, key_e, n)
    key_e, *eval_keys = jax.random.split(key_e, n + 1)
    return store.keys, eval_keys
"""


def test_dead_products_of_a_helper_of_another_module(tmp_path: Path, run_cli) -> None:
    """Stoix's `evaluator_setup` splits `key_e` and returns the eval keys, which the caller
    overwrites by splitting `key_e` again before reading them: no finding. The near misses
    stay: the returned keys read first (line 18), a returned value drawn from them kept (25),
    the keys also stored on an object (32) -- each gives the caller the helper's numbers."""
    root = tmp_path / "sproj"
    (root / "k").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\n")
    (root / "k" / "__init__.py").write_text("")
    (root / "k" / "evaluator.py").write_text(EVALUATOR)
    (root / "k" / "system.py").write_text(SYSTEM)
    expected = {
        ("system.py", "JAX201", 18),
        ("system.py", "JAX201", 25),
        ("system.py", "JAX201", 32),
    }
    assert _found(_check_keys(run_cli, root, "--no-cache")) == expected
    # the summary's paths survive the cache (a second run reads them back)
    assert _found(_check_keys(run_cli, root)) == expected
    assert _found(_check_keys(run_cli, root)) == expected
    # without the project index the helper is unknown: nothing is reported
    assert _check_keys(run_cli, root, "--no-cache", "--no-project-index") == []
    # the helper now hands its eval keys to another call (unknown): the caller, cached, is
    # linted again and its first split is reported too
    changed = EVALUATOR.replace("    return (lambda", "    print(eval_keys)\n    return (lambda")
    (root / "k" / "evaluator.py").write_text(changed)
    assert _found(_check_keys(run_cli, root)) == {("system.py", "JAX201", 9), *expected}


TABLE = """\
import equinox as eqx
import jax


class PageTable(eqx.Module):
    page_indices: jax.Array
    n: int = eqx.field(static=True, default=3)

    @property
    def max_seqs(self) -> int:
        return self.page_indices.shape[0]

    @property
    def used(self):
        return self.page_indices.sum()
"""

ENGINE = """\
import jax

from t.table import PageTable  # noqa: F401


@jax.jit
def step(page_table, x):
    if min(page_table.max_seqs, 8) > 2 and page_table.n > 1:
        x = x + 1
    return x


@jax.jit
def twin(page_table, x):
    if page_table.used > 2:
        x = x + 1
    return x
"""


def test_static_attributes_of_another_modules_classes(tmp_path: Path, run_cli) -> None:
    """A static field (`n`) and a shape-metadata property (`max_seqs`) of a class defined in
    another module are Python values on a traced object, as in the class's own module
    (levanter's `page_table.max_seqs`); a property returning data (`used`) is traced: the
    project index says so (`LeafAttributes`), without it the read is of unknown kind. The
    same findings cold, from the cache, and for the file linted alone."""
    root = tmp_path / "aproj"
    (root / "t").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\n")
    (root / "t" / "__init__.py").write_text("")
    (root / "t" / "table.py").write_text(TABLE)
    (root / "t" / "engine.py").write_text(ENGINE)

    def found(*extra: str, target: str = "t") -> set:
        proc = run_cli("check", "--format", "json", *extra, target, cwd=root)
        assert proc.returncode in (0, 1), proc.stderr
        return _found(json.loads(proc.stdout))

    expected = {("engine.py", "JAX110", 15)}
    assert found("--no-cache") == expected
    assert found() == expected  # the seeds, cached, are read back
    assert found() == expected
    assert found("--no-cache", target="t/engine.py") == expected
    # without the project index the names are of unknown kind (the class is another
    # module's): neither the static reads nor the traced one are reported
    assert found("--no-cache", "--no-project-index") == set()


BOOL_UTILS = """\
import logging  # a module with no import at all gets no summary (project_summary.needs_summary)


def should_quantize(start, step):
    return step >= start


def phase(step, every):
    return step // every
"""

BOOL_TRAIN = """\
import functools

import jax

from t import utils


@functools.partial(jax.jit, static_argnums=(1,))
def train_step(x, quantize):
    return x + 1 if quantize else x


def train(x, steps):
    for step in range(steps):
        x = train_step(x, utils.should_quantize(5, step))
        x = train_step(x, utils.phase(step, 2))
    return x
"""


def test_bool_helpers_of_another_module_bound_a_static_argument(tmp_path: Path, run_cli) -> None:
    """A static argument made by another module's function whose every return is a
    comparison takes two values (aqt's `train_utils.should_quantize_weights`, v6 FP): JAX403
    stays silent on it, and reports the twin returning `step // every`. The same cold and
    from the cache."""
    root = tmp_path / "bproj"
    (root / "t").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\n")
    (root / "t" / "__init__.py").write_text("")
    (root / "t" / "utils.py").write_text(BOOL_UTILS)
    (root / "t" / "train.py").write_text(BOOL_TRAIN)

    def found(*extra: str, target: str = "t") -> set:
        proc = run_cli("check", "--format", "json", "--select", "JAX403", *extra, target, cwd=root)
        assert proc.returncode in (0, 1), proc.stderr
        return _found(json.loads(proc.stdout))

    expected = {("train.py", "JAX403", 16)}
    assert found("--no-cache") == expected
    assert found() == expected
    # without the project index the helper is unknown: both are reported. The importer linted
    # alone gets what the project's lint gives it: a module that neither transforms nor draws
    # is summarised by its imports, but what its functions return is read from the whole
    # module (`project_summary.returned_kinds_of`; both were reported before)
    both = {("train.py", "JAX403", 15), *expected}
    assert found("--no-cache", "--no-project-index") == both
    assert found("--no-cache", target="t/train.py") == expected


def test_summary_constants_read_back(tmp_path: Path) -> None:
    """A module's constants (ints, floats, strings, bools, tuples of ints) survive the summary
    cache as they were computed; a name assigned twice, or rebound by `global`, is none."""
    from jaxlint.analysis.constants import module_constants
    from jaxlint.analysis.project_data import ModuleSummary

    tree = ast.parse(
        "N = 24\nM: int = -3\nEPS = 1e-6\nNAME = 'x'\nON = True\nSHAPE = (2, 3)\n"
        "TWICE = 1\nTWICE = 2\nG = 1\ndef f():\n    global G\n    G = 2\n"
        "if N:\n    L = 5\nL2 = [1]\n"
    )
    constants = module_constants(tree)
    assert constants == {"N": 24, "M": -3, "EPS": 1e-6, "NAME": "x", "ON": True, "SHAPE": (2, 3)}
    summary = ModuleSummary("m", constants=constants)
    assert ModuleSummary.from_json(json.loads(json.dumps(summary.to_json()))) == summary


def test_cached_seeds_read_back_every_entry_kind(tmp_path: Path) -> None:
    """The joined seeds survive the cache with every kind of entry (a decoding error made the
    whole cached join a miss, so warm runs joined again)."""
    from jaxlint.analysis.constants import IMPORTED_CONSTANTS
    from jaxlint.analysis.flow.keys import KEY_HELPERS
    from jaxlint.analysis.project_data import (
        ImportedConstants,
        KeyHelpers,
        PassedArguments,
        StaticAttributes,
        StaticHelpers,
    )
    from jaxlint.analysis.seed_keys import IMPORTED_STATIC
    from jaxlint.project_index import Loader
    from jaxlint.run import cache as result_cache

    seeds = {
        "/p/a.py": {
            "step": Seed("jit", "jax.jit", (0,), ("x",), ("b.f",)),
            STATIC_HELPERS: StaticHelpers(("dims", "u.first_dim")),
            BOOL_HELPERS: StaticHelpers(("u.should_stop",)),
            PASSED_ARGUMENTS: PassedArguments((("f", 2, ("k",)),)),
            IMPORTED_STATIC: StaticAttributes(("max_seqs", "n")),
            KEY_HELPERS: KeyHelpers((("init", (("key", 0),)),)),
            IMPORTED_CONSTANTS: ImportedConstants(
                (("N", 24), ("u.SHAPE", (2, 3)), ("u.NAME", "x"), ("u.EPS", 0.5), ("u.ON", True))
            ),
        }
    }
    loader = Loader(str(tmp_path), lambda path: (), result_cache.Cache(str(tmp_path / "c")))
    loader.store_seeds("fp", seeds)
    assert loader.cached_seeds("fp") == seeds


SRC_TYPES = """\
from typing import NamedTuple

import jax


class State(NamedTuple):
    step: jax.Array
"""

SRC_MOD = """\
import jax

from pkg.types import State  # noqa: F401


@jax.jit
def update(state, x):
    if state.step > 10:
        x = x + 1
    return x
"""


def test_src_layout_modules_are_imported_without_src(tmp_path: Path, run_cli) -> None:
    """`src/pkg/types.py` is imported as `pkg.types` (setuptools `where = ["src"]`), also
    when `src/` holds an `__init__.py`: the leaves of its NamedTuple reach the importer
    (v11 clm-ml-jax: without it `state.step`-like reads were of unknown kind, a JAX405 lost)."""
    root = tmp_path / "srcproj"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[tool.setuptools.packages.find]\nwhere = ["src"]\n\n[tool.jaxlint]\npreview = true\n'
    )
    (root / "src" / "__init__.py").write_text("")
    (root / "src" / "pkg" / "__init__.py").write_text("")
    (root / "src" / "pkg" / "types.py").write_text(SRC_TYPES)
    (root / "src" / "pkg" / "mod.py").write_text(SRC_MOD)
    proc = run_cli("check", "--format", "json", "--no-cache", "src", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    assert _found(json.loads(proc.stdout)) == {("mod.py", "JAX110", 8)}
    # alone, the file gets the same findings (its tree is indexed for it)
    proc = run_cli("check", "--format", "json", "--no-cache", "src/pkg/mod.py", cwd=root)
    assert _found(json.loads(proc.stdout)) == {("mod.py", "JAX110", 8)}


def test_tuple_unpacked_module_constants() -> None:
    """`num_rows, num_cols = 200, 4` binds two constants, element by element (jax#9463,
    recall v3's row_loop_at_set); a starred or mismatched unpacking, or a name bound again,
    binds none."""
    from jaxlint.analysis import ModuleFacts
    from jaxlint.analysis.constants import module_constants

    src = "A, B = 200, 4\nC, *D = 1, 2, 3\nE, F = 1, 2, 3\nG, H = 5, 6\nH = 7\nx = A + B\n"
    assert module_constants(ast.parse(src)) == {"A": 200, "B": 4, "G": 5}
    facts = ModuleFacts(ast.parse(src))
    use = next(n for n in ast.walk(facts.tree) if isinstance(n, ast.BinOp))
    assert facts.constants.int_value(use) == 204
    h = [n for n in ast.walk(facts.tree) if isinstance(n, ast.Name) and n.id == "H"]
    assert facts.constants.int_value(h[0]) is None
