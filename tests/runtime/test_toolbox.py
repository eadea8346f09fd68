"""The toolbox commands end to end: `python -m jaxlint <command>` on small functions in tmp_path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import _in_process

pytestmark = pytest.mark.jax
pytest.importorskip("jax")

MODULE = """
import jax
import jax.numpy as jnp
import numpy as np
from functools import partial


def mlp(x, w, scale=1.0):
    return jnp.tanh(x @ w) * scale


def mlp_twice(x, w, scale=1.0):
    return jnp.tanh(jnp.dot(x, w)) * scale


@partial(jax.jit, static_argnames=("mode",))
def reduce(x, mode="mean"):
    return x.mean() if mode == "mean" else x.sum()


def step(params, grads):
    return params - 0.1 * grads, grads.sum()


def with_callback(x):
    y = jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
    return {"y": y, "n": (x.sum(), None)}


def double(x):
    return x * 2


def hangs(x):
    import time
    time.sleep(1000)


def fails(x):
    raise RuntimeError("user code failed")


if __name__ == "__main__":
    raise SystemExit("the __main__ block must not run")
"""


@pytest.fixture(scope="module")
def module_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("toolbox") / "model.py"
    path.write_text(textwrap.dedent(MODULE))
    return path


def jaxlint(
    *args: str, env: dict[str, str] | None = None, check: int | None = 0
) -> subprocess.CompletedProcess[str]:
    """`python -m jaxlint ARGS`, run in-process (tests/conftest.py): each tool's JAX work runs
    in the sandbox's subprocess either way; the real CLI process is test_env_without_jax_*'s."""
    full_env = {**os.environ, "JAX_PLATFORMS": "cpu", **(env or {})}
    proc = _in_process(args, os.getcwd(), None, full_env)
    if check is not None:
        assert proc.returncode == check, proc.stderr + proc.stdout
    return proc


def jaxlint_json(*args: str, **kwargs: Any) -> dict[str, Any]:
    return json.loads(jaxlint(*args, **kwargs).stdout)


# ----------------------------------------------------------------------------------- env


def test_env_reports_versions_devices_and_smoke_test() -> None:
    report = jaxlint_json("env", "--smoke-test", env={"XLA_PYTHON_CLIENT_MEM_FRACTION": "75"})
    for key in (
        "python",
        "platform",
        "jax",
        "jaxlib",
        "numpy",
        "libcst",
        "jaxlint",
        "packages",
        "backend",
        "devices",
        "device_count",
        "process_count",
        "config",
        "env",
        "warnings",
    ):
        assert key in report
    assert report["backend"] == "cpu" and report["device_count"] >= 1
    assert {"id", "platform", "device_kind", "process_index"} <= set(report["devices"][0])
    assert report["config"]["x64"] is False and report["config"]["default_prng_impl"]
    assert report["env"]["XLA_PYTHON_CLIENT_MEM_FRACTION"] == "75"
    assert any("XLA_PYTHON_CLIENT_MEM_FRACTION" in w for w in report["warnings"])
    smoke = report["smoke_test"]
    assert smoke["ok"] is True and smoke["compile_seconds"] > 0 and smoke["run_seconds"] > 0


def test_env_without_jax_still_reports_and_exits_0() -> None:
    hide_jax = (
        "import importlib.util as u; real = u.find_spec; "
        "u.find_spec = lambda name, *a: None if name.split('.')[0] == 'jax' else real(name, *a); "
        "from jaxlint.cli import main; raise SystemExit(main(['env']))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", hide_jax], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["jax"] is None and report["python"] and report["libcst"]
    assert any("JAX is not installed" in w for w in report["warnings"])


# ----------------------------------------------------------------------------------- probe


def test_probe_reports_shapes_texts_analyses_and_writes_out(
    module_file: Path, tmp_path: Path
) -> None:
    out = tmp_path / "probe"
    result = jaxlint_json(
        "probe", f"{module_file}::mlp", "--args", "f32[4,8], f32[8,3], 2.0", "--out", str(out)
    )
    assert result["eval_shape"] == "f32[4,3]"
    assert "dot_general" in result["jaxpr"] and result["jaxpr_eqns"] >= 3
    assert "stablehlo" in result["stablehlo"] and "HloModule" in result["hlo"]
    assert result["cost_analysis"]["flops"] > 0
    assert result["memory_analysis"]["argument_bytes"] == (4 * 8 + 8 * 3) * 4 + 4
    assert result["lower_seconds"] > 0 and result["compile_seconds"] > 0
    assert result["host_callbacks"] is False
    assert {p.name for p in out.iterdir()} == {
        "jaxpr.txt",
        "stablehlo.mlir",
        "hlo.txt",
        "summary.json",
    }
    summary = json.loads((out / "summary.json").read_text())
    assert "hlo" not in summary and summary["eval_shape"] == "f32[4,3]"


def test_probe_brief_static_donation_and_callbacks(module_file: Path) -> None:
    reduce = jaxlint_json("probe", f"{module_file}::reduce", "--args", "f32[5], 'sum'", "--brief")
    assert reduce["static"] == ["mode"] and reduce["eval_shape"] == "f32[]"
    assert "jaxpr" not in reduce and "hlo" not in reduce
    step = jaxlint_json(
        "probe",
        f"{module_file}::step",
        "--args",
        "f32[16], f32[16]",
        "--donate",
        "params",
        "--brief",
    )
    assert step["donation"]["requested"] == ["params"] and step["donation"]["aliased"] == ["params"]
    callback = jaxlint_json("probe", f"{module_file}::with_callback", "--args", "f32[3]", "--brief")
    assert (
        callback["host_callbacks"] is True
        and "pure_callback" in callback["host_callback_primitives"]
    )
    assert callback["eval_shape"] == {"y": "f32[3]", "n": ["f32[]", None]}


# ----------------------------------------------------------------------------------- bench


def test_bench_is_blocked_and_separates_compile(module_file: Path) -> None:
    result = jaxlint_json(
        "bench",
        f"{module_file}::mlp",
        "--args",
        "f32[32,32], f32[32,32]",
        "--repeat",
        "7",
        "--warmup",
        "2",
        "--compare",
        f"{module_file}::mlp_twice",
    )
    for key in (
        "function",
        "transfer_seconds",
        "trace_seconds",
        "lower_seconds",
        "compile_seconds",
        "first_call_seconds",
        "runs",
        "median_seconds",
        "min_seconds",
        "max_seconds",
        "iqr_seconds",
        "blocked",
        "device",
        "jit",
    ):
        assert key in result
    assert result["blocked"] is True and result["jit"] is True and result["runs"] == 7
    assert (
        result["compile_seconds"] > 0
        and result["trace_seconds"] > 0
        and result["transfer_seconds"] > 0
    )
    assert result["min_seconds"] <= result["median_seconds"] <= result["max_seconds"]
    assert len(result["times_seconds"]) == 7
    compare = result["compare"]
    assert compare["function"].endswith("::mlp_twice") and compare["runs"] == 7
    assert compare["min_seconds"] <= compare["median_seconds"] <= compare["max_seconds"]
    assert result["ratio"] == pytest.approx(compare["median_seconds"] / result["median_seconds"])
    assert result["speedup"] == pytest.approx(1 / result["ratio"])
    assert result["outputs_match"] is True


def test_bench_donation_and_no_jit(module_file: Path) -> None:
    donated = jaxlint_json(
        "bench",
        f"{module_file}::step",
        "--args",
        "f32[64], f32[64]",
        "--donate",
        "params",
        "--repeat",
        "4",
        "--warmup",
        "1",
    )
    assert donated["runs"] == 4  # each run got a fresh donated buffer, so none failed
    eager = jaxlint_json(
        "bench", f"{module_file}::double", "--args", "f32[8]", "--no-jit", "--repeat", "3"
    )
    assert (
        eager["jit"] is False and eager["compile_seconds"] is None and eager["median_seconds"] > 0
    )


# ----------------------------------------------------------------------------------- recompile


def test_recompile_counts_exactly_the_new_signatures(module_file: Path) -> None:
    result = jaxlint_json(
        "recompile",
        f"{module_file}::double",
        "--case",
        "f32[4]",
        "--case",
        "f32[8]",
        "--case",
        "f32[8]",
    )
    assert result["compiles"] == 2
    assert [c["compiled"] for c in result["cases"]] == [True, True, False]
    assert [c["args"] for c in result["cases"]] == ["f32[4]", "f32[8]", "f32[8]"]
    assert result["cases"][2]["miss_reason"] is None
    assert (
        "f32[8]" in result["cases"][1]["miss_reason"]
        and "f32[4]" in result["cases"][1]["miss_reason"]
    )
    assert result["signatures"] == ["(f32[4])", "(f32[8])"]
    assert any(w.startswith("shape change at `x`") for w in result["warnings"])


def test_recompile_explains_weak_types_and_static_values(module_file: Path) -> None:
    weak = jaxlint_json(
        "recompile", f"{module_file}::double", "--case", "2.0", "--case", "f32[]", "--case", "3.0"
    )
    assert [c["compiled"] for c in weak["cases"]] == [True, True, False]
    assert any(w.startswith("weak-type flip at `x`") for w in weak["warnings"])
    static = jaxlint_json(
        "recompile",
        f"{module_file}::reduce",
        "--case",
        "f32[4], 'sum'",
        "--case",
        "f32[4], 'mean'",
        "--case",
        "f32[4], 'sum'",
    )
    assert static["compiles"] == 2
    assert any("static argument `mode`" in w for w in static["warnings"])


# ----------------------------------------------------------------------------------- locate


def test_locate_in_installed_jax_finds_shard_map_and_caches(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    first = jaxlint_json("locate", "shard_map", "--kind", "source", "--limit", "5", env=env)
    assert first["results"] and all(r["kind"] == "source" for r in first["results"])
    assert any("shard_map" in Path(r["path"]).name for r in first["results"])
    assert {"path", "kind", "line", "snippet", "score"} <= set(first["results"][0])
    assert list((tmp_path / "cache" / "jaxlint" / "locate").iterdir())
    start = time.perf_counter()
    second = jaxlint_json("locate", "shard_map", "--kind", "source", "--limit", "5", env=env)
    assert time.perf_counter() - start < 10
    assert second["results"] == first["results"]


def test_locate_in_a_checkout_without_jax(tmp_path: Path) -> None:
    root = tmp_path / "jax-checkout"
    (root / "docs").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "jax" / "_src").mkdir(parents=True)
    (root / "docs" / "random.md").write_text("# Key reuse\n\nNever reuse a PRNG key; split it.\n")
    (root / "tests" / "key_reuse_test.py").write_text("def test_key_reuse():\n    assert True\n")
    (root / "jax" / "_src" / "key_reuse.py").write_text(
        "x = 1\n\ndef check_key_reuse(f):\n    return f\n"
    )
    (root / "jax" / "_src" / "other.py").write_text("def unrelated():\n    return 'key'\n")
    hide_jax = (
        "import sys; sys.modules['jax'] = None; "
        "from jaxlint.cli import main; raise SystemExit(main(sys.argv[1:]))"
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            hide_jax,
            "locate",
            "key",
            "reuse",
            "--root",
            str(root),
            "--no-cache",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    kinds = {Path(r["path"]).name: (r["kind"], r["line"]) for r in result["results"]}
    assert kinds["random.md"] == ("doc", 1)
    assert kinds["key_reuse_test.py"] == ("test", 1)
    assert kinds["key_reuse.py"] == ("source", 3)
    assert result["results"][-1]["path"].endswith("other.py") or "other.py" not in kinds
    docs = jaxlint_json("locate", "key reuse", "--root", str(root), "--kind", "doc", "--no-cache")
    assert [Path(r["path"]).name for r in docs["results"]] == ["random.md"]


# ----------------------------------------------------------------------------------- errors


@pytest.mark.jax_any_version  # argument specs, files and names are refused before any JAX runs
def test_usage_errors_exit_2_with_one_line(module_file: Path) -> None:
    bad_spec = jaxlint("probe", f"{module_file}::mlp", "--args", "f32[4], q7[2]", check=2)
    assert "q7[2]" in bad_spec.stderr and bad_spec.stderr.count("\n") == 1
    missing_file = jaxlint("bench", "nowhere.py::f", "--args", "f32[2]", check=2)
    assert "no such file" in missing_file.stderr
    missing_function = jaxlint("probe", f"{module_file}::nope", "--args", "f32[2]", check=2)
    assert "'nope'" in missing_function.stderr
    bad_static = jaxlint(
        "probe", f"{module_file}::mlp", "--args", "f32[2,2], f32[2,2]", "--static", "zz", check=2
    )
    assert "zz" in bad_static.stderr


@pytest.mark.jax_any_version  # the sandbox's containment of a raise and a sleep (--no-jit)
def test_user_code_failures_and_hangs_are_contained(module_file: Path) -> None:
    failed = jaxlint("probe", f"{module_file}::fails", "--args", "f32[2]", check=1)
    report = json.loads(failed.stdout)
    assert report["ok"] is False and "RuntimeError: user code failed" in report["reason"]
    start = time.perf_counter()
    hung = jaxlint(
        "bench", f"{module_file}::hangs", "--args", "f32[2]", "--timeout", "4", "--no-jit", check=1
    )
    assert time.perf_counter() - start < 60
    assert json.loads(hung.stdout)["reason"] == "timed out after 4.0 s"


def test_text_format_and_help(module_file: Path) -> None:
    text = jaxlint(
        "recompile",
        f"{module_file}::double",
        "--case",
        "f32[2]",
        "--case",
        "f32[2]",
        "--format",
        "text",
    )
    assert "1 compile(s) for 2 case(s)" in text.stdout and "cached" in text.stdout
    for command in ("env", "probe", "bench", "recompile", "locate"):
        assert "usage:" in jaxlint(command, "--help").stdout


# ----------------------------------------------------------------------------------- Python API


def test_python_api_for_verify(module_file: Path) -> None:
    from jaxlint.runtime.toolbox.bench import benchmark
    from jaxlint.runtime.toolbox.inputs import materialize, parse_specs
    from jaxlint.runtime.toolbox.loader import load_function
    from jaxlint.runtime.toolbox.probe import probe
    from jaxlint.runtime.toolbox.recompile import CompileCounter, count_compiles

    double = load_function(str(module_file), "double")
    reduce = load_function(f"{module_file}::reduce")  # the jit wrapper is unwrapped
    assert not hasattr(reduce, "lower")
    cases = [materialize(parse_specs(s)) for s in ("f32[4]", "f32[8]", "f32[8]")]
    counted = count_compiles(double, cases)
    assert counted["compiles"] == 2 and [c["compiled"] for c in counted["cases"]] == [
        True,
        True,
        False,
    ]
    static = count_compiles(
        reduce, [(cases[0][0], "sum"), (cases[0][0], "sum")], static_argnames=("mode",)
    )
    assert static["compiles"] == 1
    import jax

    with CompileCounter() as counter:
        for _ in range(3):
            jax.jit(lambda v: v + 1)(cases[0][0])  # a fresh wrapper each time: 3 compiles
    assert counter.compiles == 3
    timing = benchmark(
        double, cases[0], repeat=3, warmup=1, compare_fn=load_function(f"{module_file}::double")
    )
    assert timing["blocked"] is True and timing["runs"] == 3 and timing["outputs_match"] is True
    assert timing["compile_seconds"] > 0 and timing["compare"]["compile_seconds"] > 0
    described = probe(reduce, [cases[0][0], "sum"], static_argnums=(1,))
    assert described["eval_shape"] == "f32[]" and described["jaxpr_eqns"] == 1
