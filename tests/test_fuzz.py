"""Bounded fuzzing in the suite (the long run is benchmarks/fuzz.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzzing import check_invariants, grammar_source, mutated_source

FAST = settings(
    max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)


@FAST
@given(mutated_source())
def test_mutated_real_code(text):
    check_invariants(text)


@FAST
@given(st.text(max_size=400))
def test_arbitrary_text(text):
    check_invariants(text)


grammar = grammar_source()


@pytest.mark.skipif(grammar is None, reason="hypothesmith not installed")
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(grammar if grammar is not None else st.just(""))
def test_grammar_generated_programs(text):
    check_invariants(text)


@FAST
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_crash(data):
    """Bytes that decode are held to the invariants (no rule crash, sound fixes) with every
    rule selected; `lint_text` turns a rule's crash into a JAX000, so only asserting on that
    diagnostic makes this test able to fail."""
    from jaxlint.core.source import ReadError, decode_source

    try:
        source = decode_source(data)
    except ReadError:
        return
    check_invariants(source.text)
