"""Verdicts that must not lie: never "not reproduced" about code that did not run, never a
confirmation from another line's evidence (issue 25, ux-review-3 B4)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from jaxlint.verify.driver import plan_text, run_jobs, verify_file
from jaxlint.verify.report import finding_report, reconcile

pytestmark = pytest.mark.jax


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return str(path)


def _by(report: dict[str, Any], code: str, line: int | None = None) -> dict[str, Any]:
    found = [
        f for f in report["findings"] if f["code"] == code and (line is None or f["line"] == line)
    ]
    assert len(found) == 1, report["findings"]
    return found[0]


MAIN_BLOCK = """
import jax


def f(x):
    return x * 2


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))
    print(a, b)
"""


def test_main_block_finding_cannot_run_without_capture_main(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    path = _file(tmp_path, "m.py", MAIN_BLOCK)
    report = verify_file(path, check_fixes=False, preview=True)  # JAX201: preview after v15
    finding = _by(report, "JAX201")
    assert finding["verdict"] == "could-not-run", finding
    assert "__main__" in finding["reason"] and "--capture-main" in finding["reason"]
    # with --capture-main the block's statements run, and the reuse is seen on its lines
    report = verify_file(path, check_fixes=False, capture_main=True, preview=True)
    finding = _by(report, "JAX201")
    assert finding["verdict"] == "confirmed", finding
    assert {d["line"] for d in finding["evidence"]["draws"]} == {10, 11}


def test_module_level_jit_vmap_never_called_is_could_not_run(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    path = _file(
        tmp_path,
        "v.py",
        """
        import jax


        def sample(key, x):
            return jax.random.normal(key, (3,)) + x


        batched = jax.jit(jax.vmap(sample, in_axes=(None, 0)))
        """,
    )
    report = verify_file(path, check_fixes=False, select="JAX207", preview=True)  # a preview rule
    finding = _by(report, "JAX207")
    assert finding["verdict"] == "could-not-run", finding
    assert "never ran" in finding["reason"]


def test_module_trace_says_could_not_run_for_a_line_that_never_ran(tmp_path: Path) -> None:
    """The `trace` kind in module mode: a line in a function nobody calls did not "run
    without an error"."""
    pytest.importorskip("jax")
    source = textwrap.dedent(
        """
        import jax
        import jax.numpy as jnp

        def helper(x):
            if x.sum() > 0:
                return x
            return -x

        f = jax.jit(helper)
        """
    ).lstrip()
    jobs = plan_text("t.py", source, codes=["JAX110"], check_fixes=False)
    assert jobs, "JAX110 should flag the branch"
    job = jobs[0]
    job["entry"] = {"mode": "module", "inputs": []}  # as the planner does for module code
    job["kinds"] = ["trace"]
    job["file"] = str(tmp_path / "t.py")
    (tmp_path / "t.py").write_text(source)
    results, _ = run_jobs([job], timeout=60)
    result = results[job["id"]]
    assert result["verdict"] == "could-not-run", result
    assert "never ran" in result["reason"]


TWO_REUSES = """
import jax


def f(key: jax.Array):
    k1, k2 = jax.random.split(key)
    a = jax.random.normal(k1, (3,))
    ok = jax.random.normal(k2, (3,))
    b = jax.random.normal(k1, (3,))
    return a, ok, b
"""


def test_keycheck_never_confirms_from_another_line(tmp_path: Path) -> None:
    """A finding moved onto a line with no reuse (a static false positive, simulated) is not
    confirmed by the reuse two lines below."""
    pytest.importorskip("jax")
    path = _file(tmp_path, "k.py", TWO_REUSES)
    source = Path(path).read_text()
    jobs = plan_text(path, source, codes=["JAX201"], check_fixes=False)
    assert [j["line"] for j in jobs] == [8]
    job = jobs[0]
    job["line"], job["lines"] = 7, [7]  # `ok = normal(k2)`: k2 is used once
    job["kinds"] = ["keycheck"]
    results, _ = run_jobs([job], timeout=60)
    result = results[job["id"]]
    assert result["verdict"] != "confirmed", result
    # the reuse at line 8 is the other finding's: its fix is applied and line 7 checked again
    assert result["verdict"] == "not-reproduced", result
    assert result["evidence"]["unmasked_by_fixing"] == [{"code": "JAX201", "line": 8}]
    # with no finding at line 8 to blame, it is could-not-run, naming the other line
    job["others"] = []
    results, _ = run_jobs([job], timeout=60)
    result = results[job["id"]]
    assert result["verdict"] == "could-not-run", result
    assert "line 8, not at line 7" in result["reason"], result
    # the real line is confirmed, at its own line
    jobs = plan_text(path, source, codes=["JAX201"], check_fixes=False)
    jobs[0]["kinds"] = ["keycheck"]
    results, _ = run_jobs(jobs, timeout=60)
    result = results[jobs[0]["id"]]
    assert result["verdict"] == "confirmed", result
    assert result["evidence"]["at_line"] == 8


def test_keycheck_feeds_the_returned_key_into_the_next_call(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    path = _file(
        tmp_path,
        "s.py",
        """
        import jax


        def step(key: jax.Array, x: jax.Array):
            noise = jax.random.normal(key, x.shape)
            return key, x + noise
        """,
    )
    report = verify_file(path, check_fixes=False, select="JAX201", preview=True)
    finding = _by(report, "JAX201")
    assert finding["verdict"] == "confirmed", finding
    assert finding["evidence"]["calls"] == 2
    assert finding["evidence"]["at_line"] == 5  # the consumption in the second call
    assert finding["evidence"]["returned_at"] == 6


def test_draws_of_one_key_at_two_shapes_are_identical(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    path = _file(
        tmp_path,
        "d.py",
        """
        import jax


        def init(key: jax.Array):
            params = []
            for n_in, n_out in [(4, 8), (8, 1)]:
                params.append(jax.random.normal(key, (n_in, n_out)))
            return params
        """,
    )
    report = verify_file(path, check_fixes=False, select="JAX201", preview=True)
    finding = _by(report, "JAX201")
    assert finding["verdict"] == "confirmed", finding
    evidence = finding["evidence"]
    values = [d["values"] for d in evidence["draws"]]
    assert values[0] == values[1]
    assert evidence["identical_draws"] is True  # it was False beside identical lists
    assert evidence["same_shape"] is False


MASKED = """
import time

import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    pred = x @ params
    loss = jnp.mean((pred - y) ** 2)
    if loss > 1.0:
        loss = jnp.sqrt(loss)
    return loss


grad_fn = jax.jit(jax.grad(loss_fn))


def main():
    params = jnp.ones((4, 1))
    x = jnp.ones((16, 4))
    y = jnp.zeros((16, 1))
    t0 = time.time()
    g = grad_fn(params, x, y)
    print(time.time() - t0)
    return g
"""


def test_a_run_stopped_at_a_findings_line_confirms_it(tmp_path: Path) -> None:
    """ux-review-3 B4: JAX110 said could-not-run (its parameters need inputs) while JAX601 and
    JAX602 said they were masked by it, with its TracerBoolConversionError in hand."""
    pytest.importorskip("jax")
    path = _file(tmp_path, "mlp.py", MASKED)
    report = verify_file(
        path, check_fixes=False, preview=True
    )  # independent of the default selection
    branch = _by(report, "JAX110")
    assert branch["verdict"] == "confirmed", branch
    assert branch["evidence"]["at_line"] == branch["line"] == 10
    assert branch["evidence"]["seen_by"]["code"] in ("JAX601", "JAX602")
    masked = _by(report, "JAX601")
    assert masked["evidence"]["masked_by"] == {"code": "JAX110", "line": 10, "has_fix": False}


def test_reconcile_needs_the_predicted_exception_on_the_findings_line() -> None:
    job = {"code": "JAX110", "line": 10, "lines": [10], "kinds": ["trace"], "verify": {}}
    other_job = {"code": "JAX601", "line": 23, "lines": [23], "kinds": ["bench"]}

    def findings(at_line: int, exception: str) -> list[dict[str, Any]]:
        target = finding_report(
            {**job, "name": "x", "col": 1, "message": "", "function": "f"},
            {"verdict": "could-not-run", "reason": "needs inputs", "evidence": {}},
        )
        masked = finding_report(
            {**other_job, "name": "y", "col": 1, "message": "", "function": "main"},
            {
                "verdict": "could-not-run",
                "reason": "masked",
                "evidence": {
                    "masked_by": {"code": "JAX110", "line": 10},
                    "exception": exception,
                    "message": "m",
                    "at_line": at_line,
                },
            },
        )
        return [target, masked]

    ok = findings(10, "jax.errors.TracerBoolConversionError")
    reconcile([job, other_job], ok)
    assert ok[0]["verdict"] == "confirmed"
    for wrong in (findings(11, "jax.errors.TracerBoolConversionError"), findings(10, "ValueError")):
        reconcile([job, other_job], wrong)
        assert wrong[0]["verdict"] == "could-not-run"


SECOND_CALL = """
import jax
import jax.numpy as jnp


def forward(x, key, training):
    if training:
        a = jax.random.normal(key, x.shape)
        b = jax.random.bernoulli(key, 0.5, x.shape)
        return x * a * b
    return x


if __name__ == "__main__":
    forward(jnp.ones(3), jax.random.key(0), False)  # an evaluation call first
    forward(jnp.ones(3), jax.random.key(1), True)
"""


def test_capture_uses_the_recorded_call_that_reaches_the_line(tmp_path: Path) -> None:
    """Only the first recorded call was used: an eval call first never reaches the training
    branch, so the reuse there was never seen."""
    pytest.importorskip("jax")
    path = _file(tmp_path, "second.py", SECOND_CALL)
    report = verify_file(path, check_fixes=False, capture_main=True, select="JAX201", preview=True)
    finding = _by(report, "JAX201")
    assert finding["verdict"] == "confirmed", finding
    assert finding["evidence"]["captured_call"] == 2
    assert "training=True" in finding["evidence"]["captured"]


def test_an_array_is_never_a_static_argument_of_our_jit(tmp_path: Path) -> None:
    """A parameter marked static (here by --static, as the analysis marks a vmap `in_axes=None`
    argument or a scan body's closure constant) that receives an array stays traced: our own
    jit failed with "Non-hashable static arguments" before reaching the line."""
    pytest.importorskip("jax")
    path = _file(
        tmp_path,
        "ax.py",
        """
        import jax


        def apply(w, x):
            if x.sum() > 0:
                return w @ x
            return -w @ x


        batched = jax.vmap(apply, in_axes=(None, 0))
        """,
    )
    report = verify_file(
        path,
        function="apply",
        args="f32[4,4], f32[4]",
        static=["w"],
        check_fixes=False,
        preview=True,  # JAX110 is in preview
    )
    finding = _by(report, "JAX110")
    assert finding["verdict"] == "confirmed", finding
    assert "Non-hashable" not in finding["reason"]


def test_jax209_is_checked_as_written_not_under_disable_jit(tmp_path: Path) -> None:
    """Under `disable_jit` the global key advances per call and the bug is gone; as written,
    the split of the module-level key is a constant of the compiled program."""
    pytest.importorskip("jax")
    path = _file(
        tmp_path,
        "g.py",
        """
        import jax

        SEED = jax.random.key(1)


        @jax.jit
        def step(x: jax.Array):
            global SEED
            SEED, sub = jax.random.split(SEED)
            return x + jax.random.normal(sub, x.shape)


        def loop(xs):
            return [step(x) for x in xs]
        """,
    )
    report = verify_file(path, check_fixes=False, select="JAX209", preview=True)  # in preview
    finding = _by(report, "JAX209")
    assert finding["verdict"] == "confirmed", finding
    assert finding["evidence"]["outputs_equal"] is True
    assert "as written" in finding["evidence"]["ran"]


def test_jax204_host_coin_flip_is_told_apart(tmp_path: Path) -> None:
    """A host coin flip agreed across 3 traces 25% of the time ("not reproduced"); with 12 the
    odds of a false agreement are 2**-11."""
    pytest.importorskip("jax")
    from jaxlint.runtime.kinds.retrace_cmp import FRESH_TRACES

    assert 2.0**-FRESH_TRACES < 1e-3
    path = _file(
        tmp_path,
        "coin.py",
        """
        import random

        import jax


        @jax.jit
        def noisy(x: jax.Array):
            if random.random() > 0.5:
                return x + 1.0
            return x - 1.0
        """,
    )
    report = verify_file(path, check_fixes=False, select="JAX204", preview=True)  # preview: v14
    finding = _by(report, "JAX204")
    assert finding["verdict"] == "confirmed", finding
    assert finding["evidence"]["same_trace_equal"] is True


def test_nothing_runnable_starts_no_child(tmp_path: Path, monkeypatch: Any) -> None:
    """A file whose findings all need inputs nobody gave returns at once: no subprocess, no JAX
    import (it paid 4-5 s for the child to say "needs an input")."""
    import jaxlint.verify.run as run

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a child was started for jobs that cannot run")

    monkeypatch.setattr(run, "_run_group", refuse)
    path = _file(
        tmp_path,
        "n.py",
        """
        import jax


        def sample(key, x):
            a = jax.random.normal(key, (3,))
            b = jax.random.normal(key, (3,))
            return a + b + x
        """,
    )
    report = verify_file(path, check_fixes=False, preview=True)  # JAX201: preview after v15
    finding = _by(report, "JAX201")
    assert finding["verdict"] == "could-not-run"
    assert "need an input" in finding["reason"]


def test_module_level_timing_runs_the_script_once_per_check(tmp_path: Path) -> None:
    """JAX601 and JAX602 on one module-level timed region share one run of the script (the
    `compiles` kind of JAX602 and the `bench` kind of both read the same run); the region
    repeats only while that stays cheap."""
    pytest.importorskip("jax")
    log = tmp_path / "runs.log"
    path = _file(
        tmp_path,
        "script.py",
        f"""
        import time

        import jax
        import jax.numpy as jnp

        open({str(log)!r}, "a").write("script\\n")


        @jax.jit
        def step(x):
            return jnp.tanh(x @ x.T) @ x


        x = jnp.ones((200, 200))
        t0 = time.perf_counter()
        for _ in range(3):
            x = step(x)
        print("took", time.perf_counter() - t0)
        """,
    )
    report = verify_file(
        path, check_fixes=False, preview=True
    )  # independent of the default selection
    assert {f["code"] for f in report["findings"]} == {"JAX601", "JAX602"}
    assert log.read_text().count("script") == 1  # was 3 to 5 (a run per finding and round)


def test_module_level_timeit_repeat_is_a_timed_region(tmp_path: Path) -> None:
    """`timeit.repeat` at module level is timed like `timeit.timeit` (it was 'no pair of clock
    reads around it'), without re-running the timeit call itself; the script runs once for the
    original and once for its fix."""
    pytest.importorskip("jax")
    log = tmp_path / "runs.log"
    path = _file(
        tmp_path,
        "bench.py",
        f"""
        import timeit

        import jax
        import jax.numpy as jnp

        open({str(log)!r}, "a").write("script\\n")
        fast = jax.jit(lambda a: jnp.tanh(a @ a) @ a)
        x = jnp.ones((400, 400))
        fast(x).block_until_ready()
        times = timeit.repeat(lambda: fast(x), number=5, repeat=3)
        print(min(times))
        """,
    )
    report = verify_file(path, select="JAX601", preview=True)
    finding = _by(report, "JAX601")
    assert finding["verdict"] == "confirmed", finding
    assert finding["evidence"]["how"] == "timeit"
    assert log.read_text().count("script") == 2  # the original once, the fixed code once


def test_a_confirmation_never_shows_another_lines_stop_as_its_own(tmp_path: Path) -> None:
    """ux-review-3 B4: JAX201 at line 16 was confirmed with `at_line 12` (the other finding's
    KeyReuseError, which stopped the run first)."""
    pytest.importorskip("jax")
    path = _file(
        tmp_path,
        "two.py",
        """
        import jax


        def init(key, sizes):
            params = []
            for n_in, n_out in zip(sizes[:-1], sizes[1:]):
                w = jax.random.normal(key, (n_in, n_out))
                params.append(w)
            return params


        def main():
            key = jax.random.key(0)
            params = init(key, [4, 8, 1])
            noise = jax.random.normal(key, (16, 4))
            return params, noise
        """,
    )
    report = verify_file(path, preview=True)  # JAX201 through `init` is medium, in preview
    loop, later = _by(report, "JAX201", 7), _by(report, "JAX201", 15)
    assert loop["verdict"] == later["verdict"] == "confirmed", report["findings"]
    assert loop["evidence"]["at_line"] == 7
    assert later["evidence"].get("at_line") != 7  # the keycheck stop at line 7 is not its own
    assert later["evidence"]["keycheck.at_line"] == 7
    assert 15 in {d["line"] for d in later["evidence"]["draws"]}
    assert loop["evidence"]["fix"]["verdict"] == "not-reproduced"  # line 15 does not count


def test_dtype_of_plain_code_runs_it_with_the_recorded_ints(tmp_path: Path) -> None:
    """JAX701 in a plain init helper called with `n=4` (recorded by --capture-main): the helper
    runs as the program runs it; under `jax.eval_shape` the 4 became a tracer and `jnp.zeros`
    failed ('Shapes must be 1D sequences of concrete values'), so it could not run."""
    pytest.importorskip("jax")
    path = _file(
        tmp_path,
        "init.py",
        """
        import jax.numpy as jnp


        def init_weights(n):
            return jnp.zeros((n, n), dtype=jnp.float64)


        if __name__ == "__main__":
            print(init_weights(4).dtype)
        """,
    )
    report = verify_file(path, select="JAX701", capture_main=True, check_fixes=False, preview=True)
    finding = _by(report, "JAX701")
    assert finding["verdict"] == "confirmed", finding
    assert "float64" in finding["reason"]
    assert "n=4" in finding["evidence"]["ran"]


def test_a_module_level_pmap_body_runs_through_the_pmapped_name(tmp_path: Path) -> None:
    """A finding after a collective in `step`, with `p_step = jax.pmap(step, axis_name=...)`:
    our own `jax.jit(step)` stopped at the `pmean` (unbound axis name) before the flagged line.
    With --capture-main the entry is `p_step` itself, with the global inputs the program gave
    it (recorded at the call site on 8 simulated devices)."""
    pytest.importorskip("jax")
    path = _file(
        tmp_path,
        "dp.py",
        """
        import jax
        import jax.numpy as jnp


        def step(w, x):
            g = jax.lax.pmean(jnp.mean(x @ w), axis_name="batch")
            if g > 1.0:
                g = g / 2
            return w - 0.1 * g


        p_step = jax.pmap(step, axis_name="batch")

        if __name__ == "__main__":
            n = jax.local_device_count()
            w, x = jnp.ones((n, 4)), jnp.ones((n, 8, 4))
            w = p_step(w, x)
        """,
    )
    report = verify_file(
        path, select="JAX110", capture_main=True, check_fixes=False, preview=True
    )  # JAX110 is in preview
    finding = _by(report, "JAX110")
    assert finding["verdict"] == "confirmed", finding
    assert finding["evidence"]["ran"].startswith("p_step(w=f32[8,4], x=f32[8,8,4])"), finding


_NO_JAX_SCRIPT = """
import subprocess
import sys


def refuse(*args, **kwargs):
    raise AssertionError(f"a subprocess was started: {args[:1]}")


subprocess.Popen = refuse
from jaxlint.verify.driver import verify_file

report = verify_file(sys.argv[1], check_fixes=False, capture_main=sys.argv[2] == "capture")
verdicts = sorted((f["code"], f["verdict"]) for f in report["findings"])
assert verdicts and all(v == "could-not-run" for _, v in verdicts), verdicts
assert "jax" not in sys.modules, "jax was imported"
print("no child, no jax:", verdicts)
"""


@pytest.mark.parametrize("capture", ["plain", "capture"])
def test_nothing_runnable_imports_no_jax_and_starts_no_process(
    tmp_path: Path, capture: str
) -> None:
    """A file with nothing verify can run (a parameter nobody gave an input for; a finding no
    verifier checks, even with --capture-main) returns without any subprocess (no sandbox child,
    no captured run) and without importing JAX, in a fresh interpreter."""
    import subprocess
    import sys

    path = _file(
        tmp_path,
        "n.py",
        """
        import jax
        import jax.numpy as jnp


        def sample(key, x):
            a = jax.random.normal(key, (3,))
            b = jax.random.normal(key, (3,))
            return a + b + x


        def total(xs):
            acc = jnp.empty(3)
            for x in xs:
                acc += x
            return acc


        if __name__ == "__main__":
            print(total([jnp.ones(3)]))
        """,
    )
    select = "JAX201,JAX812" if capture == "plain" else "JAX812"
    script = _NO_JAX_SCRIPT.replace("check_fixes=False,", f"check_fixes=False, select={select!r},")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", script, path, capture],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "no child, no jax" in done.stdout


def test_one_process_imports_jax_for_the_captured_run_and_the_checks(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """`verify --capture-main` starts one Python process per file (the fork server, which
    imports JAX once); the captured run and the verifier's child are forked from it, and the
    verdict is the one a fresh child gave (it took three JAX imports for such a file)."""
    import subprocess

    import jaxlint.runtime.forkserver as forkserver

    started: list[list[str]] = []
    real = subprocess.Popen

    def spy(argv: Any, *args: Any, **kwargs: Any) -> Any:
        started.append(list(argv))
        return real(argv, *args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", spy)
    forks: list[int] = []
    close = forkserver.ForkServer.close

    def count(self: Any) -> None:
        forks.append(self.started)
        close(self)

    monkeypatch.setattr(forkserver.ForkServer, "close", count)
    path = _file(
        tmp_path,
        "train.py",
        """
        import jax
        import jax.numpy as jnp


        def loss(w, x):
            if jnp.sum(x) > 0:
                return jnp.sum(w * x)
            return jnp.sum(w)


        step = jax.jit(loss)


        if __name__ == "__main__":
            print("the program prints before it calls the entry")
            print(step(jnp.ones(3), jnp.ones(3)))
        """,
    )
    report = verify_file(
        path, select="JAX110", capture_main=True, check_fixes=False, preview=True
    )  # JAX110 is in preview
    finding = _by(report, "JAX110")
    assert finding["verdict"] == "confirmed", finding
    assert report["capture"]["ok"] is True, report["capture"]
    assert [argv[1:] for argv in started] == [["-m", "jaxlint.runtime.forkserver"]]
    assert forks == [2]  # the captured run and the verifier's child


def test_a_finding_report_carries_the_check_columns() -> None:
    """`column` is 1-based as `jaxlint check --format json`'s, beside the 0-based `col` the
    format began with (a new user matched verify's `col` 7 against check's `column` 8)."""
    job = {"code": "JAX110", "line": 7, "lines": [7], "kinds": ["trace"], "verify": {}}
    report = finding_report(
        {**job, "name": "x", "col": 7, "message": "", "function": "relu"},
        {"verdict": "confirmed", "reason": "raised", "evidence": {}},
    )
    assert (report["line"], report["col"], report["column"]) == (7, 7, 8)


def test_gradnan_confirms_the_nan_gradient_and_the_double_where_removes_it(tmp_path: Path) -> None:
    """JAX704's kind: the forward value is right, the gradient is NaN at the guarded point
    (all-zero inputs for a norm guarded by `r > 0`); the fix (double where) gives a finite
    gradient at the same probes, so the fixed run is not-reproduced."""
    pytest.importorskip("jax")
    path = _file(
        tmp_path,
        "g.py",
        """
        import jax
        import jax.numpy as jnp


        def safe_norm(v):
            r = jnp.sum(v * v)
            return jnp.where(r > 0, jnp.linalg.norm(v), 0.0)


        grad_norm = jax.grad(safe_norm)
        """,
    )
    report = verify_file(path, preview=True, select="JAX704", guess=True)
    finding = _by(report, "JAX704")
    assert finding["verdict"] == "confirmed", finding
    assert "NaN" in finding["reason"] and "all-zero inputs" in finding["reason"]
    assert finding["evidence"]["fix"]["verdict"] == "not-reproduced", finding


def test_a_retry_with_0d_inputs_survives_an_input_the_first_run_donated(tmp_path: Path) -> None:
    """A new user's repro (stop 53): the first run donates `params`, then stops on `if log:`
    with a guessed f32[8] `log`; the retry with 0-d inputs read the deleted `params` to make
    its 0-d version and failed as could-not-run. It now uses a zero of its dtype, and the
    read on line 9 raises as the finding says."""
    pytest.importorskip("jax")
    path = _file(
        tmp_path,
        "r1.py",
        """
        import jax

        step = jax.jit(lambda p: p * 2, donate_argnums=0)


        def train(params, log):
            new = step(params)
            if log:
                print(params)
            return new
        """,
    )
    report = verify_file(path, preview=True, select="JAX506", guess=True, check_fixes=False)
    finding = _by(report, "JAX506")
    assert finding["verdict"] == "confirmed", finding
    assert "has been deleted" in finding["reason"]
