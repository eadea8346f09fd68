import os
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The suite's expectations are written for the newest JAX jaxlint knows; without this the CLI
# tests would infer the target from the installed jax (0.6.2 on Python 3.10) and see fewer
# findings. tests/test_jaxversion.py checks the inference itself (it unsets the variable), and
# tests/test_deprecation_table.py checks the tables against the installed JAX.
os.environ.setdefault("JAXLINT_TARGET_JAX", "0.12")


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
