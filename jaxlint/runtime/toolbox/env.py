"""`jaxlint env`: what a bug report about JAX needs, in one JSON object.

Versions come from package metadata (no imports, so a broken optional library cannot break the
report). The JAX part (backend, devices, config, optional smoke test) runs in the sandbox: a GPU
driver that hangs or aborts on initialisation turns into a warning, not a dead CLI. Without JAX,
the non-JAX keys are still printed with `jax: null`.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import platform
import re
import sys
from typing import Any

ECOSYSTEM = (
    "flax",
    "optax",
    "equinox",
    "chex",
    "orbax-checkpoint",
    "dm-haiku",
    "numpyro",
    "diffrax",
    "jaxtyping",
    "optimistix",
    "lineax",
    "blackjax",
    "distrax",
    "penzai",
    "grain",
    "jraph",
    "objax",
    "keras",
    "ml_dtypes",
    "opt_einsum",
    "scipy",
    "libtpu",
    "libtpu-nightly",
)
_ACCELERATOR_DIST = re.compile(
    r"^(jax[-_](cuda|rocm)\d*[-_](plugin|pjrt)|jaxlib[-_](cuda|rocm).*|libtpu.*)$"
)
_ENV_PREFIXES = ("JAX_", "XLA_PYTHON_CLIENT_", "TPU_")
_ENV_NAMES = ("XLA_FLAGS", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")
_FALSE = ("", "0", "false", "no", "off")


def version_of(dist: str) -> str | None:
    """Installed version of a distribution, or None (metadata only, nothing imported)."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def accelerator_plugins() -> dict[str, str]:
    """Installed CUDA/ROCm/TPU plugin distributions (name -> version)."""
    found: dict[str, str] = {}
    for dist in importlib.metadata.distributions():
        name = (dist.metadata["Name"] or "").lower()
        if _ACCELERATOR_DIST.match(name):
            found[name] = dist.version
    return dict(sorted(found.items()))


def relevant_environment() -> dict[str, str]:
    """The set variables among JAX_*, XLA_FLAGS, XLA_PYTHON_CLIENT_*, CUDA_VISIBLE_DEVICES, TPU_*."""
    return {
        name: value
        for name, value in sorted(os.environ.items())
        if name.startswith(_ENV_PREFIXES) or name in _ENV_NAMES
    }


def environment_warnings(env: dict[str, str]) -> list[str]:
    """Settings that silently do something other than what they seem to ask for."""
    warnings: list[str] = []
    x64 = env.get("JAX_ENABLE_X64", "").strip().lower()
    wants_64 = env.get("JAX_DEFAULT_DTYPE_BITS", "").strip() == "64" or env.get(
        "JAX_NUMPY_DTYPE", ""
    ).strip().lower() in ("float64", "f64")
    if wants_64 and x64 in _FALSE:
        warnings.append(
            "64-bit dtypes are requested (JAX_DEFAULT_DTYPE_BITS=64) but JAX_ENABLE_X64 is "
            f"{'unset' if 'JAX_ENABLE_X64' not in env else repr(env['JAX_ENABLE_X64'])}: "
            "arrays stay float32/int32; set JAX_ENABLE_X64=1"
        )
    if "JAX_ENABLE_X64" in env and x64 not in (*_FALSE, "1", "true", "yes", "on"):
        warnings.append(
            f"JAX_ENABLE_X64={env['JAX_ENABLE_X64']!r} is not a boolean JAX understands"
        )
    fraction = env.get("XLA_PYTHON_CLIENT_MEM_FRACTION")
    if fraction is not None:
        try:
            value = float(fraction)
        except ValueError:
            warnings.append(f"XLA_PYTHON_CLIENT_MEM_FRACTION={fraction!r} is not a number")
        else:
            if value > 1 or value <= 0:
                warnings.append(
                    f"XLA_PYTHON_CLIENT_MEM_FRACTION={fraction} is outside (0, 1]: "
                    "it is a fraction of GPU memory, not a percentage"
                )
    prealloc = env.get("XLA_PYTHON_CLIENT_PREALLOCATE")
    if prealloc is not None and prealloc.strip().lower() not in ("true", "false", "1", "0"):
        warnings.append(f"XLA_PYTHON_CLIENT_PREALLOCATE={prealloc!r} should be true or false")
    if "JAX_PLATFORM_NAME" in env:
        warnings.append("JAX_PLATFORM_NAME is the old name; use JAX_PLATFORMS")
    return warnings


def collect_static() -> dict[str, Any]:
    """Everything that needs no JAX import: interpreter, versions, environment variables."""
    import jaxlint

    env = relevant_environment()
    packages = {name: v for name in ECOSYSTEM if (v := version_of(name)) is not None}
    packages.update(accelerator_plugins())
    jax_version = version_of("jax") if importlib.util.find_spec("jax") is not None else None
    warnings = environment_warnings(env)
    if jax_version is None:
        warnings.append(
            "JAX is not installed: pip install 'jaxlint-sharp[runtime]' (or pip install jax)"
        )
    return {
        "python": platform.python_version(),
        "python_executable": sys.executable,
        "platform": platform.platform(),
        "jax": jax_version,
        "jaxlib": version_of("jaxlib"),
        "numpy": version_of("numpy"),
        "libcst": version_of("libcst"),
        "jaxlint": jaxlint.__version__,
        "packages": packages,
        "backend": None,
        "devices": [],
        "device_count": None,
        "local_device_count": None,
        "process_count": None,
        "config": {},
        "env": env,
        "warnings": warnings,
    }


def _config_value(jax: Any, name: str) -> Any:
    try:
        value = getattr(jax.config, name)
    except AttributeError:
        return None
    return value if isinstance(value, (bool, int, float, str, type(None))) else str(value)


def collect_jax(smoke_test: bool = False) -> dict[str, Any]:
    """Backend, devices and config from an imported JAX (run this in the sandbox)."""
    import jax

    devices = []
    for device in jax.devices():
        entry: dict[str, Any] = {
            "id": device.id,
            "platform": device.platform,
            "device_kind": device.device_kind,
            "process_index": device.process_index,
        }
        try:
            stats = device.memory_stats()
        except Exception:
            stats = None
        if stats:
            entry["memory"] = {str(k): v for k, v in stats.items()}
        devices.append(entry)
    result: dict[str, Any] = {
        "jax_runtime_version": jax.__version__,
        "backend": jax.default_backend(),
        "devices": devices,
        "device_count": jax.device_count(),
        "local_device_count": jax.local_device_count(),
        "process_count": jax.process_count(),
        "config": {
            "x64": _config_value(jax, "jax_enable_x64"),
            "default_prng_impl": _config_value(jax, "jax_default_prng_impl"),
            "default_matmul_precision": _config_value(jax, "jax_default_matmul_precision"),
            "transfer_guard": _config_value(jax, "jax_transfer_guard"),
            "platforms": _config_value(jax, "jax_platforms"),
            "compilation_cache_dir": _config_value(jax, "jax_compilation_cache_dir"),
            "threefry_partitionable": _config_value(jax, "jax_threefry_partitionable"),
            "debug_nans": _config_value(jax, "jax_debug_nans"),
            "disable_jit": _config_value(jax, "jax_disable_jit"),
        },
    }
    if smoke_test:
        result["smoke_test"] = run_smoke_test()
    return result


def run_smoke_test(size: int = 256, repeat: int = 5) -> dict[str, Any]:
    """Jit a small matmul: compile time, median blocked run time, and a check against NumPy."""
    import statistics
    import time

    import jax
    import numpy as np

    try:
        host = np.random.default_rng(0).standard_normal((size, size)).astype(np.float32)
        x = jax.device_put(host)
        start = time.perf_counter()
        compiled = jax.jit(lambda a: a @ a).lower(x).compile()
        compile_seconds = time.perf_counter() - start
        out = jax.block_until_ready(compiled(x))
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            jax.block_until_ready(compiled(x))
            times.append(time.perf_counter() - start)
        ok = bool(np.allclose(np.asarray(out), host @ host, rtol=1e-2, atol=1e-2))
        return {
            "compile_seconds": compile_seconds,
            "run_seconds": statistics.median(times),
            "ok": ok,
            "shape": [size, size],
        }
    except Exception as exc:
        return {
            "compile_seconds": None,
            "run_seconds": None,
            "ok": False,
            "error": f"{type(exc).__name__}: {exc}",
        }


def run(payload: dict[str, Any]) -> dict[str, Any]:
    """Sandbox worker for `jaxlint env`."""
    return collect_jax(smoke_test=bool(payload.get("smoke_test")))


def jax_warnings(report: dict[str, Any]) -> list[str]:
    """Warnings that need both the static report and the JAX part."""
    warnings: list[str] = []
    plugins = [
        name
        for name in report.get("packages", {})
        if re.match(r"^(jax[-_](cuda|rocm)|jaxlib[-_](cuda|rocm))", name)
    ]
    platforms = (report.get("env", {}).get("JAX_PLATFORMS") or "").strip().lower()
    if plugins and report.get("backend") == "cpu" and platforms not in ("cpu",):
        warnings.append(
            f"a GPU plugin is installed ({', '.join(plugins)}) but the backend is cpu: "
            "check the CUDA/ROCm driver, CUDA_VISIBLE_DEVICES and the plugin/jaxlib versions"
        )
    if report.get("jax") and report.get("jaxlib") and report["jax"] != report["jaxlib"]:
        warnings.append(
            f"jax {report['jax']} and jaxlib {report['jaxlib']} differ; install matching versions"
        )
    smoke = report.get("smoke_test")
    if isinstance(smoke, dict) and not smoke.get("ok"):
        warnings.append(f"smoke test failed: {smoke.get('error') or 'wrong matmul result'}")
    return warnings


def collect_env(smoke_test: bool = False, timeout: float = 120.0) -> dict[str, Any]:
    """The full report: static part here, JAX part in the sandbox (never with a forced platform)."""
    from jaxlint.runtime.sandbox import run_isolated

    report = collect_static()
    if report["jax"] is None:
        return report
    outcome = run_isolated(
        "jaxlint.runtime.toolbox.env:run",
        {"smoke_test": smoke_test},
        timeout=timeout,
        default_platforms=None,
    )
    if not outcome["ok"]:
        report["warnings"].append(f"JAX failed to initialise in a subprocess: {outcome['reason']}")
        if smoke_test:
            report["smoke_test"] = {
                "compile_seconds": None,
                "run_seconds": None,
                "ok": False,
                "error": outcome["reason"],
            }
        return report
    jax_part = dict(outcome["result"])
    runtime_version = jax_part.pop("jax_runtime_version", None)
    report.update(jax_part)  # existing keys keep their place; smoke_test goes last
    if runtime_version and runtime_version != report["jax"]:
        report["warnings"].append(
            f"`import jax` loads version {runtime_version}, but the installed metadata says {report['jax']}: "
            "a stray jax folder on sys.path?"
        )
    report["warnings"] += jax_warnings(report)
    if "smoke_test" in report:
        report["smoke_test"] = report.pop("smoke_test")
    return report
