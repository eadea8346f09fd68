"""The job schema of `jaxlint verify` (`verify/jobs.py`) and the split it stands between.

A job is the only thing the static planner hands the sandboxed runtime, so the TypedDicts in
`jobs.py` must name every key the planner writes: otherwise the schema the two halves share
drifts from the JSON they actually exchange. The planner must also stay JAX-free (it runs in the
linter's process), and the verifier kinds must not import the runner that loads them.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys
import textwrap

from jaxlint.verify.jobs import EntrySpec, FixSpec, Job, OtherFinding

RUNTIME = pathlib.Path(__file__).resolve().parent.parent / "jaxlint" / "runtime"


def _planned_jobs() -> list[dict]:
    from jaxlint.core.config import Settings
    from jaxlint.rules import ALL_RULES
    from jaxlint.verify.driver import plan_text
    from jaxlint.verify.plan import InputOptions

    jobs = []
    for rule in ALL_RULES:
        examples = getattr(rule, "examples", None)
        for i, text in enumerate(examples.invalid if examples is not None else ()):
            text = textwrap.dedent(text).lstrip("\n")
            # every rule's examples, the ones in preview included
            jobs += plan_text(
                f"ex_{rule.code}_{i}.py",
                text,
                inputs=InputOptions(guess=True),
                settings=Settings(preview=True),
            )
    return jobs


def test_every_planned_key_is_in_the_job_schema():
    jobs = _planned_jobs()
    assert len(jobs) > 100
    seen: set[str] = set()
    for job in jobs:
        seen |= set(job)
        assert set(job) <= set(Job.__annotations__), job["code"]
        for key in ("entry", "pmap_entry", "sharded_entry"):
            entry = job.get(key) or {}
            assert set(entry) <= set(EntrySpec.__annotations__), (job["code"], key)
            assert set(entry.get("then") or {}) <= set(EntrySpec.__annotations__), job["code"]
        assert set(job.get("fix") or {}) <= set(FixSpec.__annotations__), job["code"]
        for other in job["others"]:
            assert set(other) <= set(OtherFinding.__annotations__), job["code"]
    # the examples exercise the entry, the fix and the hints of several kinds
    assert {"entry", "fix", "names", "suspects", "prints", "globals", "call"} <= seen


def test_planning_imports_no_jax():
    code = textwrap.dedent(
        """
        import sys
        from jaxlint.core.config import Settings
        from jaxlint.verify.driver import plan_text
        # JAX111 (verified by tracing) is a preview rule after the v13 check set
        jobs = plan_text(
            "m.py",
            "import jax\\n@jax.jit\\ndef f(x):\\n    assert x > 0\\n    return x\\n",
            settings=Settings(preview=True),
        )
        assert jobs and jobs[0]["code"] == "JAX111", jobs
        assert not any(m == "jax" or m.startswith("jax.") for m in sys.modules), "planner imported jax"
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_verifier_kinds_do_not_import_the_runner():
    kinds = sorted((RUNTIME / "kinds").glob("*.py"))
    assert len(kinds) > 10
    for path in kinds + [RUNTIME / n for n in ("kit.py", "entry.py", "side.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "jaxlint.runtime.runner", path.name
                assert node.module != "jaxlint.verify.plan", path.name
