"""Bounded fuzzing in the suite (the long run is benchmarks/fuzz.py)."""

from __future__ import annotations

import importlib.util

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


# Built on first use (st.deferred), not at import: building the grammar strategy takes seconds,
# and every pytest(-xdist) process imports this module while only one runs the test.
HAS_HYPOTHESMITH = importlib.util.find_spec("hypothesmith") is not None


@pytest.mark.skipif(not HAS_HYPOTHESMITH, reason="hypothesmith not installed")
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(st.deferred(grammar_source) if HAS_HYPOTHESMITH else st.just(""))
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
