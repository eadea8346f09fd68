"""The JAX301 pmap -> jit(shard_map) fix, checked by running both programs on 8 simulated
CPU devices, plus the numbers behind JAX303 (the N-times gradient of a naive port).

One subprocess runs everything (`XLA_FLAGS` must be set before JAX is imported).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from jaxlint.engine import LintOptions, fix_text, lint_text
from tests.conftest import snippet

JAX301 = LintOptions(codes=frozenset({"JAX301"}))
JAX303 = LintOptions(codes=frozenset({"JAX303"}))

# Each program defines `run()`; the harness calls it on the original and the fixed text.
PROGRAMS = {
    "call_form": snippet(
        """
        import jax
        import jax.numpy as jnp


        def body(x, y):
            total = jax.lax.psum(x.sum(), "i")
            return {
                "normalized": x / total,
                "mean": jax.lax.pmean(y, "i"),
                "index": jax.lax.axis_index("i"),
                "gathered": jax.lax.all_gather(y[0], "i"),
                "count": jax.lax.psum(1, "i"),
                "rolled": jax.lax.ppermute(x, "i", [(j, (j + 1) % 8) for j in range(8)]),
            }


        step = jax.pmap(body, axis_name="i")


        def run():
            n = jax.device_count()
            x = jax.random.normal(jax.random.key(0), (n, 4, 3))
            y = jnp.arange(n * 5.0).reshape(n, 5)
            return step(x, y)
        """
    ),
    "decorator_sgd": snippet(
        """
        from functools import partial

        import jax
        import jax.numpy as jnp


        def loss_fn(w, x, y):
            return jnp.mean((x @ w - y) ** 2)


        @partial(jax.pmap, axis_name="batch")
        def step(w, x, y):
            loss, g = jax.value_and_grad(loss_fn)(w, x, y)
            g = jax.lax.psum(g, "batch") / jax.lax.psum(1, "batch")
            return w - 0.1 * g, jax.lax.pmean(loss, "batch")


        def run():
            n, d, b = jax.device_count(), 4, 16
            kx, ky = jax.random.split(jax.random.key(1))
            x = jax.random.normal(kx, (n, b, d))
            y = x @ jnp.arange(1.0, d + 1) + 0.1 * jax.random.normal(ky, (n, b))
            w = jnp.zeros((n, d))
            losses = []
            for _ in range(3):
                w, loss = step(w, x, y)
                losses.append(loss)
            return w, jnp.stack(losses)
        """
    ),
    "from_import_lambda": snippet(
        """
        from jax import lax, pmap
        import numpy as np

        scaled = pmap(lambda v, s: lax.pmean(v * s, "d") + lax.pmax(s, "d"), "d")


        def run():
            v = np.arange(8 * 3, dtype=np.float32).reshape(8, 3)
            s = np.linspace(0.5, 2.0, 8, dtype=np.float32)
            return scaled(v, s)
        """
    ),
}

# JAX303: the same data-parallel step three ways inside shard_map (facts §1.14).
GRAD_PORTS = snippet(
    """
    from functools import partial

    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    n = jax.device_count()
    mesh = jax.make_mesh((n,), ("batch",))


    def loss_fn(w, x, y):
        return jnp.mean((x @ w - y) ** 2)


    @jax.jit
    @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P("batch"), P("batch")), out_specs=P())
    def naive(w, x, y):
        g = jax.grad(loss_fn)(w, x, y)
        return jax.lax.pmean(g, "batch")


    @jax.jit
    @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P("batch"), P("batch")), out_specs=P())
    def form_a(w, x, y):
        return jax.grad(lambda w: jax.lax.pmean(loss_fn(w, x, y), "batch"))(w)


    @jax.jit
    @partial(
        jax.shard_map,
        mesh=mesh,
        in_specs=(P(), P("batch"), P("batch")),
        out_specs=P(),
        check_vma=False,
    )
    def form_b(w, x, y):
        g = jax.grad(loss_fn)(w, x, y)
        return jax.lax.pmean(g, "batch")


    def run():
        kx, ky = jax.random.split(jax.random.key(2))
        x = jax.random.normal(kx, (n * 16, 4))
        y = x @ jnp.arange(1.0, 5.0) + 0.1 * jax.random.normal(ky, (n * 16,))
        w = jnp.ones(4)
        place = lambda a, s: jax.device_put(a, NamedSharding(mesh, s))
        args = place(w, P()), place(x, P("batch")), place(y, P("batch"))
        reference = jax.grad(loss_fn)(w, x, y)
        return {
            "reference": reference,
            "naive": naive(*args),
            "form_a": form_a(*args),
            "form_b": form_b(*args),
        }
    """
)

DRIVER = """
import json, sys
import numpy as np
import jax

def execute(text):
    namespace = {"__name__": "migrated"}
    exec(compile(text, "<program>", "exec"), namespace)
    return namespace["run"]()

def same(a, b):
    leaves = jax.tree.map(
        lambda u, v: bool(np.shape(u) == np.shape(v) and np.allclose(u, v, rtol=1e-5, atol=1e-5)),
        a, b,
    )
    return all(jax.tree.leaves(leaves))

cases = json.loads(sys.stdin.read())
report = {"devices": jax.device_count()}
for name, (original, fixed) in cases["migrations"].items():
    report[name] = same(execute(original), execute(fixed))
ports = execute(cases["grad_ports"])
ref = np.asarray(ports["reference"])
report["grad_ratio"] = {k: (np.asarray(ports[k]) / ref).tolist() for k in ("naive", "form_a", "form_b")}
print(json.dumps(report))
"""


def _installed_target() -> LintOptions:
    """JAX301 for the installed JAX (JAX 0.6 has no `jax.P`: the fix spells PartitionSpec)."""
    from importlib import metadata

    from jaxlint.core.config import Settings

    settings = Settings(target_jax=metadata.version("jax"), target_jax_source="installed")
    return LintOptions(codes=frozenset({"JAX301"}), settings=settings)


def _fixed(text: str, options: LintOptions = JAX301) -> str:
    result = fix_text(text, "prog.py", options, unsafe=True)
    assert result.text != text, "the pmap fix did not apply"
    compile(result.text, "fixed.py", "exec")
    return result.text


def test_simple_forms_are_rewritten_without_pmap():
    for name, text in PROGRAMS.items():
        fixed = _fixed(text)
        assert "pmap(" not in fixed, name
        assert "check_vma=False" in fixed and "AxisType.Auto" in fixed, name
        assert "import jax\n" in fixed, name  # `from jax import pmap` alone gets `import jax`
        assert [d for d in lint_text(fixed, "f.py", JAX301) if d.fix] == [], name
        # unsafe only: nothing happens without --unsafe-fixes
        assert fix_text(text, "prog.py", JAX301, unsafe=False).text == text


@pytest.mark.parametrize(
    "call",
    [
        "jax.pmap(f, axis_name='i', in_axes=(0, None))",
        "jax.pmap(f, axis_name='i', static_broadcasted_argnums=1)",
        "jax.pmap(f, axis_name='i', donate_argnums=0)",
        "jax.pmap(f, axis_name=name)",
        "jax.pmap(f)",
        "jax.pmap(*fs, axis_name='i')",
    ],
)
def test_other_pmap_forms_get_no_fix(call):
    text = f"import jax\n\n\ndef f(x):\n    return x\n\n\ng = {call}\n"
    diags = lint_text(text, "p.py", JAX301)
    assert [d.code for d in diags] == ["JAX301"]
    assert diags[0].fix is None


def test_keyword_calls_of_the_result_get_no_fix():
    text = snippet(
        """
        import jax

        step = jax.pmap(lambda x, y: x + y, axis_name="i")
        out = step(1, y=2)
        """
    )
    assert all(d.fix is None for d in lint_text(text, "p.py", JAX301))


def test_jax303_flags_only_the_naive_port():
    lines = {d.line for d in lint_text(GRAD_PORTS, "ports.py", JAX303)}
    naive_line = GRAD_PORTS.splitlines().index('    return jax.lax.pmean(g, "batch")') + 1
    assert lines == {naive_line}


@pytest.mark.jax
def test_fixed_programs_match_pmap_on_8_devices():
    pytest.importorskip("jax")
    cases = {
        "migrations": {
            name: (text, _fixed(text, _installed_target())) for name, text in PROGRAMS.items()
        },
        "grad_ports": GRAD_PORTS,
    }
    env = dict(os.environ)
    env["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    env["JAX_PLATFORMS"] = "cpu"
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["devices"] == 8
    for name in PROGRAMS:
        assert report[name] is True, f"{name}: fixed program differs from pmap"
    ratios = report["grad_ratio"]
    assert all(abs(r - 8.0) < 1e-3 for r in ratios["naive"]), ratios  # what JAX303 reports
    assert all(abs(r - 1.0) < 1e-4 for r in ratios["form_a"]), ratios  # both correct forms
    assert all(abs(r - 1.0) < 1e-4 for r in ratios["form_b"]), ratios
