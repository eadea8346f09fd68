"""The toolbox's failure contract (docs/toolbox.md), issue 15 B10/B11: a usage error exits 2
with one line and no traceback, a failing user function exits 1 with one line on stderr and no
jaxlint-internal frames anywhere; odd `--args` are refused up front."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import _in_process

pytestmark = pytest.mark.jax
pytest.importorskip("jax")

MODULE = """
import jax
import jax.numpy as jnp


def predict(w, x):
    return jnp.dot(w, x)


def returns_str(x):
    return "hello"


def scale(x, s):
    return x * s


def dropout(key, x, rate):
    mask = jax.random.bernoulli(key, 1 - rate, x.shape)
    noise = jax.random.normal(key, x.shape)
    return jnp.where(mask, x / (1 - rate), 0) + noise


def main():
    return 0
"""


@pytest.fixture(scope="module")
def mod(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("failures") / "tb.py"
    path.write_text(textwrap.dedent(MODULE))
    return path


def jaxlint(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m jaxlint ARGS`, run in-process (tests/conftest.py): each tool's JAX work runs
    in the sandbox's subprocess either way (tests/runtime/test_toolbox.py has a real CLI)."""
    return _in_process(args, os.getcwd(), None, {**os.environ, "JAX_PLATFORMS": "cpu"})


def _one_line(stderr: str) -> None:
    assert stderr.count("\n") == 1, stderr
    assert "Traceback" not in stderr and "jaxlint/runtime/" not in stderr


def test_user_function_failure_is_one_line_without_internal_frames(mod: Path) -> None:
    text = jaxlint("probe", f"{mod}::returns_str", "--args", "f32[2]", "--format", "text")
    assert text.returncode == 1
    _one_line(text.stderr)
    assert "returned a value of type <class 'str'>" in text.stderr
    js = jaxlint("probe", f"{mod}::returns_str", "--args", "f32[2]")
    assert js.returncode == 1
    _one_line(js.stderr)
    report = json.loads(js.stdout)
    assert report["ok"] is False
    assert not any("jaxlint/runtime/" in line for line in report["stderr_tail"])


@pytest.mark.jax_any_version  # the Python signature against the spec, before any JAX runs
def test_wrong_number_of_args_is_a_usage_error_for_every_tool(mod: Path) -> None:
    for args in (
        ("probe", f"{mod}::predict", "--args", "f32[4]"),
        ("bench", f"{mod}::predict", "--args", "f32[4], f32[4], f32[4]"),
        ("recompile", f"{mod}::scale", "--case", "f32[4]"),
    ):
        proc = jaxlint(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        _one_line(proc.stderr)
        assert "gives" in proc.stderr and "item" in proc.stderr


def test_recompile_exits_1_when_the_function_fails(mod: Path) -> None:
    proc = jaxlint("recompile", f"{mod}::scale", "--case", "f32[4], 'a'", "--format", "text")
    assert proc.returncode == 1, proc.stderr
    _one_line(proc.stderr)
    assert "failed in case 1" in proc.stderr
    ok = jaxlint("recompile", f"{mod}::scale", "--case", "f32[4], 2", "--case", "f32[4], 3")
    assert ok.returncode == 0, ok.stderr


@pytest.mark.jax_any_version  # the spec and the signature, before any JAX runs
@pytest.mark.parametrize(
    ("function", "spec", "message"),
    [
        ("dropout", "key, f32[8], 0.5, 1, 2", "--args has 5 items but `dropout` takes 3"),
        ("main", "1", "--args has 1 item but `main` takes 0 positional parameters"),
        ("dropout", "key,,f32[8]", "empty item in argument spec"),
        ("dropout", "key, f32[1000000000000], 0.5", "is 3.6 TiB; example inputs are limited"),
    ],
)
def test_verify_args_edge_cases_are_usage_errors(mod: Path, function, spec, message) -> None:
    proc = jaxlint("verify", f"{mod}::{function}", "--args", spec)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    _one_line(proc.stderr)
    assert message in proc.stderr


def test_f32_inputs_are_drawn_without_a_float64_copy(monkeypatch) -> None:
    import numpy as np

    from jaxlint.runtime.toolbox.inputs import _host_array, parse_item

    seen = []
    real = np.random.Generator.standard_normal

    rng = np.random.default_rng(0)

    class Spy:
        def standard_normal(self, shape, dtype=np.float64):
            seen.append(np.dtype(dtype))
            return real(rng, shape, dtype=dtype)

    values = _host_array(np, Spy(), parse_item("f32[4]"))
    assert values.dtype == np.float32 and seen == [np.dtype(np.float32)]
    assert _host_array(np, Spy(), parse_item("f64[2]")).dtype == np.float64


def test_verify_warns_about_config_entries_for_missing_functions(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text("def forward(x):\n    return x\n")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint.verify]\n"model.py::forwrd" = "f32[8]"\n"other.py::nope" = "f32[8]"\n'
    )
    proc = subprocess.run(
        [sys.executable, "-m", "jaxlint", "verify", "model.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "JAX_PLATFORMS": "cpu"},
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert (
        "[tool.jaxlint.verify] 'model.py::forwrd': model.py has no function `forwrd`; "
        "did you mean `forward`?" in proc.stderr
    )
    assert "nope" not in proc.stderr  # aimed at another file
