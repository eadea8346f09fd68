"""Argument spec strings: parsing needs no JAX; building values does (those tests skip without it)."""

from __future__ import annotations

import pytest

from jaxlint.core.errors import UsageError
from jaxlint.runtime.toolbox.inputs import (
    ArraySpec,
    KeySpec,
    LiteralSpec,
    describe_value,
    format_specs,
    parse_specs,
    split_items,
)


def test_commas_inside_brackets_belong_to_the_shape() -> None:
    assert split_items("f32[8,128], i32[], (1, 2), 'a,b'") == [
        "f32[8,128]",
        "i32[]",
        "(1, 2)",
        "'a,b'",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f32[8,128]", ArraySpec("f32", (8, 128))),
        ("i32[]", ArraySpec("i32", ())),
        ("bool[4]", ArraySpec("bool", (4,))),
        ("bf16[2, 3]", ArraySpec("bf16", (2, 3))),
        ("f16", ArraySpec("f16", ())),
        ("f64", ArraySpec("f64", ())),
        ("i8[2]", ArraySpec("i8", (2,))),
        ("i16", ArraySpec("i16", ())),
        ("i64[1]", ArraySpec("i64", (1,))),
        ("u8[3]", ArraySpec("u8", (3,))),
        ("u32", ArraySpec("u32", ())),
        ("c64[2]", ArraySpec("c64", (2,))),
        ("float32[5]", ArraySpec("f32", (5,))),
        ("key", KeySpec()),
        ("legacy-key", KeySpec(legacy=True)),
        ("key[4]", KeySpec(shape=(4,))),
    ],
)
def test_array_and_key_items(text: str, expected: object) -> None:
    assert parse_specs(text) == [expected]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("3", 3),
        ("0.5", 0.5),
        ("True", True),
        ("None", None),
        ('"mean"', "mean"),
        ("(1, 2)", (1, 2)),
        ("-2", -2),
    ],
)
def test_python_literals_are_static_values(text: str, value: object) -> None:
    (spec,) = parse_specs(text)
    assert isinstance(spec, LiteralSpec)
    assert spec.value == value and str(spec) == text


def test_mixed_spec_round_trips() -> None:
    specs = parse_specs("f32[8,128], i32[], key, 3, 'mean'")
    assert format_specs(specs) == "f32[8,128], i32[], key, 3, 'mean'"
    assert parse_specs(["f32[2]", "key"]) == [ArraySpec("f32", (2,)), KeySpec()]


def test_empty_spec_means_no_arguments() -> None:
    assert parse_specs("") == []


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("f32[8,128], q32[4]", "q32[4]"),
        ("f32[8,x]", "f32[8,x]"),
        ("f32[-1]", "f32[-1]"),
        ("banana", "banana"),
        ("f32[2],, i32", "empty item"),
        ("f32[2", "unbalanced"),
        ("'open", "unbalanced"),
    ],
)
def test_bad_items_raise_usage_error_naming_them(text: str, named: str) -> None:
    with pytest.raises(UsageError, match=named.replace("[", r"\[")):
        parse_specs(text)


def test_describe_python_scalars_without_jax() -> None:
    assert describe_value(3) == "~i32[]"
    assert describe_value(0.5) == "~f32[]"
    assert describe_value("mean") == "'mean'"


@pytest.mark.jax
def test_materialize_is_deterministic_and_typed() -> None:
    jax = pytest.importorskip("jax")
    import numpy as np

    from jaxlint.runtime.toolbox.inputs import abstractify, materialize

    specs = parse_specs(
        "f32[2,3], i32[4], bool[5], bf16[2], u8[3], c64[2], key, legacy-key, key[3], 0.5, 'mean'"
    )
    first = materialize(specs, seed=1)
    again = materialize(specs, seed=1)
    other = materialize(specs, seed=2)
    assert [describe_value(v) for v in first[:6]] == [
        "f32[2,3]",
        "i32[4]",
        "bool[5]",
        "bf16[2]",
        "u8[3]",
        "c64[2]",
    ]
    assert np.array_equal(first[0], again[0]) and not np.array_equal(first[0], other[0])
    assert np.abs(np.asarray(first[1])).max() <= 8
    assert jax.dtypes.issubdtype(first[6].dtype, jax.dtypes.prng_key) and first[6].shape == ()
    assert first[7].dtype == np.uint32 and first[7].shape == (2,)
    assert first[8].shape == (3,)
    assert first[9:] == [0.5, "mean"]
    host = materialize(specs[:1], seed=1, on_device=False)[0]
    assert isinstance(host, np.ndarray) and np.array_equal(host, np.asarray(first[0]))
    shapes = abstractify(specs)
    assert isinstance(shapes[0], jax.ShapeDtypeStruct) and shapes[0].shape == (2, 3)
    assert shapes[6].dtype == first[6].dtype and shapes[7].shape == (2,)
    assert shapes[9:] == [0.5, "mean"]
