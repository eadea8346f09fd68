import os
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def snippet(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


@pytest.fixture
def run_cli(tmp_path):
    """Run `python -m jaxlint ...` in a subprocess; returns CompletedProcess."""
    import subprocess

    def run(*args, cwd=None, input=None, env=None):
        full_env = dict(os.environ)
        full_env.pop("JAX_PLATFORMS", None)
        if env:
            full_env.update(env)
        return subprocess.run(
            [sys.executable, "-m", "jaxlint", *args],
            cwd=cwd or tmp_path,
            input=input,
            capture_output=True,
            text=True,
            env=full_env,
            timeout=300,
        )

    return run
