"""Every tier-1 and tier-2 rule's invalid examples are confirmed by the rule's runtime verifier.

The registry is iterated, so a rule added later is covered without touching this file. All
examples are planned first (in-process, no JAX) and verified in ONE batch (one subprocess per
device setting), so the whole set costs one JAX start-up. Inputs come from `--guess-inputs`
(name-based: `key` -> a typed key, `n`/`seed`/`i` -> 3, else `f32[8]`) plus the small table below
where an example needs particular shapes, a literal, a static parameter, a sibling module or a
seed that makes a data-dependent loop run.
"""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.jax
pytest.importorskip("jax")

from jaxlint.core.config import Settings  # noqa: E402
from jaxlint.core.jaxversion import parse_version  # noqa: E402
from jaxlint.rules import ALL_RULES  # noqa: E402
from jaxlint.verify.driver import plan_text, verify_jobs  # noqa: E402
from jaxlint.verify.plan import InputOptions, kinds_for  # noqa: E402

# (code, a snippet of the invalid example) -> what the example needs:
#   args: {function qualname: spec}, static: [names], files: {name: text}, seed: int
# Keyed by a snippet rather than a position, so rule authors may add or reorder examples.
TABLE: dict[tuple[str, str], dict[str, Any]] = {
    ("JAX101", "float(w ** 2)"): {"args": {"loss": "f32[]"}},  # float() of a scalar under grad
    ("JAX101", "carry + int(x)"): {"args": {"run": "f32[4]"}},  # scan over 4 scalars
    ("JAX102", "class Trainer"): {"args": {"Trainer.step": "3, {'scale': 2.0}, f32[8]"}},
    ("JAX110", "if k:"): {"static": ["k"]},  # `if k:` before the flagged line needs k static
    ("JAX121", "jnp.where(row > carry)"): {"args": {"run": "f32[4,8]"}},  # scan over rows
    ("JAX121", "class Selector"): {"args": {"Selector.select": "=Selector(0.0), f32[8]"}},
    ("JAX130", "nn.Dense(10)(x)"): {"args": {"Head.__call__": "f32[4,8], i32[4]"}},
    ("JAX202", "for s in shapes"): {"args": {"samples": "[(2,), (2,)]"}},
    ("JAX201", "def init_mlp"): {"args": {"init_mlp": "key, [2, 3, 4]"}},
    ("JAX201", "class Dropout"): {
        "args": {"Dropout.__call__": "=Dropout(), f32[8], ={'dropout': jax.random.key(0)}"}
    },
    ("JAX201", "class State"): {"args": {"thermostat": "=State(jax.random.key(0), 1.0), 0.1"}},
    # a distribution's `sample(seed=key)`: the example's own minimal distribution
    ("JAX201", "class Normal"): {"args": {"update_alpha": "=Normal(), key"}},
    ("JAX203", "init_and_dropout"): {"args": {"init_and_dropout": "key, 0"}},
    ("JAX207", "def dropout(x, rng)"): {"args": {"dropout": "f32[8], key"}},
    ("JAX209", "def sample_noise"): {"args": {"sample_noise": "(3,)"}},
    ("JAX303", 'pmean(g, "batch")'): {"args": {"step": "f32[4], f32[16,4], f32[16]"}},
    ("JAX303", "update_sharded"): {"args": {"update_sharded": "{'w': 1.0}, f32[8]"}},
    ("JAX401", "loss_fn(p, b))(params, batch)"): {"args": {"train": "f32[4], f32[3,4]"}},
    ("JAX401", "from model import apply_model"): {
        "files": {"model.py": "def apply_model(x, cfg):\n    return x * cfg\n"},
        "args": {"serve": "2.0, [1.0, 2.0, 3.0]"},
    },
    ("JAX401", "jax.jit(self.forward)"): {"args": {"Model.fit": "[1.0, 2.0, 3.0]"}},
    # the `@jit(...)` decorator factory exists from JAX 0.8.1
    ("JAX402", '@jit(static_argnames=("axes",))'): {"requires_jax": "0.8.1"},
    # (before "def simulate": the example with a per-row loop has a one-argument simulate)
    ("JAX405", "def per_example"): {
        "args": {
            "per_example": "f32[64,4], f32[4,4]",
            "integrate": "f32[3], 1000",
            "simulate": "f32[3]",
        }
    },
    ("JAX405", "def simulate"): {"args": {"simulate": "f32[3], 20"}},
    ("JAX406", "params = step(params, grads)"): {"args": {"train": "f32[256,256], f32[3,256,256]"}},
    ("JAX406", "update(params, opt_state, batch, 0.1)"): {
        "args": {"train": "f32[256,256], f32[256,256], f32[3,256,256]"}
    },
    # seed 11 draws params with sum > 0, so the `while params.sum() > 0` loop runs
    ("JAX407", "jax.device_put(weights)"): {"args": {"evaluate": "f32[3], f32[3]"}, "seed": 11},
    ("JAX408", "np.where(c, x, [0.0, 1.0])"): {"args": {"pick": "bool[2], f32[2]"}},
    ("JAX501", "grid[i, 0] += 1.0"): {"args": {"step": "f32[4,4], 1"}},
    ("JAX504", "class State"): {"args": {"advance": "=State(step=0)"}},
    ("JAX506", "class Trainer"): {
        "args": {"Trainer.run": "=Trainer(lambda state, batch: state * batch), f32[3]"}
    },
    # enough work per call that a missing block_until_ready is visible next to dispatch
    # JAX gives no warning for these silent downcasts (a flax layer's param_dtype, float64
    # NumPy data into jnp.asarray), and the dtype verifier observes warnings: not yet provable
    ("JAX701", "param_dtype=jnp.float64"): {"unprovable": "no dtype warning to observe"},
    ("JAX701", "jnp.asarray(data)"): {"unprovable": "no dtype warning to observe"},
    ("JAX601", "def bench(x)"): {"args": {"bench": "f32[1024,1024]"}},
    ("JAX601", "train_step(state, batch)"): {"args": {"train": "f32[1024,1024], f32[3,1024,1024]"}},
}


def table_row(table: dict[tuple[Any, ...], dict[str, Any]], code: str, text: str) -> dict[str, Any]:
    for key, row in table.items():
        if key[0] == code and key[-1] in text:
            return row
    return {}


def verifiable_rules(max_tier: int = 2) -> list[Any]:
    return [r for r in ALL_RULES if r.tier <= max_tier and kinds_for(r)]


def write_example(root: str, label: str, text: str, row: dict[str, Any]) -> str:
    folder = os.path.join(root, label)
    os.makedirs(folder, exist_ok=True)
    for name, body in row.get("files", {}).items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            handle.write(body)
    path = os.path.join(folder, "example.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def plan_example(
    root: str, code: str, label: str, text: str, row: dict[str, Any]
) -> list[dict[str, Any]]:
    path = write_example(root, label, text, row)
    options = InputOptions(
        guess=True, table=row.get("args", {}), static=tuple(row.get("static", ()))
    )
    jobs = plan_text(path, text, codes=[code], inputs=options, settings=INSTALLED)
    for job in jobs:
        job["seed"] = row.get("seed", 0)
    return jobs


def describe(findings: list[dict[str, Any]]) -> str:
    return (
        "\n".join(f"  line {f['line']}: {f['verdict']}: {f['reason']}" for f in findings)
        or "  (no findings)"
    )


def needs_inputs(finding: dict[str, Any]) -> bool:
    return finding["verdict"] == "could-not-run" and "an input" in finding["reason"]


def _installed() -> Settings:
    """Plan for the installed JAX: an example whose rule needs a newer JAX (JAX812 on 0.10,
    `make_mesh(axis_shapes=)` before 0.11.1) is not flagged there, and the test skips it."""
    from importlib import metadata

    return Settings(target_jax=metadata.version("jax"), target_jax_source="installed")


INSTALLED = _installed()
CASES = [(rule.code, i) for rule in verifiable_rules() for i in range(len(rule.examples.invalid))]


PARALLEL = 2  # verifier subprocesses at a time (the suite targets 2 cores)


def computed_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, compute: Callable[[str], Any]
) -> Any:
    """Run `compute(folder)` once per test session, even under pytest-xdist: the first worker
    computes (holding a file lock) and stores JSON; the others wait for it and read it."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    result = base / f"{name}.json"
    with open(f"{result}.lock", "w") as lock:
        try:
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX)
        except ImportError:  # pragma: no cover - not POSIX: compute per worker
            pass
        if result.exists():
            return json.loads(result.read_text(encoding="utf-8"))
        folder = base / f"{name}-files"
        folder.mkdir(exist_ok=True)
        value = compute(str(folder))
        result.write_text(json.dumps(value), encoding="utf-8")
        return value


def _verify_examples(root: str) -> list[list[dict[str, Any]]]:
    rules = {r.code: r for r in verifiable_rules()}
    batches = []
    for code, i in CASES:
        text = textwrap.dedent(rules[code].examples.invalid[i]).lstrip("\n")
        batches.append(plan_example(root, code, f"{code}_{i}", text, table_row(TABLE, code, text)))
    reports, _env = verify_jobs(batches, timeout=90, parallel=PARALLEL)
    return reports


TIMED = frozenset({"JAX601", "JAX602"})  # verdicts from wall-clock ratios


def _verify_one(root: str, code: str, index: int) -> list[dict[str, Any]]:
    rules = {r.code: r for r in verifiable_rules()}
    text = textwrap.dedent(rules[code].examples.invalid[index]).lstrip("\n")
    batch = plan_example(root, code, f"{code}_{index}", text, table_row(TABLE, code, text))
    reports, _env = verify_jobs([batch], timeout=90, parallel=1)
    return reports[0]


@pytest.fixture(scope="module")
def verdicts(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[tuple[str, int], list[dict[str, Any]]]:
    reports = computed_once(tmp_path_factory, "verify-examples", _verify_examples)
    return dict(zip(CASES, reports))


def test_every_verifier_kind_has_a_module() -> None:
    from jaxlint.runtime.runner import KIND_MODULES
    from jaxlint.verify.plan import ALL_KINDS

    assert set(ALL_KINDS) == set(KIND_MODULES)
    for rule in verifiable_rules(max_tier=3):
        assert set(kinds_for(rule)) <= set(ALL_KINDS), rule.code


@pytest.mark.parametrize(("code", "index"), CASES, ids=[f"{c}-{i}" for c, i in CASES])
def test_invalid_example_is_confirmed(
    verdicts: dict[tuple[str, int], list[dict[str, Any]]], code: str, index: int, tmp_path: Path
) -> None:
    findings = verdicts[(code, index)]
    rules = {r.code: r for r in verifiable_rules()}
    row = table_row(TABLE, code, rules[code].examples.invalid[index])
    needs = row.get("requires_jax")
    if needs and parse_version(INSTALLED.target_jax) < parse_version(needs):
        pytest.skip(f"{code} example {index} is written for JAX >= {needs}")
    if row.get("unprovable"):
        pytest.skip(
            f"{code} example {index}: the verifier cannot prove it yet: {row['unprovable']}"
        )
    if not findings:
        from jaxlint.engine import LintOptions, lint_text

        text = textwrap.dedent(rules[code].examples.invalid[index])
        if lint_text(text, "example.py", LintOptions(codes=frozenset({code}))):
            pytest.skip(
                f"{code} example {index}: the API is not yet deprecated or removed in the "
                f"installed JAX {INSTALLED.target_jax}, so the rule does not apply to it"
            )
        pytest.skip(
            f"{code} does not flag its own invalid example {index} (see test_rule_examples)"
        )
    if all(needs_inputs(f) for f in findings):
        pytest.skip(
            f"needs inputs the guesser cannot infer; add a TABLE row:\n{describe(findings)}"
        )
    confirmed = [f for f in findings if f["verdict"] == "confirmed"]
    if not confirmed and code in TIMED and any(f["verdict"] == "not-reproduced" for f in findings):
        # a timing verdict is a ratio measured within one run; on a loaded machine (the batch
        # runs the examples side by side) it can fall under the threshold: the example alone,
        # once more, decides (seen on 2 cores: 1.93x where the threshold wants more)
        findings = _verify_one(str(tmp_path), code, index)
        confirmed = [f for f in findings if f["verdict"] == "confirmed"]
    assert confirmed, f"{code} example {index} was not confirmed:\n{describe(findings)}"
    for finding in findings:
        if finding["verdict"] == "confirmed":
            evidence = finding["evidence"]
            assert evidence.get("checks"), finding
            assert finding["reason"], finding
            continue
        # another finding earlier in the same code stopped the run (and has no fix to apply),
        # or its fix, applied first, also removed this one (two findings of one bug)
        if finding["verdict"] == "not-reproduced" and "applied first)" in finding["reason"]:
            continue
        assert finding["verdict"] == "could-not-run" and finding["reason"].startswith("masked"), (
            f"{code} example {index}, line {finding['line']}:\n{describe(findings)}"
        )
