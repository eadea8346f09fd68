"""`verify --capture-main`: real inputs recorded from the program's own run.

The recorder's pure parts (which functions it can name, how values are described) run without
JAX. The end-to-end test captures the `__main__` block of every program in capture_programs/
(pytrees of params, `x.shape` unpacking, matmuls, methods with state on `self`, a flax.linen
module with a field, an equinox Module under filter_jit) and verifies all their findings in one
batch: at least 85% must be confirmed (`--guess-inputs` confirms 2 of these 11), and
the correct program has nothing to confirm.
"""

from __future__ import annotations

import glob
import os
import sys
import textwrap
import time
from typing import Any

import pytest

from jaxlint.core.errors import UsageError
from jaxlint.runtime.capture import command_for, run_capture, signature_text
from jaxlint.runtime.capture_hook import Describer, Unrepresentable, function_lines
from jaxlint.runtime.toolbox.inputs import ObjectSpec, TreeSpec, parse_item

PROGRAMS = os.path.join(os.path.dirname(__file__), "capture_programs")


def test_function_lines_name_defs_methods_decorators_and_module_lambdas() -> None:
    source = (
        "import jax\n"
        "@jax.jit\n"
        "def f(x):\n"
        "    return x\n"
        "class M:\n"
        "    def g(self, x):\n"
        "        return x\n"
        "h = jax.jit(lambda x: x)\n"
    )
    assert function_lines(source) == {2: "f", 3: "f", 6: "M.g", 8: "h"}


class Point:
    def __init__(self, x, scale):
        self.x = x
        self.scale = scale


def test_describer_writes_specs_the_parser_reads() -> None:
    np = pytest.importorskip("numpy")
    describe = Describer(__file__)
    params = {"w": np.zeros((4, 8), np.float32), "b": np.zeros(8, np.float32)}
    assert describe(params) == "{'w': f32[4,8], 'b': f32[8]}"
    assert describe((np.zeros(3, np.int32),)) == "(i32[3],)"
    assert describe(np.zeros(2, np.uint32), "rng") == "legacy-key"
    assert describe(np.zeros(2, np.uint32), "counts") == "u32[2]"
    assert describe(3) == "3" and describe("mean") == "'mean'"
    assert describe(Point(np.ones(2, np.float32), 0.5)) == "Point(x=f32[2], scale=0.5)"
    assert describe(np.tanh) == "__ref__('numpy', 'tanh')"
    assert describe(Describer) == "__ref__('jaxlint.runtime.capture_hook', 'Describer')"
    with pytest.raises(Unrepresentable):
        describe(float("nan"))
    with pytest.raises(Unrepresentable):
        describe(lambda v: v)
    spec = parse_item(describe(Point(np.ones(2, np.float32), 0.5)))
    assert isinstance(spec, TreeSpec) and isinstance(spec.tree, ObjectSpec)


def test_capture_commands() -> None:
    assert command_for("a.py", main=True)[0] == sys.executable
    assert command_for("a.py", command="pytest -x tests")[:3] == [sys.executable, "-m", "pytest"]
    assert command_for("a.py", command="python train.py --steps 2")[1:] == [
        "train.py",
        "--steps",
        "2",
    ]
    with pytest.raises(UsageError):
        command_for("a.py", command="  ")


def test_capture_times_out_and_keeps_what_it_saw(tmp_path) -> None:
    program = tmp_path / "slow.py"
    program.write_text(
        "import time\n\n\n"
        "def f(x):\n    return x\n\n\n"
        "def g(x):\n    return x\n\n\n"
        "if __name__ == '__main__':\n    f([1.0, 2.0])\n    time.sleep(60)\n    g(1)\n",
        encoding="utf-8",
    )
    before = sorted(os.listdir(tmp_path))
    outcome = run_capture(str(program), main=True, targets=["f", "g"], timeout=3)
    assert outcome["reason"].startswith("timed out")
    assert outcome["functions"]["f"]["signatures"][0]["inputs"][0][:2] == ["x", "[1.0, 2.0]"]
    assert "g" not in outcome["functions"]
    assert sorted(os.listdir(tmp_path)) == before  # nothing written next to the program


@pytest.mark.skipif(sys.version_info < (3, 12), reason="sys.monitoring is Python 3.12+")
def test_capture_ends_after_settling_even_inside_a_long_native_call(tmp_path) -> None:
    """Once every target was seen, recording ends `settle` s later though the program sits in
    one native call (a long XLA compile) that runs no Python; code of other files is switched
    off at its first call, so the run is not slowed by a hook on every call."""
    program = tmp_path / "busy.py"
    program.write_text(
        "import json\nimport time\n\n\n"
        "def f(x):\n    return x\n\n\n"
        "if __name__ == '__main__':\n    f([1.0, 2.0])\n"
        "    for _ in range(20000):\n        json.dumps([1])\n"
        "    time.sleep(60)\n    f(1)\n",
        encoding="utf-8",
    )
    start = time.monotonic()
    outcome = run_capture(str(program), main=True, targets=["f"], timeout=50, settle=1.0)
    assert time.monotonic() - start < 30, outcome
    assert outcome["exit"] == 0 and outcome["reason"].startswith("recorded 1 of 1"), outcome
    assert [s["inputs"][0][1] for s in outcome["functions"]["f"]["signatures"]] == ["[1.0, 2.0]"]


def test_the_recorder_switches_off_other_files_code_at_its_first_call(tmp_path) -> None:
    if sys.version_info < (3, 12):
        pytest.skip("sys.monitoring is Python 3.12+")
    import json

    from jaxlint.runtime.capture_hook import Recorder

    target = tmp_path / "t.py"
    target.write_text("def f(x):\n    return x\n", encoding="utf-8")
    calls: list[str] = []

    class Counting(Recorder):
        def on_start(self, code: Any, offset: int) -> Any:
            calls.append(code.co_name)
            return super().on_start(code, offset)

    recorder = Counting(
        {
            "file": str(target),
            "functions": {"1": "f"},
            "out": str(tmp_path),
            "stop": False,
            "settle": 60,
        }
    )
    namespace: dict[str, Any] = {}
    exec(compile(target.read_text(), str(target), "exec"), namespace)
    recorder.install()
    try:
        for value in range(50):
            json.dumps([value])
            namespace["f"](value % 2)
    finally:
        recorder.uninstall()
    assert recorder.tool is None
    assert calls.count("f") == 50  # a target: every call seen
    assert calls.count("dumps") == 1  # another file's code: switched off at its first call
    assert recorder.records["f"]["calls"] == 50
    assert [s["inputs"] for s in recorder.records["f"]["signatures"]] == [
        [["x", "0", None]],
        [["x", "1", None]],
    ]


@pytest.mark.jax
def test_capture_main_confirms_the_findings_of_the_example_programs() -> None:
    pytest.importorskip("jax")
    pytest.importorskip("flax")
    pytest.importorskip("equinox")
    from jaxlint.verify.driver import plan_captured, verify_jobs

    paths = sorted(glob.glob(os.path.join(PROGRAMS, "*.py")))
    batches, captures = [], {}
    for path in paths:
        # every finding of the programs, those of the rules in preview included
        jobs, capture = plan_captured(path, check_fixes=False, preview=True)
        batches.append(jobs)
        captures[os.path.basename(path)] = capture
    reports, _env = verify_jobs(batches, timeout=60)
    verdicts = {
        os.path.basename(path): [(f["code"], f["line"], f["verdict"]) for f in findings]
        for path, findings in zip(paths, reports)
    }
    assert verdicts["clean_train.py"] == []
    every = [v for found in verdicts.values() for v in found]
    confirmed = [v for v in every if v[2] == "confirmed"]
    assert len(every) >= 10
    assert len(confirmed) >= 0.85 * len(every), verdicts
    # the recorded signature is the evidence
    mlp = reports[[os.path.basename(p) for p in paths].index("mlp_train.py")]
    captured = {f["code"]: f["evidence"].get("captured") for f in mlp}
    assert captured["JAX110"].startswith("clipped_loss(params=[{")
    assert "'w': f32[16,32]" in captured["JAX110"] and "x=f32[8,16]" in captured["JAX110"]
    assert captures["mlp_train.py"]["ok"]


@pytest.mark.jax
def test_capture_cmd_runs_a_pytest_command_from_the_cli(tmp_path, run_cli) -> None:
    pytest.importorskip("jax")
    (tmp_path / "tiny.py").write_text(
        "import jax\n\n\n"
        "@jax.jit\n"
        "def scale(x, w):\n"
        "    rows, cols = x.shape\n"
        "    if (x @ w).sum() > 0:\n"
        "        return x\n"
        "    return -x\n",
        encoding="utf-8",
    )
    (tmp_path / "test_tiny.py").write_text(
        "import jax.numpy as jnp\nimport pytest\n\nimport tiny\n\n\n"
        "def test_scale():\n"
        "    with pytest.raises(Exception):\n"
        "        tiny.scale(jnp.ones((2, 3)), jnp.ones((3, 4)))\n",
        encoding="utf-8",
    )
    before = sorted(os.listdir(tmp_path))
    result = run_cli(
        "verify",
        "tiny.py",
        "--capture-cmd",
        "pytest test_tiny.py -q -p no:cacheprovider",
        "--no-fix-check",
        "--preview",  # the finding is JAX110, in preview
        cwd=str(tmp_path),
    )
    assert result.returncode == 0, result.stderr
    assert "recorded 1 of 1 target function(s)" in result.stdout
    assert "CONFIRMED" in result.stdout
    assert "captured  scale(x=f32[2,3], w=f32[3,4])" in result.stdout
    assert sorted(os.listdir(tmp_path)) == before  # no bytecode, no cache next to the code


def test_guess_inputs_infers_rank_from_the_code() -> None:
    import ast

    from jaxlint.verify.plan import infer_rank

    fn = ast.parse(
        "def f(x, w, v, s, t, u, plain):\n"
        "    a, b = x.shape\n"
        "    y = v[1, 2][0]\n"
        "    z = s @ t.T\n"
        "    q = u.shape[2]\n"
        "    return plain * 2\n"
    ).body[0]
    ranks = {n: infer_rank(fn, n) for n in ("x", "w", "v", "s", "t", "u", "plain")}
    assert ranks == {"x": 2, "w": None, "v": 3, "s": 2, "t": 2, "u": 3, "plain": None}


def test_capture_main_without_a_main_block_says_so(tmp_path) -> None:
    program = tmp_path / "lib.py"
    program.write_text("def f(x):\n    return x\n", encoding="utf-8")
    outcome = run_capture(str(program), main=True, targets=["f"])
    assert not outcome["ok"] and "no `if __name__" in outcome["reason"]


def test_capture_main_runs_a_module_level_driver(tmp_path) -> None:
    """A script without a `__main__` block that drives itself at module level (a training loop,
    a timeit call) is run as it is: its calls are recorded (it was refused before)."""
    program = tmp_path / "script.py"
    program.write_text(
        "def f(x, n):\n    return x * n\n\n\nfor i in range(2):\n    y = f(1.5, i)\n",
        encoding="utf-8",
    )
    outcome = run_capture(str(program), main=True, targets=["f"])
    assert outcome["ok"], outcome
    assert [s["inputs"][0][1] for s in outcome["functions"]["f"]["signatures"]] == ["1.5", "1.5"]
    assert [s["inputs"][1][1] for s in outcome["functions"]["f"]["signatures"]] == ["0", "1"]


def _library_states() -> dict[str, Any]:
    """Real states of optax, flax and equinox, the values a training step is called with."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    params = {"w": jnp.zeros((4, 8)), "b": jnp.zeros(8)}
    out: dict[str, Any] = {"params": params, "scalar_in_dict": {"lr": jnp.float32(0.1)}}
    try:
        import optax
    except ImportError:
        optax = None
    if optax is not None:
        out |= {
            "optax.adam": optax.adam(1e-3).init(params),
            "optax.sgd": optax.sgd(0.1).init(params),
            "optax.sgd_momentum": optax.sgd(0.1, momentum=0.9).init(params),
            "optax.chain": optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(1e-3)).init(
                params
            ),
            "optax.adam_after_a_step": optax.adam(1e-3).update(
                params, optax.adam(1e-3).init(params), params
            )[1],
        }
    try:
        import flax.linen as nn
    except ImportError:
        nn = None
    if nn is not None:

        class Dense(nn.Module):
            features: int = 3

            @nn.compact
            def __call__(self, x):
                return nn.Dense(self.features)(x)

        variables = Dense().init(jax.random.key(0), jnp.ones((2, 4)))
        out["flax.linen_params"] = variables
        if optax is not None:
            from flax.training import train_state

            out["flax.TrainState"] = train_state.TrainState.create(
                apply_fn=Dense().apply, params=variables, tx=optax.adam(1e-3)
            )
    try:
        import equinox as eqx
    except ImportError:
        eqx = None
    if eqx is not None:
        out["equinox.Linear"] = eqx.nn.Linear(3, 2, key=jax.random.key(1))
        out["equinox.MLP"] = eqx.nn.MLP(4, 2, 8, 2, key=jax.random.key(0))
    return out


def _structure(value: Any) -> Any:
    import jax

    leaves = [
        (tuple(getattr(x, "shape", ())), str(getattr(x, "dtype", type(x).__name__)))
        for x in jax.tree.leaves(value)
    ]
    return jax.tree.structure(value), leaves


STATE_NAMES = [
    "params",
    "scalar_in_dict",
    "optax.adam",
    "optax.sgd",
    "optax.sgd_momentum",
    "optax.chain",
    "optax.adam_after_a_step",
    "flax.linen_params",
    "flax.TrainState",
    "equinox.Linear",
    "equinox.MLP",
]


@pytest.mark.jax
@pytest.mark.parametrize("name", STATE_NAMES)
def test_every_spec_capture_writes_parses_back_to_the_same_pytree(name: str) -> None:
    """Capture described an Adam state as `count=i32[]`, which its own parser rejected (`f32[]`
    inside a pytree is not Python syntax), so every Adam state was lost. Whatever capture
    writes must come back as the same tree of the same shapes and dtypes; a value it cannot
    describe (a TrainState's closures) is not written at all."""
    from jaxlint.runtime.toolbox.inputs import materialize

    states = _library_states()
    if name not in states:
        pytest.skip(f"{name.split('.')[0]} is not installed")
    value = states[name]
    try:
        text = Describer(__file__)(value)
    except Unrepresentable:
        assert name == "flax.TrainState", name  # apply_fn and tx are closures
        return
    built = materialize([parse_item(text)])[0]
    assert _structure(built) == _structure(value), text


def test_capture_records_module_level_pmap_and_shard_map_entries(tmp_path) -> None:
    """`p = jax.pmap(f)` and `s = jax.jit(jax.shard_map(g, ...))` at module level are JAX
    objects, not Python code of the file: their global inputs are read at the user's call site
    when f / g run (the bodies themselves see per-device shapes). The program runs with the
    8 CPU devices the verifier simulates for such a file."""
    pytest.importorskip("jax")
    program = tmp_path / "dp.py"
    program.write_text(
        textwrap.dedent(
            """
            import jax
            import jax.numpy as jnp
            from jax.sharding import Mesh
            from jax.sharding import PartitionSpec as P


            def f(w, x):
                return jax.lax.pmean(w * x.sum(), "i")


            def g(x):
                return jax.lax.psum(x.sum(), "d")


            p = jax.pmap(f, axis_name="i")
            mesh = Mesh(jax.devices(), ("d",))
            s = jax.jit(jax.shard_map(g, mesh=mesh, in_specs=P("d"), out_specs=P()))

            if __name__ == "__main__":
                n = jax.local_device_count()
                w, batch = jnp.ones((n, 2)), {"x": jnp.ones((n, 3))}
                p(w, batch["x"])
                xs = jnp.ones((4 * n, 2))
                s(xs)
            """
        ),
        encoding="utf-8",
    )
    outcome = run_capture(str(program), main=True, targets=["p", "s", "f", "g"])
    sigs = {
        q: [signature_text(s) for s in r["signatures"]] for q, r in outcome["functions"].items()
    }
    assert sigs["p"] == ["w=f32[8,2], x=f32[8,3]"], sigs
    assert sigs["f"] == ["w=f32[2], x=f32[3]"], sigs
    assert sigs["s"] == ["x=f32[32,2]"], sigs


def test_capture_rebuilds_flax_nnx_modules_through_their_constructor(tmp_path) -> None:
    """A flax.nnx Module's state is a graph, not fields: capture records the constructor call
    that built it (`Block.__init__`'s arguments, an nnx.Rngs as a fixed-seed one), and the
    spec rebuilds it by calling the class (it was not recorded, then `Block()` failed)."""
    pytest.importorskip("flax.nnx")
    from jaxlint.runtime.toolbox.inputs import materialize

    source = textwrap.dedent(
        """
        import jax.numpy as jnp
        from flax import nnx


        class Block(nnx.Module):
            def __init__(self, din, dout, rngs):
                self.linear = nnx.Linear(din, dout, rngs=rngs)

            def __call__(self, x):
                return self.linear(x)


        if __name__ == "__main__":
            Block(3, 5, nnx.Rngs(0))(jnp.ones((2, 3)))
        """
    )
    program = tmp_path / "block.py"
    program.write_text(source, encoding="utf-8")
    outcome = run_capture(str(program), main=True, targets=["Block.__call__"])
    [sig] = outcome["functions"]["Block.__call__"]["signatures"]
    assert (
        signature_text(sig)
        == "self=Block(din=3, dout=5, rngs=flax.nnx.Rngs(default=0)), x=f32[2,3]"
    )
    namespace: dict[str, Any] = {"__name__": "block"}
    exec(compile(source, str(program), "exec"), namespace)
    [block] = materialize([parse_item(sig["inputs"][0][1])], namespace=namespace)
    assert isinstance(block, namespace["Block"])
    assert block.linear.kernel.shape == (3, 5)


def test_a_jitted_function_is_no_reference_to_the_function_it_wraps() -> None:
    """`jax.jit(f, donate_argnums=0)` held by an object was recorded as `__ref__('', 'f')`:
    rebuilt, it lost its options, and a real use-after-donation verified as not-reproduced (a
    new user's repro, stop 53). It is unrepresentable now (the verdict says could-not-run);
    a ref with the user's own file as its module ('') resolves in the module's namespace."""
    jax = pytest.importorskip("jax")
    from jaxlint.runtime.toolbox.inputs import RefSpec, TreeSpec, materialize

    describe = Describer(__file__)
    with pytest.raises(Unrepresentable):
        describe(jax.jit(Point, donate_argnums=0))
    tree = TreeSpec((RefSpec("", "Point"),), "(__ref__('', 'Point'),)")
    assert materialize([tree], namespace={"Point": Point}) == [(Point,)]
