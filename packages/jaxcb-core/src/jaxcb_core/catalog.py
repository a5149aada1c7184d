"""The computation catalog: what every mechanism package implements.

Each :class:`Computation` names one computation and carries everything a harness
needs to check an implementation of it without knowing which mechanism made it:
deterministic inputs for both float widths, a NumPy/SciPy reference, tolerances,
an analytic derivative reference where the computation is differentiable, and for
side-effect computations the host records that must arrive.

The catalog is mechanism-free: it imports NumPy and SciPy only, never JAX.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.special

Kind = Literal["pure", "effect", "impure"]
Record = tuple[int, np.ndarray]

__all__ = [
    "CATALOG",
    "Computation",
    "Record",
    "by_name",
    "log_step",
]


@dataclasses.dataclass(frozen=True)
class Computation:
    """One entry of the catalog.

    Attributes:
        name: the function name every mechanism package uses for it.
        kind: ``"pure"`` (a function of its inputs), ``"effect"`` (must reach a
            host sink exactly once per step, in order) or ``"impure"`` (reads host
            state that each call must advance).
        signature: the call signature, as documented.
        summary: one line for tables and the terminal.
        source: where the computation comes from (one of the two source texts this project
            checks, named by its title, or jaxcb's own catalog).
        make_args: ``make_args(dtype)`` returns the positional arguments used by
            the tests and the matrix (small, deterministic).
        reference: NumPy/SciPy reference; takes the positional arguments, returns
            a pytree (array or tuple of arrays) in the input float dtype.
        static_argnums: positional arguments that are Python values (closed over
            under ``jit``, never batched).
        batch_argnums: arguments that carry a leading batch axis under ``vmap``.
        diff_argnum: the argument derivatives are taken with respect to.
        jvp_reference: ``jvp_reference(args, tangent)`` gives the directional
            derivative along ``tangent`` for the argument ``diff_argnum``.
        vjp_reference: ``vjp_reference(args, cotangent)``, the pullback, analytic where
            it is cheap (``jaxcb_core.references`` otherwise builds the Jacobian).
        sink: keyword through which an effect computation reaches the host
            (``"log"``, ``"report"`` or ``"rng"``).
        records: for effect computations, the ``(step, state)`` records the host
            sink must receive for one call, in order.
        tolerances: ``{dtype name: (rtol, atol)}``.
        sized_args: ``sized_args(dtype, n)``, arguments with ``n`` elements per array
            argument (``expm``: one square matrix of ``n`` entries), for the benchmarks.
        numpy: the computation in NumPy/SciPy on NumPy arrays, in the input dtype: what a
            user writes without JAX, the floor no callback can beat.
        numpy_into: the same writing into a preallocated ``out`` (first argument), where
            NumPy/SciPy can (``None`` elsewhere).
    """

    name: str
    kind: Kind
    signature: str
    summary: str
    source: str
    make_args: Callable[[np.dtype[Any]], tuple[Any, ...]]
    reference: Callable[..., Any]
    static_argnums: tuple[int, ...] = ()
    batch_argnums: tuple[int, ...] = (0,)
    diff_argnum: int | None = None
    jvp_reference: Callable[[tuple[Any, ...], np.ndarray], Any] | None = None
    vjp_reference: Callable[[tuple[Any, ...], Any], np.ndarray] | None = None
    sink: str | None = None
    records: Callable[..., list[Record]] | None = None
    tolerances: dict[str, tuple[float, float]] = dataclasses.field(
        default_factory=lambda: {"float32": (2e-5, 2e-6), "float64": (1e-10, 1e-12)}
    )
    sized_args: Callable[[np.dtype[Any], int], tuple[Any, ...]] | None = None
    numpy: Callable[..., Any] | None = None
    numpy_into: Callable[..., None] | None = None

    @property
    def differentiable(self) -> bool:
        return self.diff_argnum is not None and self.jvp_reference is not None

    def tolerance(self, dtype: Any) -> tuple[float, float]:
        """``(rtol, atol)`` for results of ``dtype``."""
        return self.tolerances[np.dtype(dtype).name]

    def batched_args(self, dtype: Any, batch: int, step: float = 0.25) -> tuple[Any, ...]:
        """Arguments with a leading axis of ``batch`` on every ``batch_argnums``.

        Element ``i`` of the batch is the base input shifted by ``step * i``
        (integers by ``i``), so batch elements differ and results can be matched
        to the element that produced them.
        """
        base = self.make_args(np.dtype(dtype))
        out = []
        for i, a in enumerate(base):
            if i in self.batch_argnums:
                a = np.asarray(a)
                shift = 1 if np.issubdtype(a.dtype, np.integer) else step
                out.append(np.stack([a + shift * k for k in range(batch)]).astype(a.dtype))
            else:
                out.append(a)
        return tuple(out)

    def element(self, batched: Sequence[Any], i: int) -> tuple[Any, ...]:
        """Element ``i`` of arguments made by :meth:`batched_args`."""
        return tuple(
            np.asarray(a)[i] if k in self.batch_argnums else a for k, a in enumerate(batched)
        )


def _diagonal_vjp(
    jvp: Callable[[tuple[Any, ...], np.ndarray], Any],
) -> Callable[[tuple[Any, ...], Any], np.ndarray]:
    """The pullback of an elementwise map: its Jacobian is diagonal, so vjp = jvp."""
    return lambda args, c: np.asarray(jvp(args, np.asarray(c, np.float64)), np.float64)


def _cast(tree: Any, dtype: Any) -> Any:
    if isinstance(tree, tuple):
        return tuple(_cast(t, dtype) for t in tree)
    return np.asarray(tree).astype(dtype)


def _float_dtype(*args: Any) -> np.dtype[Any]:
    for a in args:
        a = np.asarray(a)
        if np.issubdtype(a.dtype, np.floating):
            return a.dtype
    return np.dtype("float32")


# --- sin_scale(x, y) = sin(x) * y + 1 ---------------------------------------------------------


def _sin_scale_args(dtype: np.dtype[Any]) -> tuple[Any, ...]:
    return (np.linspace(-2.0, 2.0, 8).astype(dtype), np.asarray(1.5, dtype))


def _sin_scale_ref(x: Any, y: Any) -> np.ndarray:
    x64, y64 = np.asarray(x, np.float64), np.asarray(y, np.float64)
    return _cast(np.sin(x64) * y64 + 1.0, _float_dtype(x))


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
    return _cast((x64.sum(axis=-1), x64.mean(axis=-1)), _float_dtype(x))


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
    return _cast(scipy.special.jv(np.asarray(v), np.asarray(z, np.float64)), _float_dtype(z))


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
    return _cast(scipy.linalg.expm(np.asarray(a, np.float64)), _float_dtype(a))


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
    return _cast(out, _float_dtype(a))


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


# --- log_steps(x0, n): every scan step reaches the host once, in order ----------------------


def log_step(x: Any) -> Any:
    """One step of ``log_steps`` and ``progress``: ``x -> 0.5 * x + 1``."""
    return 0.5 * x + 1.0


def _states(x0: Any, n: int) -> list[np.ndarray]:
    dtype = _float_dtype(x0)
    x = np.asarray(x0, np.float64)
    out = []
    for _ in range(n):
        x = log_step(x)
        out.append(x.astype(dtype))
    return out


def _log_args(dtype: np.dtype[Any]) -> tuple[Any, ...]:
    return (np.linspace(-1.0, 1.0, 8).astype(dtype), 4)


def _log_ref(x0: Any, n: int) -> np.ndarray:
    return _states(x0, n)[-1] if n else np.asarray(x0)


def _log_records(x0: Any, n: int) -> list[Record]:
    return [(k + 1, s) for k, s in enumerate(_states(x0, n))]


def _loop_jvp(args: tuple[Any, ...], t: np.ndarray) -> np.ndarray:
    return np.asarray(t, np.float64) * 0.5 ** args[1]


# --- host_draw(shape): values from a host numpy Generator ----------------------------------


def _draw_args(dtype: np.dtype[Any]) -> tuple[Any, ...]:
    return ((8,),)


def _draw_ref(shape: tuple[int, ...], rng: np.random.Generator | None = None) -> np.ndarray:
    """The next draw of ``rng`` (the harness passes a twin of the generator used)."""
    if rng is None:
        raise TypeError("host_draw's reference needs the twin generator")
    return rng.standard_normal(shape).astype(np.float32)


# --- progress(x0, n, every): throttled host reports -----------------------------------------


def _progress_args(dtype: np.dtype[Any]) -> tuple[Any, ...]:
    return (np.linspace(-1.0, 1.0, 8).astype(dtype), 12, 4)


def _progress_ref(x0: Any, n: int, every: int) -> np.ndarray:
    return _log_ref(x0, n)


def _progress_records(x0: Any, n: int, every: int) -> list[Record]:
    return [(k, s) for k, s in _log_records(x0, n) if k % every == 0]


CATALOG: tuple[Computation, ...] = (
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
        vjp_reference=_diagonal_vjp(_sin_scale_jvp),
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
        vjp_reference=_diagonal_vjp(_bessel_jvp),
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
        vjp_reference=_diagonal_vjp(_cubic_jvp),
        tolerances={"float32": (5e-5, 5e-6), "float64": (1e-10, 1e-12)},
        sized_args=_cubic_sized,
        numpy=_cubic_np,
        numpy_into=_cubic_into,
    ),
    Computation(
        name="log_steps",
        kind="effect",
        signature="log_steps(x0, n, *, log)",
        summary="lax.scan of n steps; every step's state reaches the host log once, in order",
        source="jaxcb: an effect that must reach the host once per step",
        make_args=_log_args,
        reference=_log_ref,
        static_argnums=(1,),
        diff_argnum=0,
        jvp_reference=_loop_jvp,
        vjp_reference=_diagonal_vjp(_loop_jvp),
        sink="log",
        records=_log_records,
    ),
    Computation(
        name="host_draw",
        kind="impure",
        signature="host_draw(shape, *, rng)",
        summary="float32 values drawn from a host numpy Generator; each call advances it",
        source="jaxcb: an input read from host state",
        make_args=_draw_args,
        reference=_draw_ref,
        static_argnums=(0,),
        batch_argnums=(),
        sink="rng",
    ),
    Computation(
        name="progress",
        kind="effect",
        signature="progress(x0, n, every, *, report)",
        summary="long lax.scan reporting to the host every `every` steps only (throttled)",
        source="jaxcb: throttled progress reports",
        make_args=_progress_args,
        reference=_progress_ref,
        static_argnums=(1, 2),
        diff_argnum=0,
        jvp_reference=_loop_jvp,
        vjp_reference=_diagonal_vjp(_loop_jvp),
        sink="report",
        records=_progress_records,
    ),
)


def by_name(name: str) -> Computation:
    """The catalog entry called ``name``."""
    for c in CATALOG:
        if c.name == name:
            return c
    raise KeyError(f"no computation named {name!r}; known: {[c.name for c in CATALOG]}")
