"""The recall corpus of public real-world sharp bits (benchmarks/recall/, issue 13).

Why: recall is measured by `benchmarks/recall.py` on bad programs reduced from public issues
and Q&A threads, each with a fixed twin for the false-alarm rate. This test pins what jaxlint
detects today, so a change that loses a detection (or adds a finding on a fixed twin) fails
here; a change that gains one fails too, and moves the case from MISSED to DETECTED in the
same commit (update docs/precision.md, "Recall on public sharp bits"). It runs jaxlint's CLI
on the cases and never imports JAX: that the bad programs really show their sharp bit, and
the twins do not, is recorded with real JAX in `benchmarks/recall/verified.json`
(`benchmarks/recall/verify_cases.py`).
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
RECALL = ROOT / "benchmarks" / "recall.py"
VERIFIED = ROOT / "benchmarks" / "recall" / "verified.json"

DETECTED = {
    "append_losses",
    "apply_rngs_same_key",
    "arange_from_element",
    "arange_traced_stop",
    "asarray_numpy_f64",
    "assert_spin_bound",
    "astype_float_grad",
    "async_dispatch_timing",
    "at_set_discarded",
    "block_setitem_helper",
    "ceil_steps",
    "cfg_seed_per_epoch",
    "cond_and_predicate",
    "dropout_fixed_seed",
    "epoch_timer",
    "eqx_linear_one_key",
    "experimental_shard_map",
    "first_call_timed",
    "fit_timed_no_block",
    "flax_init_twice",
    "flax_param_dtype_f64",
    "float_across_modules",
    "float_helper_arg",
    "float_objective",
    "global_key_jit",
    "global_tracer_leak",
    "helper_fixed_key_jit",
    "helpers_share_key",
    "index_update_loop",
    "init_params_reuse",
    "int_pow_overflow",
    "item_assignment",
    "jit_inside_step",
    "jit_lambda_while",
    "jit_per_call_likelihood",
    "key_across_modules",
    "layers_comprehension_key",
    "local_jit_scan",
    "loop_key_not_advanced",
    "loop_state_key",
    "mandelbrot_vmap_if",
    "mask_at_set",
    "max_steps_if",
    "metropolis_same_key",
    "mwg_adapt_if",
    "nnx_rngs_in_loop",
    "nnx_rngs_per_step",
    "nonzero_prod",
    "np_asarray_module",
    "ones_f64",
    "or_default_traced",
    "pad_to_length",
    "param_isub_in_loop",
    "pmap_chains",
    "prior_keys_index",
    "random_first_call_timed",
    "scan_batch_key",
    "seed_in_loop",
    "segment_sum_no_size",
    "self_key_not_stored",
    "shape_per_iteration",
    "slice_iadd",
    "static_lr_schedule",
    "static_step_varies",
    "stax_import",
    "svd_truncate_min",
    "tree_map_removed",
    "tree_multimap",
    "uniform_f64",
    "unique_ages",
    "user_module_twice",
    "vmap_module_key_none",
    "vmap_shared_key",
    "while_not_allclose",
    "not_traced_flag",
    "self_counter_in_jit",
    "split_traced_sections",
    "stats_dict_in_jit",
}
# Known misses, with why (docs/precision.md, "Recall on public sharp bits").
MISSED = {
    "closure_dict_leak",  # a closure over a tracer stored in an object's dict (vmap)
    "print_tracer",  # print under jax.grad (JAX103 covers jit-like transforms only)
}


def _recall_module():
    spec = importlib.util.spec_from_file_location("recall_benchmark", RECALL)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, object]]:
    recall = _recall_module()
    return recall.evaluate(recall.load_cases(), [sys.executable, "-m", "jaxlint"])


def test_the_corpus_is_well_formed():
    from jaxlint.rules import ALL_RULES

    recall = _recall_module()
    cases = recall.load_cases()
    assert len(cases) >= 30
    codes = {r.code for r in ALL_RULES}
    for case in cases:
        assert case.source.startswith("https://"), case.name
        assert set(case.expect) <= codes, (case.name, case.expect)
    assert {c.name for c in cases} == DETECTED | MISSED
    assert not DETECTED & MISSED


def test_every_case_was_verified_with_jax():
    verified = json.loads(VERIFIED.read_text())["cases"]
    recall = _recall_module()
    for case in recall.load_cases():
        entry = verified.get(case.name)
        assert entry is not None, f"{case.name}: run benchmarks/recall/verify_cases.py"
        assert entry["ok"], (case.name, entry)
        assert entry["check"] == case.check, f"{case.name}: check changed, verify again"


def test_detected_and_missed_are_pinned(results):
    detected = {name for name, r in results.items() if r["detected"]}
    gained = detected - DETECTED
    lost = DETECTED - detected
    assert not lost, f"recall regression: no expected finding on {sorted(lost)}"
    assert not gained, f"newly detected (move them to DETECTED): {sorted(gained)}"


def test_no_false_alarms_on_the_fixed_twins(results):
    alarms = {name: r["good_findings"] for name, r in results.items() if r["good_findings"]}
    assert not alarms, alarms
