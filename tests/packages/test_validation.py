"""Bad arguments, every package at once: the exact exception and message.

One table keyed by public function name, one test body run over (package, function,
case) for every package that exports the function, as JAX's callback tests run one
body over the callback flavours. A case whose keyword a package's function does not
take (``ordered``, ``vmap_method``, ``report``) is not run for that package. Each case
is called eagerly and traced under ``jax.jit`` of a fresh function: the numeric arrays
are passed in, every other value (``None``, strings, lists, object arrays, Python
counts, sinks) is closed over, and the error is raised while tracing, before anything
reaches XLA.

Most cases are generated from what each argument must be (a floating array, an integer
array, a real scalar, ...) crossed with the mistakes the issue lists: ``None``, strings,
ragged lists, object arrays, complex and bool where a real is required, integers where
a float is, integer-overflowing counts, non-callable sinks, generators that are not a
``numpy.random.Generator``, bad shapes and flags.

Messages measured on JAX 0.10.2 and 0.12.0.1 (CPU), where they are identical; the
packages that share a function raise the same message for the same mistake.
"""

from __future__ import annotations

import importlib
import inspect
from collections import Counter
from typing import Any

import jax
import numpy as np
import pytest
from pkg_support import PURE, raises

from jaxcb_core.mechanisms import discover

# Every installed mechanism package whose variants implement something on this JAX (the
# legacy package's functions carry the removed APIs' own names and are tested apart).
PACKAGES = tuple(
    sorted({v.package for v in discover() if v.implementations and v.package != "jaxcb_legacy"})
)
F32 = np.float32
f32 = np.ones(3, F32)
i32 = np.arange(3, dtype=np.int32)
i64 = np.arange(3)  # int64 in, reported as int32: the tests run without jax_enable_x64
VMAP_METHODS = "('sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', None)"

# (positional args, keyword args, exception, message)
Case = tuple[tuple[Any, ...], dict[str, Any], type[Exception], str]

# What each positional argument must be, and a valid value for it.
SPECS: dict[str, list[tuple[str, str, Any]]] = {
    "sin_scale": [("x", "float", f32), ("y", "real", F32(1.5))],
    "sum_mean": [("x", "float", f32)],
    "bessel_jv": [("v", "int", np.int32(1)), ("z", "real", f32)],
    "expm": [("a", "float", np.eye(3, dtype=F32))],
    "cubic_root": [("a", "float", f32), ("b", "float", f32)],
    "log_steps": [("x0", "float", f32), ("n", "count", 2)],
    "progress": [("x0", "float", f32), ("n", "count", 4), ("every", "count", 2)],
    "host_draw": [("shape", "shape", (3,))],
}
RAGGED = [[1.0, 2.0], [3.0]]
OBJECTS = np.array([1.0, None], dtype=object)
NOT_NUMBERS = [  # (value, how the message names it)
    (None, "NoneType"),
    ("abc", "str"),
    (RAGGED, "list"),
    (OBJECTS, "an array of dtype object"),
    ({"x": 1.0}, "dict"),
]
WANT = {
    "float": "a floating dtype",
    "int": "an integer dtype",
    "real": "an integer or floating dtype",
}
WRONG_DTYPES = {  # kind -> arrays of the wrong dtype
    "float": [i64, np.ones(3, bool), np.ones(3, np.complex64)],
    "int": [f32, np.ones(3, bool), np.ones(3, np.complex64)],
    "real": [np.ones(3, bool), np.ones(3, np.complex64), np.bool_(True), np.complex64(1j)],
}
SHAPE = "host_draw: shape must be a tuple of non-negative ints below 2**31, got "
BIG = 2**31


def generated(fn: str) -> list[Case]:
    """The mistakes of the issue, in each argument of `fn`."""
    spec = SPECS[fn]
    valid = tuple(value for _, _, value in spec)
    cases: list[Case] = []

    def bad(i: int, value: Any, exc: type[Exception], message: str) -> None:
        cases.append(((*valid[:i], value, *valid[i + 1 :]), {}, exc, f"{fn}: {message}"))

    for i, (name, kind, _) in enumerate(spec):
        if kind in WANT:
            for value, got in NOT_NUMBERS:
                bad(i, value, TypeError, f"{name} must be an array of numbers, got {got}")
            for value in WRONG_DTYPES[kind]:
                got = np.asarray(value).dtype.name.replace("int64", "int32")
                bad(i, value, TypeError, f"{name} must have {WANT[kind]}, got {got}")
        elif kind == "count":
            for value in (None, "3", 2.0, True, np.int32(2)):
                got = type(value).__name__
                bad(i, value, TypeError, f"{name} must be a Python int, got {got}")
            low = 1 if name == "every" else 0
            bad(i, low - 1, ValueError, f"{name} must be >= {low}, got {low - 1}")
            for value in (BIG, BIG + 5, 2**40):
                message = f"{name} must be < 2**31 (steps are counted in int32), got {value}"
                bad(i, value, ValueError, message)
    return cases


def sink_cases(fn: str, keyword: str) -> list[Case]:
    valid = tuple(value for _, _, value in SPECS[fn])
    return [
        (valid, {keyword: value}, TypeError, f"{fn}: {keyword} must be callable or None, got {got}")
        for value, got in ((3, "int"), ("print", "str"), (np.float32(1.0), "float32"))
    ]


def flag_cases(fn: str) -> list[Case]:
    valid = tuple(value for _, _, value in SPECS[fn])
    ordered = [
        (valid, {"ordered": value}, TypeError, f"{fn}: ordered must be a bool, got {got}")
        for value, got in (("yes", "str"), (1, "int"), (None, "NoneType"))
    ]
    methods = [
        (
            valid,
            {"vmap_method": value},
            ValueError,
            f"{fn}: vmap_method must be one of {VMAP_METHODS}, got {value!r}",
        )
        for value in ("vectorized", "legacy_vectorized", 0)
    ]
    return ordered + methods


TABLE: dict[str, list[Case]] = {fn: generated(fn) + flag_cases(fn) for fn in SPECS}
TABLE["sin_scale"] += [
    ((f32, np.ones(2)), {}, ValueError, "sin_scale: y must be a scalar, got shape (2,)"),
    (
        (f32, 1 + 1j),
        {},
        TypeError,
        "sin_scale: y must have an integer or floating dtype, got complex64",
    ),
    ((f32, True), {}, TypeError, "sin_scale: y must have an integer or floating dtype, got bool"),
]
TABLE["sum_mean"] += [
    ((F32(1.0),), {}, ValueError, "sum_mean: x must have at least one axis, got shape ()"),
]
TABLE["bessel_jv"] += [
    ((1.0, f32), {}, TypeError, "bessel_jv: v must have an integer dtype, got float32"),
    ((True, f32), {}, TypeError, "bessel_jv: v must have an integer dtype, got bool"),
    (
        (np.ones(2, np.int32), f32),
        {},
        ValueError,
        "bessel_jv: v and z must be broadcastable, got shapes (2,) and (3,)",
    ),
    (
        (2**40, f32),
        {},
        ValueError,
        "bessel_jv: v is out of range (Python int 1099511627776 too large to convert to int32)",
    ),
]
TABLE["expm"] += [
    ((np.eye(2, dtype=np.int32),), {}, TypeError, "expm: a must have a floating dtype, got int32"),
    ((f32,), {}, ValueError, "expm: a must have shape (..., n, n), got shape (3,)"),
    (
        (np.ones((2, 3), F32),),
        {},
        ValueError,
        "expm: a must have shape (..., n, n), got shape (2, 3)",
    ),
    ((F32(1.0),), {}, ValueError, "expm: a must have shape (..., n, n), got shape ()"),
]
TABLE["cubic_root"] += [
    (
        (f32, np.ones(2, F32)),
        {},
        ValueError,
        "cubic_root: a and b must be broadcastable, got shapes (3,) and (2,)",
    ),
    (
        (f32[:2], f32),
        {},
        ValueError,
        "cubic_root: a and b must be broadcastable, got shapes (2,) and (3,)",
    ),
]
TABLE["log_steps"] += sink_cases("log_steps", "log")
TABLE["progress"] += sink_cases("progress", "report")
TABLE["host_draw"] += [
    ((shape,), {}, ValueError, SHAPE + repr(shape))
    for shape in [(8, -1), (2, -1), [8], 8, (2.0,), (True,), None, ("3",), (BIG,), (2, 2**40)]
] + [
    (
        ((3,),),
        {"rng": rng},
        TypeError,
        "host_draw: rng must be a numpy.random.Generator (an object with standard_normal) "
        f"or None, got {got}",
    )
    for rng, got in (
        (3, "int"),
        ("seed", "str"),
        (object(), "object"),
        (np.random.default_rng, "cython_function_or_method"),
    )
]
for observer in PURE:
    TABLE[observer] += sink_cases(observer, "report")  # jaxcb_debug's observers only
# jaxcb_pure's, jaxcb_buffer's and jaxcb_ffi's bare callbacks validate as the public
# function does, under its name; jaxcb_debug's print forms name themselves.
TABLE |= {f"{n}_callback": TABLE[n] for n in PURE}
TABLE |= {
    f"{n}_{form}": [(a, k, e, m.replace(f"{n}:", f"{n}_{form}:", 1)) for a, k, e, m in TABLE[n]]
    for n in ("log_steps", "progress")
    for form in ("print", "log")
}


def exporters(name: str) -> list[str]:
    return [p for p in PACKAGES if getattr(importlib.import_module(p), name, None) is not None]


def takes(package: str, name: str, keywords: dict[str, Any]) -> bool:
    """Whether the function has every keyword of the case."""
    params = inspect.signature(getattr(importlib.import_module(package), name)).parameters
    return set(keywords) <= set(params)


PARAMS = [
    pytest.param(package, name, *case, id=f"{package}-{name}-{i}")
    for name, cases in TABLE.items()
    for package in exporters(name)
    for i, case in enumerate(cases)
    if takes(package, name, case[1])
]
TRIED = Counter(p.values[0] for p in PARAMS)  # bad inputs tried per package


def test_the_table_covers_every_public_function() -> None:
    assert all(exporters(name) for name in TABLE)
    for package in PACKAGES:
        module = importlib.import_module(package)
        public = {n for n in module.__all__ if callable(getattr(module, n))}
        assert public <= set(TABLE), package
        assert TRIED[package] >= 50, (package, TRIED[package])


def traced(name: str, i: int, a: Any) -> bool:
    """Whether the test passes argument `i` into jax.jit (a numeric array where the
    function takes an array) or closes over it (everything else)."""
    kind = SPECS[name.removesuffix("_callback").removesuffix("_print").removesuffix("_log")][i][1]
    return kind in WANT and isinstance(a, np.ndarray | np.generic) and a.dtype.kind in "biufc"


@pytest.mark.parametrize(("package", "name", "args", "kwargs", "exc", "message"), PARAMS)
def test_bad_argument(
    package: str,
    name: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    exc: type[Exception],
    message: str,
    x32: None,
) -> None:
    fn = getattr(importlib.import_module(package), name)
    with raises(exc, message, whole=True):
        fn(*args, **kwargs)
    dynamic = [a for i, a in enumerate(args) if traced(name, i, a)]

    def f(*dyn: Any) -> Any:
        it = iter(dyn)
        return fn(*[next(it) if traced(name, i, a) else a for i, a in enumerate(args)], **kwargs)

    with raises(exc, message):  # lowering traces: the error comes before XLA compiles
        jax.jit(f).lower(*dynamic)
