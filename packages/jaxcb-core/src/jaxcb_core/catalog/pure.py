"""The pure computations of the catalog: one section per computation (its inputs, reference,
derivative references and NumPy floors), then their entries, :data:`PURE`.

NumPy and SciPy only, never JAX.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.special

from .computation import Computation, cast_tree, diagonal_vjp, float_dtype

__all__ = ["PURE", "cubic_root_scalar"]


# --- sin_scale(x, y) = sin(x) * y + 1 ---------------------------------------------------------


def _sin_scale_args(dtype: np.dtype[Any]) -> tuple[Any, ...]:
    return (np.linspace(-2.0, 2.0, 8).astype(dtype), np.asarray(1.5, dtype))


def _sin_scale_ref(x: Any, y: Any) -> np.ndarray:
    x64, y64 = np.asarray(x, np.float64), np.asarray(y, np.float64)
    return cast_tree(np.sin(x64) * y64 + 1.0, float_dtype(x))


def _sin_scale_jvp(args: tuple[Any, ...], t: np.ndarray) -> np.ndarray:
    x, y = (np.asarray(a, np.float64) for a in args)
    return np.cos(x) * y * np.asarray(t, np.float64)


def _sin_scale_sized(dtype: np.dtype[Any], n: int) -> tuple[Any, ...]:
    return (np.linspace(-2.0, 2.0, n, dtype=dtype), np.asarray(1.5, dtype))


def _sin_scale_np(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    out = np.sin(x) * y
    out += 1
    return out


def _sin_scale_into(out: np.ndarray, x: np.ndarray, y: np.ndarray) -> None:
    np.sin(x, out=out)
    out *= y
    out += 1


# --- sum_mean(x) -> (sum, mean) --------------------------------------------------------------


def _sum_mean_args(dtype: np.dtype[Any]) -> tuple[Any, ...]:
    return (np.linspace(0.5, 4.0, 8).astype(dtype),)


def _sum_mean_ref(x: Any) -> tuple[np.ndarray, np.ndarray]:
    x64 = np.asarray(x, np.float64)
    return cast_tree((x64.sum(axis=-1), x64.mean(axis=-1)), float_dtype(x))


def _sum_mean_jvp(args: tuple[Any, ...], t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    t = np.asarray(t, np.float64)
    return t.sum(axis=-1), t.mean(axis=-1)


def _sum_mean_vjp(args: tuple[Any, ...], c: Any) -> np.ndarray:
    c_sum, c_mean = (np.asarray(x, np.float64) for x in c)
    n = np.shape(args[0])[-1]
    return np.broadcast_to((c_sum + c_mean / n)[..., None], np.shape(args[0])).copy()


def _sum_mean_sized(dtype: np.dtype[Any], n: int) -> tuple[Any, ...]:
    return (np.linspace(0.5, 4.0, n, dtype=dtype),)


def _sum_mean_np(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return x.sum(axis=-1, dtype=x.dtype), x.mean(axis=-1, dtype=x.dtype)


# --- bessel_jv(v, z) = scipy.special.jv ------------------------------------------------------


def _bessel_args(dtype: np.dtype[Any]) -> tuple[Any, ...]:
    return (np.int32(1), np.linspace(0.25, 6.0, 8).astype(dtype))


def _bessel_ref(v: Any, z: Any) -> np.ndarray:
    return cast_tree(scipy.special.jv(np.asarray(v), np.asarray(z, np.float64)), float_dtype(z))


def _bessel_jvp(args: tuple[Any, ...], t: np.ndarray) -> np.ndarray:
    v, z = np.asarray(args[0]), np.asarray(args[1], np.float64)
    d = np.where(
        v == 0,
        -scipy.special.jv(1, z),
        0.5 * (scipy.special.jv(v - 1, z) - scipy.special.jv(v + 1, z)),
    )
    return d * np.asarray(t, np.float64)


def _bessel_sized(dtype: np.dtype[Any], n: int) -> tuple[Any, ...]:
    return (np.asarray(1, np.int32), np.linspace(0.25, 6.0, n, dtype=dtype))


def _bessel_np(v: np.ndarray, z: np.ndarray) -> np.ndarray:
    return scipy.special.jv(v, z).astype(z.dtype, copy=False)


def _bessel_into(out: np.ndarray, v: np.ndarray, z: np.ndarray) -> None:
    scipy.special.jv(v, z, out=out)


# --- expm(a) = scipy.linalg.expm ------------------------------------------------------------


def _expm_args(dtype: np.dtype[Any]) -> tuple[Any, ...]:
    rng = np.random.default_rng(4)
    return ((0.5 * rng.standard_normal((4, 4))).astype(dtype),)


def _expm_ref(a: Any) -> np.ndarray:
    return cast_tree(scipy.linalg.expm(np.asarray(a, np.float64)), float_dtype(a))


def _expm_jvp(args: tuple[Any, ...], t: np.ndarray) -> np.ndarray:
    a = np.asarray(args[0], np.float64)
    t = np.asarray(t, np.float64)
    if a.ndim == 2:
        return scipy.linalg.expm_frechet(a, t, compute_expm=False)
    flat_a, flat_t = a.reshape(-1, *a.shape[-2:]), t.reshape(-1, *a.shape[-2:])
    out = [
        scipy.linalg.expm_frechet(ai, ti, compute_expm=False)
        for ai, ti in zip(flat_a, flat_t, strict=True)
    ]
    return np.stack(out).reshape(a.shape)


def _expm_vjp(args: tuple[Any, ...], c: Any) -> np.ndarray:
    """L(a^T, c): the Fréchet derivative at the transpose, per matrix."""
    a = np.asarray(args[0], np.float64)
    at = np.swapaxes(a, -1, -2)
    c = np.broadcast_to(np.asarray(c, np.float64), a.shape)
    out = np.empty(a.shape)
    for i in np.ndindex(a.shape[:-2]):
        out[i] = scipy.linalg.expm_frechet(at[i], c[i], compute_expm=False)
    return out


def _expm_sized(dtype: np.dtype[Any], n: int) -> tuple[Any, ...]:
    m = int(np.sqrt(n))
    if m * m != n:
        raise ValueError(f"expm's benchmark input is a square matrix: n={n} is not a square")
    rng = np.random.default_rng(4)
    return ((0.5 / np.sqrt(m) * rng.standard_normal((m, m))).astype(dtype),)


def _expm_np(a: np.ndarray) -> np.ndarray:
    return scipy.linalg.expm(a).astype(a.dtype, copy=False)


# --- cubic_root(a, b): real root of x**3 + a*x - b = 0 -------------------------------------


def _cubic_args(dtype: np.dtype[Any]) -> tuple[Any, ...]:
    return (np.linspace(0.5, 2.0, 8).astype(dtype), np.linspace(-3.0, 4.0, 8).astype(dtype))


def cubic_root_scalar(a: float, b: float) -> float:
    """One real root of ``x**3 + a*x - b`` in float64 by Brent's method: the host work of the
    patterns (``_root`` in ``jaxcb_pure/cubic_root.py`` and its copies in jaxcb_io,
    jaxcb_buffer and jaxcb_pyffi, bit for bit: ``tests/core/test_catalog.py``), for the NumPy
    floor of the benchmarks. NaN for a non-finite ``a`` or ``b``. The cubic is odd in ``x``
    and ``b``: it solves for ``|b|`` and gives the root ``b``'s sign. For ``a > 0`` the root
    lies below both ``cbrt(|b|)`` and ``|b| / a``, for ``a <= 0`` below ``2 cbrt(|b|) +
    sqrt(-a)``: that bound (twice the first) brackets it, and a tiny absolute ``xtol`` leaves
    brentq's ``rtol`` (4 ulp) in charge. The reference values are the closed form
    (``_cubic_ref``), not this."""
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.nan
    c = abs(b)
    hi = 2 * min(math.cbrt(c), c / a) if a > 0 else 2 * math.cbrt(c) + math.sqrt(-a)
    if hi == 0:  # a >= 0 and b == 0: the root 0
        return 0.0
    eps, tiny = np.finfo(float).eps, np.finfo(float).tiny
    x = scipy.optimize.brentq(lambda x: x * x * x + a * x - c, 0.0, hi, xtol=tiny, rtol=4 * eps)
    return math.copysign(x, b)


def _cubic_ref(a: Any, b: Any) -> np.ndarray:
    """The closed form for ``a > 0`` (one real root), independent of the patterns' Brent
    iteration: ``x = 2 sqrt(a/3) sinh(asinh(3 b / (2 a) sqrt(3 / a)) / 3)``, in float64.
    Every step is well conditioned, for tiny ``b`` too (where a bracketing search with an
    absolute tolerance near zero can fail to converge)."""
    a64, b64 = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64))
    with np.errstate(all="ignore"):
        s = np.sqrt(a64 / 3)
        out = 2 * s * np.sinh(np.arcsinh(3 * b64 / (2 * a64 * s)) / 3)
    return cast_tree(out, float_dtype(a))


def _cubic_sized(dtype: np.dtype[Any], n: int) -> tuple[Any, ...]:
    return (np.linspace(0.5, 2.0, n, dtype=dtype), np.linspace(-3.0, 4.0, n, dtype=dtype))


def _cubic_into(out: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    a, b = np.broadcast_arrays(a, b)
    for i in np.ndindex(a.shape):
        out[i] = cubic_root_scalar(float(a[i]), float(b[i]))


def _cubic_np(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.empty(np.broadcast_shapes(np.shape(a), np.shape(b)), np.result_type(a, b))
    _cubic_into(out, a, b)
    return out


def _cubic_jvp(args: tuple[Any, ...], t: np.ndarray) -> np.ndarray:
    a = np.asarray(args[0], np.float64)
    x = np.asarray(_cubic_ref(a, np.asarray(args[1], np.float64)), np.float64)
    return np.asarray(t, np.float64) / (3 * x**2 + a)


PURE: tuple[Computation, ...] = (
    Computation(
        name="sin_scale",
        kind="pure",
        signature="sin_scale(x, y)",
        summary="sin(x) * y + 1, elementwise on a float array, scalar y",
        source="the Chinese pure_callback tutorial, its first example",
        make_args=_sin_scale_args,
        reference=_sin_scale_ref,
        diff_argnum=0,
        jvp_reference=_sin_scale_jvp,
        vjp_reference=diagonal_vjp(_sin_scale_jvp),
        sized_args=_sin_scale_sized,
        numpy=_sin_scale_np,
        numpy_into=_sin_scale_into,
    ),
    Computation(
        name="sum_mean",
        kind="pure",
        signature="sum_mean(x) -> (sum, mean)",
        summary="a pytree of outputs: the sum and the mean over the last axis",
        source="the Chinese pure_callback tutorial, its several-outputs example",
        make_args=_sum_mean_args,
        reference=_sum_mean_ref,
        diff_argnum=0,
        jvp_reference=_sum_mean_jvp,
        vjp_reference=_sum_mean_vjp,
        sized_args=_sum_mean_sized,
        numpy=_sum_mean_np,
    ),
    Computation(
        name="bessel_jv",
        kind="pure",
        signature="bessel_jv(v, z)",
        summary="scipy.special.jv, integer order v, differentiable in z (to any order)",
        source="JAX's early External callbacks guide, its pure_callback + custom_jvp example",
        make_args=_bessel_args,
        reference=_bessel_ref,
        batch_argnums=(1,),
        diff_argnum=1,
        jvp_reference=_bessel_jvp,
        vjp_reference=diagonal_vjp(_bessel_jvp),
        tolerances={"float32": (2e-5, 2e-6), "float64": (1e-10, 1e-12)},
        sized_args=_bessel_sized,
        numpy=_bessel_np,
        numpy_into=_bessel_into,
    ),
    Computation(
        name="expm",
        kind="pure",
        signature="expm(a)",
        summary="scipy.linalg.expm of square matrices (stacks allowed); not elementwise",
        source="jaxcb: a computation that is not elementwise",
        make_args=_expm_args,
        reference=_expm_ref,
        diff_argnum=0,
        jvp_reference=_expm_jvp,
        vjp_reference=_expm_vjp,
        tolerances={"float32": (1e-4, 1e-5), "float64": (1e-9, 1e-11)},
        sized_args=_expm_sized,
        numpy=_expm_np,
    ),
    Computation(
        name="cubic_root",
        kind="pure",
        signature="cubic_root(a, b)",
        summary="real root of x**3 + a*x - b by scipy.optimize.brentq (scalar-only host code)",
        source="jaxcb: scalar-only host code, differentiated implicitly",
        make_args=_cubic_args,
        reference=_cubic_ref,
        batch_argnums=(0, 1),
        diff_argnum=1,
        jvp_reference=_cubic_jvp,
        vjp_reference=diagonal_vjp(_cubic_jvp),
        tolerances={"float32": (5e-5, 5e-6), "float64": (1e-10, 1e-12)},
        sized_args=_cubic_sized,
        numpy=_cubic_np,
        numpy_into=_cubic_into,
    ),
)
