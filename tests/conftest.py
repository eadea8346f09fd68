import io
import os
import subprocess
import sys
import textwrap
import traceback

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The suite's expectations are written for the newest JAX jaxlint knows; without this the CLI
# tests would infer the target from the installed jax (0.6.2 on Python 3.10) and see fewer
# findings. tests/test_jaxversion.py checks the inference itself (it unsets the variable), and
# tests/test_deprecation_table.py checks the tables against the installed JAX.
os.environ.setdefault("JAXLINT_TARGET_JAX", "0.12")


def snippet(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


class _Completed(subprocess.CompletedProcess):
    """What `subprocess.run(..., capture_output=True, text=True)` returns, built in-process."""


def _in_process(args, cwd, input, env):  # noqa: A002 - the subprocess.run keyword
    """Run `jaxlint.cli.main(args)` in this process, as `python -m jaxlint` would run it.

    Why: the suite launched the CLI as a subprocess about 190 times, and interpreter start-up
    plus imports were most of the cost of those tests. The process state a subprocess gives for
    free is set up and restored here: the working directory, the environment (exactly the one
    the subprocess would get), standard input (text and `.buffer`), and standard output/error
    as byte streams decoded like `text=True` (universal newlines). Tests that need a real
    process (console script, imports, signals, terminals) use `run_cli.subprocess`, and
    JAXLINT_TESTS_SUBPROCESS=1 runs every call as a subprocess (to compare the two modes).
    """
    from jaxlint.cli import main
    from jaxlint.run import parallel

    saved_jobs = parallel.default_jobs
    parallel.default_jobs = lambda: 1  # never fork the test process (see `run_cli`)

    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO((input or "").encode("utf-8")), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    try:
        os.environ.clear()
        os.environ.update(env)
        os.chdir(cwd)
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except Exception:  # as the interpreter would: a traceback and exit status 1
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        for stream in (sys.stdin, sys.stdout, sys.stderr):
            if isinstance(stream, io.TextIOWrapper) and stream not in saved:
                stream.detach()  # else closing the wrapper closes the buffers read below
        sys.stdin, sys.stdout, sys.stderr = saved
        parallel.default_jobs = saved_jobs
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)

    def text(stream: io.BytesIO) -> str:
        decoded = stream.getvalue().decode("utf-8", errors="replace")
        return decoded.replace("\r\n", "\n").replace("\r", "\n")

    return _Completed(["jaxlint", *args], int(code or 0), text(out), text(err))


@pytest.fixture
def run_cli(tmp_path):
    """Run the CLI as `python -m jaxlint ...` would; returns a CompletedProcess.

    In-process by default (see `_in_process`); `run_cli.subprocess(...)` always launches
    `python -m jaxlint`.
    """

    def environment(env):
        full_env = dict(os.environ)
        full_env.pop("JAX_PLATFORMS", None)
        if env:
            full_env.update(env)
        return full_env

    def launch(*args, cwd=None, input=None, env=None):  # noqa: A002
        return subprocess.run(
            [sys.executable, "-m", "jaxlint", *args],
            cwd=cwd or tmp_path,
            input=input,
            capture_output=True,
            text=True,
            env=environment(env),
            timeout=300,
        )

    def run(*args, cwd=None, input=None, env=None):  # noqa: A002
        # An explicit --jobs above 1 forks a pool; forking the (multi-threaded) pytest-xdist
        # worker can deadlock, so such runs get a process of their own.
        parallel = any(a in ("-j", "--jobs") or a.startswith(("-j", "--jobs=")) for a in args)
        if parallel or os.environ.get("JAXLINT_TESTS_SUBPROCESS"):
            return launch(*args, cwd=cwd, input=input, env=env)
        return _in_process(args, cwd or tmp_path, input, environment(env))

    run.subprocess = launch
    return run
