"""Bad arguments, every package at once: the exact exception and message.

One table keyed by public function name, one test body run over (package, function,
case) for every package that exports the function, as JAX's callback tests run one
body over the callback flavours. Each case is called eagerly and, where an argument is
an array, lowered under ``jax.jit`` of a fresh function (the static arguments closed
over): the error is raised while tracing, before anything reaches XLA.

Messages measured on JAX 0.10.2 and 0.12.0.1 (CPU), where they are identical; the
packages that share a function raise the same message for the same mistake.
"""

from __future__ import annotations

import importlib
from typing import Any

import jax
import numpy as np
import pytest
from pkg_support import close_static, raises

from jaxcb_core.catalog import by_name
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

Case = tuple[tuple[Any, ...], type[Exception], str]


SHAPE = "host_draw: shape must be a tuple of non-negative ints, got "

TABLE: dict[str, list[Case]] = {
    "sin_scale": [
        ((i64, 1.0), TypeError, "sin_scale: x must have a floating dtype, got int32"),
        ((f32, np.ones(2)), ValueError, "sin_scale: y must be a scalar, got shape (2,)"),
    ],
    "sum_mean": [
        ((i64,), TypeError, "sum_mean: x must have a floating dtype, got int32"),
        ((F32(1.0),), ValueError, "sum_mean: x must have at least one axis, got shape ()"),
    ],
    "bessel_jv": [
        ((1.0, f32), TypeError, "bessel_jv: v must have an integer dtype, got float32"),
        ((True, f32), TypeError, "bessel_jv: v must have an integer dtype, got bool"),
        (
            (1, np.ones(3, np.complex64)),
            TypeError,
            "bessel_jv: z must have a real dtype, got complex64",
        ),
        (
            (np.ones(2, np.int32), f32),
            ValueError,
            "bessel_jv: v and z must be broadcastable, got shapes (2,) and (3,)",
        ),
    ],
    "expm": [
        ((np.eye(3, dtype=np.int32),), TypeError, "expm: a must have a floating dtype, got int32"),
        ((np.eye(2, dtype=np.int32),), TypeError, "expm: a must have a floating dtype, got int32"),
        ((f32,), ValueError, "expm: a must have shape (..., n, n), got shape (3,)"),
        (
            (np.ones((2, 3), F32),),
            ValueError,
            "expm: a must have shape (..., n, n), got shape (2, 3)",
        ),
    ],
    "cubic_root": [
        ((i64, f32), TypeError, "cubic_root: a must have a floating dtype, got int32"),
        ((f32, i64), TypeError, "cubic_root: b must have a floating dtype, got int32"),
        (
            (f32, np.ones(2, F32)),
            ValueError,
            "cubic_root: a and b must be broadcastable, got shapes (3,) and (2,)",
        ),
        (
            (f32[:2], f32),
            ValueError,
            "cubic_root: a and b must be broadcastable, got shapes (2,) and (3,)",
        ),
    ],
    "log_steps": [
        ((i32, 2), TypeError, "log_steps: x0 must have a floating dtype, got int32"),
        ((f32, 2.0), TypeError, "log_steps: n must be a Python int, got float"),
        ((f32, True), TypeError, "log_steps: n must be a Python int, got bool"),
        ((f32, np.int32(2)), TypeError, "log_steps: n must be a Python int, got int32"),
        ((f32, -1), ValueError, "log_steps: n must be >= 0, got -1"),
    ],
    "progress": [
        ((i32, 4, 2), TypeError, "progress: x0 must have a floating dtype, got int32"),
        ((f32, np.int64(4), 2), TypeError, "progress: n must be a Python int, got int64"),
        ((f32, -4, 2), ValueError, "progress: n must be >= 0, got -4"),
        ((f32, 4, 2.0), TypeError, "progress: every must be a Python int, got float"),
        ((f32, 4, None), TypeError, "progress: every must be a Python int, got NoneType"),
        ((f32, 4, 0), ValueError, "progress: every must be >= 1, got 0"),
    ],
    "host_draw": [
        (((8, -1),), ValueError, SHAPE + "(8, -1)"),
        (((2, -1),), ValueError, SHAPE + "(2, -1)"),
        (([8],), ValueError, SHAPE + "[8]"),
        ((8,), ValueError, SHAPE + "8"),
        (((2.0,),), ValueError, SHAPE + "(2.0,)"),
        (((True,),), ValueError, SHAPE + "(True,)"),
    ],
}
# jaxcb_pure's bare callbacks validate as the public function does, under its name;
# jaxcb_debug's print forms name themselves.
TABLE |= {
    f"{n}_callback": TABLE[n] for n in ("sin_scale", "sum_mean", "bessel_jv", "expm", "cubic_root")
}
TABLE |= {
    f"{n}_print": [(a, e, m.replace(f"{n}:", f"{n}_print:", 1)) for a, e, m in TABLE[n]]
    for n in ("log_steps", "progress")
}


def computation(name: str) -> str:
    """The catalog entry of a public function (``expm_callback`` -> ``expm``)."""
    return name.removesuffix("_callback").removesuffix("_print")


def exporters(name: str) -> list[str]:
    return [p for p in PACKAGES if getattr(importlib.import_module(p), name, None) is not None]


PARAMS = [
    pytest.param(package, name, *case, id=f"{package}-{name}-{i}")
    for name, cases in TABLE.items()
    for package in exporters(name)
    for i, case in enumerate(cases)
]


def test_the_table_covers_every_public_function() -> None:
    assert all(exporters(name) for name in TABLE)
    for package in PACKAGES:
        module = importlib.import_module(package)
        public = {n for n in module.__all__ if callable(getattr(module, n))}
        assert public <= set(TABLE), package


@pytest.mark.parametrize(("package", "name", "args", "exc", "message"), PARAMS)
def test_bad_argument(
    package: str, name: str, args: tuple[Any, ...], exc: type[Exception], message: str, x32: None
) -> None:
    fn = getattr(importlib.import_module(package), name)
    with raises(exc, message, whole=True):
        fn(*args)
    if not any(isinstance(a, np.ndarray | np.generic) for a in args):
        return  # Python values only: nothing to trace
    f, dynamic = close_static(fn, by_name(computation(name)), args)
    with raises(exc, message):  # lowering traces: the error comes before XLA compiles
        jax.jit(f).lower(*dynamic)
