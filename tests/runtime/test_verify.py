"""`jaxlint verify`: planning (no JAX), the CLI end to end on CPU, and its safety guarantees."""

from __future__ import annotations

import ast
import json
import os
import textwrap
import time
from typing import Any

import pytest

from jaxlint.core.config import Settings
from jaxlint.rules import ALL_RULES
from jaxlint.verify.driver import plan_text, render_text
from jaxlint.verify.plan import (
    InputOptions,
    config_inputs,
    guess_spec,
    kinds_for,
    line_map_between,
    spec_from_annotation,
)

ACCEPTANCE = """
import jax
import jax.numpy as jnp


@jax.jit
def relu_if(x: jax.Array):
    if x.sum() > 0:
        return x
    return -x


@jax.jit
def to_float(x: jax.Array):
    s = float(x.sum())
    return x * s


def noisy_pair(key: jax.Array):
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))
    return a, b


def train(xs: jax.Array):
    out = []
    for x in xs:
        out.append(jax.jit(lambda v: v * 2)(x))
    return out


@jax.jit
def correct(x: jax.Array):
    return jnp.where(x > 0, x, -x)
"""


def write(tmp_path: Any, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------- planning (no JAX)


def facts_for(text: str) -> Any:
    from jaxlint.analysis import ModuleFacts

    tree = ast.parse(textwrap.dedent(text))
    facts = ModuleFacts(tree)
    facts.index  # noqa: B018
    return tree, facts


@pytest.mark.parametrize(
    ("annotation", "name", "expected"),
    [
        ('Float[Array, "8 128"]', "x", "f32[8,128]"),
        ('Int[Array, ""]', "i", "i32[]"),
        ('Float[Array, "batch 3"]', "x", "f32[4,3]"),
        ("jax.Array", "x", "f32[4]"),
        ("jax.Array", "key", "key"),
        ("jax.Array | None", "x", "f32[4]"),
        ("Optional[jax.Array]", "x", "f32[4]"),
        ("int", "n", "3"),
        ("bool", "flag", "True"),
        ("list[float]", "xs", "[1.0, 2.0, 3.0, 4.0]"),
        ("tuple[int, ...]", "shape", "(4,)"),
        ("str", "mode", None),
        ("SomethingElse", "x", None),
    ],
)
def test_spec_from_annotation(annotation: str, name: str, expected: str | None) -> None:
    tree, facts = facts_for(
        f"import jax\nfrom jaxtyping import Array, Float, Int\nfrom typing import Optional\n"
        f"def f({name}: {annotation}): pass\n"
    )
    fn = tree.body[-1]
    got = spec_from_annotation(fn.args.args[0].annotation, name, facts, (4,))
    assert got == expected


def test_guess_spec_is_name_based_and_static_aware() -> None:
    assert guess_spec("key", (8,)) == "key"
    assert guess_spec("num_steps", (8,)) == "3"
    assert guess_spec("training", (8,)) == "True"
    assert guess_spec("x", (8,)) == "f32[8]"
    assert guess_spec("mode", (8,), static=True) == "3"  # a static parameter must hash
    assert guess_spec("rate", (8,), static=True) == "0.5"  # a probability, not 3
    assert guess_spec("dropout_rate", (8,)) == "0.5"


def test_kinds_follow_rules_md() -> None:
    class Rule:
        code = "JAX999"
        verifier = "compiles + bench"

    assert kinds_for(Rule) == ("compiles", "bench")
    Rule.code, Rule.verifier = "JAX998", None
    assert kinds_for(Rule) == ()
    # a rule's `verify` data names more kinds than its `verifier`
    by_code = {r.code: r for r in ALL_RULES}
    assert by_code["JAX201"].verifier == "keycheck"
    assert kinds_for(by_code["JAX201"]) == ("keycheck", "draws")
    assert kinds_for(by_code["JAX101"]) == ("trace",)


def test_config_table_matches_path_and_function(tmp_path: Any) -> None:
    settings = Settings(
        root=str(tmp_path),
        verify=(
            ("default-shape", [2, 3]),
            ("model.py::step", "f32[8], key"),
            ("other.py::step", "i32[]"),
            ("loss", ["f32[4]", "3"]),
            ("*.py::table", {"x": "f32[2]"}),
        ),
    )
    path = str(tmp_path / "model.py")
    assert config_inputs(settings, path, "step")[0] == ["f32[8]", "key"]
    assert config_inputs(settings, path, "loss")[0] == ["f32[4]", "3"]
    assert config_inputs(settings, path, "table")[0] == {"x": "f32[2]"}
    assert config_inputs(settings, path, "missing") == (None, None)


def test_line_map_between_follows_inserted_and_removed_lines() -> None:
    before = "a\nb\nc\nd\n"
    after = "a\nnew\nb\nd\n"
    mapping = line_map_between(before, after)
    assert mapping[1:5] == [1, 3, 4, 4]


# JAX101, JAX110, JAX401, ... and JAX201's medium findings are in preview (docs/precision.md, "Preview
# (from v3)"): the planner tests plan them, so they lint with preview on
PREVIEW_ON = Settings(preview=True)


def plan(tmp_path: Any, text: str, **options: Any) -> list[dict[str, Any]]:
    path = write(tmp_path, "mod.py", text)
    return plan_text(path, open(path).read(), inputs=InputOptions(**options), settings=PREVIEW_ON)


def test_verify_lints_like_check_preview_included(tmp_path: Any) -> None:
    """`jaxlint verify` plans the findings `jaxlint check` reports: the rules in preview only
    with `--preview` (or `preview = true`), and `--no-preview` wins over the setting."""
    from jaxlint.verify.driver import lint_for_verify

    path = write(tmp_path, "accept.py", ACCEPTANCE)

    def found(**kw: Any) -> set[str]:
        return {d.code for d in lint_for_verify(path, ACCEPTANCE, **kw)[0]}

    default: set[str] = set()  # JAX201: preview again after v32 (high default v21-v25, v30-v31)
    preview = {"JAX401", "JAX110", "JAX101", "JAX201"}  # JAX110: after v12; JAX101: v17
    assert found() == default
    assert found(preview=True) == {*default, *preview}
    assert found(preview=True, select="JAX4") == {"JAX401"}
    write(tmp_path, "pyproject.toml", "[tool.jaxlint]\npreview = true\n")
    assert found() == {*default, *preview}
    assert found(preview=False) == default


def test_plan_entries_follow_how_the_code_is_traced(tmp_path: Any) -> None:
    jobs = plan(
        tmp_path,
        """
        import jax
        import jax.numpy as jnp
        from jax import lax

        def helper(v: jax.Array, scale: float):
            if v.sum() > scale:
                return v
            return -v

        @jax.jit
        def step(x: jax.Array):
            return helper(x, 1.0)

        def body(carry, x):
            return carry + int(x), None

        def run(xs: jax.Array):
            return lax.scan(body, 0, xs)

        x = jnp.zeros(3)
        x[0] = 1.0
        """,
    )
    by_line = {j["line"]: j for j in jobs}
    helper = by_line[6]
    assert helper["entry"]["mode"] == "jit" and helper["entry"]["function"] == "helper"
    assert "scale" in helper["entry"]["static"]  # a Python float from the caller: static
    scan_body = by_line[15]
    assert scan_body["entry"]["function"] == "run"  # the loop's owner gives the inputs
    module_level = by_line[21]
    assert module_level["entry"]["mode"] == "module"


def test_plan_says_which_parameter_needs_args(tmp_path: Any) -> None:
    jobs = plan(
        tmp_path,
        """
        import jax

        @jax.jit
        def f(x, n):
            if x.sum() > n:
                return x
            return -x
        """,
    )
    (job,) = jobs
    assert job["entry"] is None
    assert "`x`" in job["entry_error"] and "`n`" in job["entry_error"]
    assert "--args" in job["entry_error"] and "tool.jaxlint.verify" in job["entry_error"]


def test_plan_uses_args_static_and_fix(tmp_path: Any) -> None:
    jobs = plan(
        tmp_path,
        """
        import jax
        import numpy as np

        @jax.jit
        def f(x, n):
            return np.sin(x) * n
        """,
        function="f",
        args="f32[4], 3",
        static=("n",),
    )
    (job,) = jobs
    assert job["entry"]["inputs"] == [["x", "f32[4]", "--args"], ["n", "3", "--args"]]
    assert "n" in job["entry"]["static"]
    assert job["fix"]["safety"] == "safe" and job["fix"]["edits"]


def test_render_text_has_one_block_per_finding() -> None:
    report = {
        "file": "m.py",
        "function": None,
        "jax": "0.10.2",
        "backend": "cpu",
        "seconds": 1.5,
        "summary": {"confirmed": 1, "not-reproduced": 0, "could-not-run": 1},
        "findings": [
            {
                "code": "JAX110",
                "name": "python-control-flow-on-traced",
                "line": 3,
                "col": 4,
                "function": "f",
                "verifier": "trace",
                "verdict": "confirmed",
                "reason": "line 3 raised TracerBoolConversionError",
                "seconds": 0.01,
                "evidence": {"exception": "jax.errors.TracerBoolConversionError", "at_line": 3},
            },
            {
                "code": "JAX201",
                "name": "prng-key-reuse",
                "line": 9,
                "col": 0,
                "function": "g",
                "verifier": "keycheck+draws",
                "verdict": "could-not-run",
                "reason": "parameter `key` of `g` needs an input",
                "seconds": 0.0,
                "evidence": {},
            },
        ],
    }
    text = render_text(report)
    assert "m.py:3:5: JAX110" in text and "CONFIRMED" in text
    assert "COULD-NOT-RUN" in text and "needs an input" in text
    assert "1 confirmed, 0 not-reproduced, 1 could-not-run" in text
    assert "(JAX 0.10.2 on cpu)" in text
    # no JAX ran (a new user saw "(JAX ? on ?)"): the header names none
    text = render_text({**report, "jax": None, "backend": None})
    assert "finding(s) verified\n" in text and "?" not in text.splitlines()[0]


def test_missing_jax_is_a_usage_error(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from jaxlint.cli import main

    path = write(tmp_path, "m.py", "x = 1\n")
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "jax" else real(name, *a)
    )
    assert main(["verify", path]) == 2
    assert "needs JAX" in capsys.readouterr().err


# --------------------------------------------------------------------------- end to end (JAX, CPU)


def run_json(run_cli: Any, *args: str, cwd: Any = None) -> tuple[int, dict[str, Any], str]:
    proc = run_cli("verify", *args, "--format", "json", cwd=cwd)
    try:
        report = json.loads(proc.stdout) if proc.stdout.strip() else {}
    except ValueError:
        report = {}
    return proc.returncode, report, proc.stderr


@pytest.mark.jax
def test_acceptance_file_confirms_all_four_sharp_bits(tmp_path: Any, run_cli: Any) -> None:
    pytest.importorskip("jax")
    write(tmp_path, "accept.py", ACCEPTANCE)
    code, report, err = run_json(run_cli, "accept.py", "--preview")  # JAX101, JAX401: preview
    assert code == 0, err
    assert report["backend"] == "cpu"  # JAX_PLATFORMS unset -> cpu
    findings = {f["code"]: f for f in report["findings"]}
    assert set(findings) == {"JAX110", "JAX101", "JAX201", "JAX401"}, report
    assert all(f["verdict"] == "confirmed" for f in findings.values()), json.dumps(report, indent=1)
    assert not [f for f in report["findings"] if f["function"] == "correct"]

    branch = findings["JAX110"]["evidence"]
    assert branch["exception"] == "jax.errors.TracerBoolConversionError"
    assert branch["at_line"] == findings["JAX110"]["line"]
    assert branch["static_fix"]["works"] is False  # x is an array: not a static_argnames fix

    conversion = findings["JAX101"]["evidence"]
    assert conversion["exception"] == "jax.errors.ConcretizationTypeError"
    assert findings["JAX101"]["evidence"]["fix"]["verdict"] == "not-reproduced"

    reuse = findings["JAX201"]["evidence"]
    assert reuse["identical_draws"] is True
    assert "consumed" in reuse["key_reuse_error"]  # KeyReuseError from jax.debug_key_reuse

    compiles = findings["JAX401"]["evidence"]
    assert compiles["executions"] >= 2
    assert compiles["compiles"] == compiles["executions"]  # one compile per call
    assert compiles["fix"]["verdict"] == "not-reproduced"  # hoisted: compiles once
    assert report["summary"] == {"confirmed": 4, "not-reproduced": 0, "could-not-run": 0}
    for finding in report["findings"]:
        assert {"code", "name", "line", "function", "verdict", "evidence", "seconds"} <= set(
            finding
        )


@pytest.mark.jax
def test_function_filter_text_format_and_correct_code(tmp_path: Any, run_cli: Any) -> None:
    pytest.importorskip("jax")
    write(tmp_path, "accept.py", ACCEPTANCE)
    proc = run_cli("verify", "accept.py::relu_if", "--no-fix-check", "--preview")  # JAX110
    assert proc.returncode == 0, proc.stderr
    assert "JAX110" in proc.stdout and "CONFIRMED" in proc.stdout
    assert "TracerBoolConversionError" in proc.stdout
    assert "JAX401" not in proc.stdout  # only the named function
    code, report, err = run_json(run_cli, "accept.py::correct")
    assert code == 0, err
    assert report["findings"] == [] and report["summary"]["confirmed"] == 0


@pytest.mark.jax
def test_verify_sees_project_index_findings(tmp_path: Any, run_cli: Any) -> None:
    """A finding that needs another module's facts (a key helper in helpers.py) is planned and
    run like any other: verify lints with the project index, as `jaxlint check` does."""
    pytest.importorskip("jax")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\n')
    write(
        tmp_path,
        "helpers.py",
        """
        import jax


        def sample(key):
            return jax.random.normal(key, (3,))
        """,
    )
    write(
        tmp_path,
        "pair.py",
        """
        from helpers import sample


        def pair(key):
            a = sample(key)
            b = sample(key)
            return a, b
        """,
    )
    # a key consumed through a helper is JAX201 at medium confidence, in preview
    check = run_cli("check", "--no-cache", "--format", "json", "--preview", "pair.py")
    assert [d["code"] for d in json.loads(check.stdout)] == ["JAX201"], check.stdout
    code, report, err = run_json(
        run_cli, "pair.py::pair", "--args", "key", "--no-fix-check", "--preview"
    )
    assert code == 0, err
    assert [(f["code"], f["line"]) for f in report["findings"]] == [("JAX201", 6)], report
    assert report["findings"][0]["verdict"] == "confirmed", json.dumps(report, indent=1)


@pytest.mark.jax
def test_helper_jitted_from_another_module_runs_under_jit(tmp_path: Any, run_cli: Any) -> None:
    """`if loss > 1` in losses.py is a finding because train.py jits its caller: verify runs
    the helper under `jax.jit` (the planner has the same project facts as the lint), so the
    finding is confirmed, not 'not-reproduced' by an eager plain call."""
    pytest.importorskip("jax")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\n')
    write(
        tmp_path,
        "losses.py",
        """
        import jax.numpy as jnp


        def mse(x):
            loss = jnp.mean(x**2)
            if loss > 1.0:
                return loss * 0.5
            return loss
        """,
    )
    write(
        tmp_path,
        "train.py",
        """
        import jax

        from losses import mse


        @jax.jit
        def step(x):
            return jax.grad(mse)(x)
        """,
    )
    code, report, err = run_json(  # a chained JAX110 is medium confidence: in preview
        run_cli, "losses.py::mse", "--args", "f32[3]", "--no-fix-check", "--preview"
    )
    assert code == 0, err
    [finding] = report["findings"]
    assert (finding["code"], finding["line"]) == ("JAX110", 6), report
    assert finding["verdict"] == "confirmed", json.dumps(report, indent=1)
    assert "via jax.jit" in finding["evidence"]["ran"]


@pytest.mark.jax
def test_key_reuse_not_reached_is_could_not_run(tmp_path: Any, run_cli: Any) -> None:
    """main() raises (a traced `if`) after one draw and before the second use of the key: the
    reuse was never reached, so the verdict is could-not-run, not 'no key used twice'."""
    pytest.importorskip("jax")
    write(
        tmp_path,
        "stops.py",
        """
        import jax


        @jax.jit
        def bad(x):
            if x.sum() > 0:
                return x
            return -x


        def main():
            key = jax.random.key(0)
            x = jax.random.normal(key, (3,))
            bad(x)
            return jax.random.uniform(key, (3,))
        """,
    )
    code, report, err = run_json(
        run_cli, "stops.py::main", "--select", "JAX201", "--preview", "--no-fix-check"
    )
    assert code == 0, err
    [finding] = report["findings"]
    assert finding["code"] == "JAX201", report
    assert finding["verdict"] == "could-not-run", json.dumps(report, indent=1)
    assert "TracerBoolConversionError" in finding["reason"]


def test_jitted_method_failing_at_its_call_is_confirmed(tmp_path: Any, run_cli: Any) -> None:
    """`@jax.jit` on a plain class's `__call__` fails where it is called (`self` is no JAX
    type), and JAX's message names the method: that error belongs to the `def` line JAX409
    flags (a new user's report, stop 52: NOT-REPRODUCED "ran line 10 without an error")."""
    pytest.importorskip("jax")
    write(
        tmp_path,
        "method.py",
        """
        import jax
        import jax.numpy as jnp


        class Model:
            def __init__(self, scale):
                self.scale = scale

            @jax.jit
            def __call__(self, x):
                return x * self.scale


        print(Model(2.0)(jnp.ones(2)))
        """,
    )
    code, report, err = run_json(run_cli, "method.py", "--select", "JAX409", "--preview")
    assert code == 0, err
    [finding] = report["findings"]
    assert finding["verdict"] == "confirmed", json.dumps(report, indent=1)
    assert finding["evidence"]["raised_at"] == 14 and finding["line"] == 10
    # the finding on the `def` line belongs to that function when one is named
    code, report, err = run_json(
        run_cli, "method.py::Model.__call__", "--args", "f32[2]", "--select", "JAX409", "--preview"
    )
    assert code == 0, err
    assert [f["code"] for f in report["findings"]] == ["JAX409"], json.dumps(report, indent=1)


@pytest.mark.jax
def test_usage_errors_exit_2(tmp_path: Any, run_cli: Any) -> None:
    pytest.importorskip("jax")
    write(tmp_path, "accept.py", ACCEPTANCE)
    missing = run_cli("verify", "nope.py")
    assert missing.returncode == 2 and "no such file" in missing.stderr
    no_function = run_cli("verify", "accept.py::nope")
    assert no_function.returncode == 2 and "has no function" in no_function.stderr
    bad_args = run_cli("verify", "accept.py::relu_if", "--args", "f32[8")
    assert bad_args.returncode == 2 and "--args" in bad_args.stderr
    folder = run_cli("verify", ".")
    assert folder.returncode == 2 and "'.' is a folder; verify runs one file" in folder.stderr
    (tmp_path / "nb.ipynb").write_text('{"cells": []}')
    notebook = run_cli("verify", "nb.ipynb")
    assert notebook.returncode == 2 and "is a notebook" in notebook.stderr
    nothing = run_cli("verify", "accept.py::correct")  # no findings: no "(JAX ? on ?)"
    assert nothing.returncode == 0, nothing.stderr
    assert nothing.stdout.startswith("accept.py::correct: no findings to verify"), nothing.stdout


@pytest.mark.jax
def test_inputs_from_config_args_and_missing(tmp_path: Any, run_cli: Any) -> None:
    pytest.importorskip("jax")
    write(
        tmp_path,
        "pyproject.toml",
        """
        [tool.jaxlint.verify]
        default-shape = [4]
        "cfg.py::by_config" = "f32[3], 3"
        """,
    )
    write(
        tmp_path,
        "cfg.py",
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def by_config(x, n):
            return jnp.zeros(n) + x

        @jax.jit
        def by_annotation(x: jax.Array):
            return float(x.sum())

        @jax.jit
        def unknown(x, n):
            for i in range(n):
                x = x + i
            return x
        """,
    )
    code, report, err = run_json(run_cli, "cfg.py", "--no-fix-check", "--preview")  # JAX101
    assert code == 0, err
    by_function = {f["function"]: f for f in report["findings"]}
    config = by_function["by_config"]
    assert config["verdict"] == "confirmed", config
    assert config["evidence"]["static_fix"]["works"] is True  # n static -> traces
    annotated = by_function["by_annotation"]
    assert annotated["verdict"] == "confirmed" and "f32[4]" in annotated["evidence"]["ran"]
    missing = by_function["unknown"]
    assert missing["verdict"] == "could-not-run"
    assert "`x`" in missing["reason"] and "--args" in missing["reason"]
    # the same function with --args (static n: the loop is then legal)
    code, report, err = run_json(
        run_cli,
        "cfg.py::unknown",
        "--args",
        "f32[4], 3",
        "--static",
        "n",
        "--no-fix-check",
        "--preview",
    )
    assert code == 0, err
    (finding,) = report["findings"]
    assert finding["verdict"] == "not-reproduced", finding


@pytest.mark.jax
def test_hang_and_crash_become_could_not_run(tmp_path: Any, run_cli: Any) -> None:
    pytest.importorskip("jax")
    write(
        tmp_path,
        "unsafe.py",
        """
        import os
        import time

        import jax


        @jax.jit
        def hangs(x: jax.Array):
            time.sleep(600)
            if x.sum() > 0:
                return x
            return -x


        @jax.jit
        def crashes(x: jax.Array):
            if x.ndim >= 0:  # always, at trace time (an unconditional exit ends the block:
                os._exit(7)  # what follows it would never run, and nothing is flagged there)
            if x.sum() > 0:
                return x
            return -x


        @jax.jit
        def fine(x: jax.Array):
            if x.sum() > 0:
                return x
            return -x
        """,
    )
    start = time.monotonic()
    code, report, err = run_json(
        run_cli, "unsafe.py", "--timeout", "3", "--no-fix-check", "--preview"
    )  # JAX110 is in preview
    assert time.monotonic() - start < 200
    assert code == 0, err
    by_function = {f["function"]: f for f in report["findings"]}
    assert by_function["hangs"]["verdict"] == "could-not-run"
    assert "timed out" in by_function["hangs"]["reason"]
    assert by_function["crashes"]["verdict"] == "could-not-run"
    assert "crashed" in by_function["crashes"]["reason"]
    assert by_function["fine"]["verdict"] == "confirmed"  # the others still ran


@pytest.mark.jax
def test_module_is_never_run_as_main(tmp_path: Any, run_cli: Any) -> None:
    pytest.importorskip("jax")
    marker = tmp_path / "ran-main"
    write(
        tmp_path,
        "script.py",
        f"""
        import jax

        @jax.jit
        def f(x: jax.Array):
            return float(x.sum())

        if __name__ == "__main__":
            open({str(marker)!r}, "w").write("ran")
        """,
    )
    code, report, err = run_json(run_cli, "script.py", "--no-fix-check", "--preview")  # JAX101
    assert code == 0, err
    assert report["findings"][0]["verdict"] == "confirmed"
    assert not os.path.exists(marker)


def test_plan_takes_self_built_from_the_class_with_defaults_left_out(tmp_path: Any) -> None:
    """`--args "=Layer(4), 4"` for `Layer.__init__(self, n, m=16)`: the first item builds the
    class, so it is `self`, also when defaulted parameters are left out (it was taken for
    `n`, and verify then asked for `self`; new-user review 4)."""
    jobs = plan(
        tmp_path,
        """
        import jax

        class Layer:
            def __init__(self, n, m=16):
                key = jax.random.key(0)
                self.w = jax.random.normal(key, (n, m))
                self.b = jax.random.normal(key, (m,))
        """,
        function="Layer.__init__",
        args="=Layer(4), 4",
    )
    (job,) = [j for j in jobs if j["code"] == "JAX201"]
    assert job["entry"]["inputs"][:2] == [["self", "=Layer(4)", "--args"], ["n", "4", "--args"]]
