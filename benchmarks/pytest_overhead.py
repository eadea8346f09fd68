"""Overhead of `pytest --jaxlint-runtime` on a test suite with no sharp bits.

Generates a clean suite in a temporary folder (TESTS tests over a few modules: a jitted MLP
training step on fixed shapes, keys split before every draw, `lax.scan`, `vmap`, `grad`, a jitted
function reused across calls) and times `pytest -q` on it without and with `--jaxlint-runtime`,
alternating, `--runs` rounds, in fresh processes (so JAX's import and every compile are counted).
Prints the medians of CPU time (user + system of pytest and its children: steadier than wall time
on a shared machine) and of wall time, and their ratios, and checks that the checked run found nothing (a clean suite
must stay clean). Results: benchmarks/README.md and docs/pytest.md.

    python benchmarks/pytest_overhead.py --runs 3 [--tests 40] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LIBRARY = """
import jax
import jax.numpy as jnp


def init(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [
        {"w": jax.random.normal(k, (a, b)) / jnp.sqrt(a), "b": jnp.zeros(b)}
        for k, a, b in zip(keys, sizes[:-1], sizes[1:])
    ]


def forward(params, x):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def loss(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)


@jax.jit
def step(params, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    return jax.tree.map(lambda p, g: p - 0.05 * g, params, grads), value


@jax.jit
def cumulative(xs):
    def body(carry, x):
        carry = carry + x
        return carry, carry * 2.0

    return jax.lax.scan(body, jnp.zeros(xs.shape[1:]), xs)


batched_norm = jax.jit(jax.vmap(lambda v: v / (jnp.linalg.norm(v) + 1e-6)))


def noisy_batches(key, count, shape):
    out = []
    for _ in range(count):
        key, sub = jax.random.split(key)
        out.append(jax.random.normal(sub, shape))
    return key, out
"""

TEST = """
import jax
import jax.numpy as jnp

import clean_lib{index} as lib

SIZES = [{width}, 32, 4]


def test_training_{index}():
    key = jax.random.key({index})
    key, sub = jax.random.split(key)
    params = lib.init(sub, SIZES)
    key, xs = lib.noisy_batches(key, 5, (16, SIZES[0]))
    y = jnp.zeros((16, 4))
    first = None
    for x in xs:
        params, value = lib.step(params, x, y)
        first = value if first is None else first
    assert value.shape == ()


def test_scan_{index}():
    carry, ys = lib.cumulative(jnp.ones((12, {width})))
    assert ys.shape == (12, {width})


def test_vmap_{index}():
    out = lib.batched_norm(jnp.ones((8, {width})))
    assert out.shape == (8, {width})


def test_grad_{index}():
    params = lib.init(jax.random.key(1), SIZES)
    grads = jax.grad(lib.loss)(params, jnp.ones((2, SIZES[0])), jnp.zeros((2, 4)))
    assert len(grads) == 2
"""


def make_suite(folder: Path, modules: int) -> None:
    for index in range(modules):
        (folder / f"clean_lib{index}.py").write_text(LIBRARY, encoding="utf-8")
        (folder / f"test_clean{index}.py").write_text(
            TEST.format(index=index, width=8 + index), encoding="utf-8"
        )
    (folder / "pyproject.toml").write_text("[tool.pytest.ini_options]\n", encoding="utf-8")


def run(folder: Path, checked: bool | str, report: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the pytest process and its children)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    env.setdefault("JAX_PLATFORMS", "cpu")
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    args += ["-p", "jaxlint.pytest_plugin"]
    if checked:
        flag = "--jaxlint-runtime" if checked is True else f"--jaxlint-runtime={checked}"
        args += [flag, "--jaxlint-runtime-json", str(report)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(args, cwd=folder, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(
            f"the clean suite failed ({'checked' if checked else 'plain'}):\n" + done.stdout[-3000:]
        )
    return seconds, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tests", type=int, default=40, help="number of tests (4 per module)")
    parser.add_argument("--json", default=None)
    parser.add_argument(
        "--checks", default=None, help="time --jaxlint-runtime=CHECKS instead of the default set"
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jaxlint-overhead-") as tmp:
        folder = Path(tmp)
        make_suite(folder, max(1, options.tests // 4))
        report = folder / "events.json"
        plain, checked = [], []
        for _ in range(options.runs):
            plain.append(run(folder, False, report))
            checked.append(run(folder, options.checks or True, report))
        events = json.loads(report.read_text(encoding="utf-8"))

    def median(runs: list[tuple[float, float]], which: int) -> float:
        return statistics.median(r[which] for r in runs)

    result = {
        "tests": max(1, options.tests // 4) * 4,
        "runs": options.runs,
        "checks": options.checks or "default",
        "plain_median_cpu_s": round(median(plain, 1), 2),
        "checked_median_cpu_s": round(median(checked, 1), 2),
        "cpu_ratio": round(median(checked, 1) / median(plain, 1), 2),
        "plain_median_wall_s": round(median(plain, 0), 2),
        "checked_median_wall_s": round(median(checked, 0), 2),
        "wall_ratio": round(median(checked, 0) / median(plain, 0), 2),
        "plain_wall_s": [round(r[0], 2) for r in plain],
        "checked_wall_s": [round(r[0], 2) for r in checked],
        "findings_on_clean_suite": len(events),
    }
    print(json.dumps(result, indent=2))
    if options.json:
        Path(options.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 1 if events else 0


if __name__ == "__main__":
    raise SystemExit(main())
