"""The effects and the impure input of the catalog: one section per computation (its inputs,
reference and the host records it owes), then their entries, :data:`EFFECTS`.

NumPy only, never JAX.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .computation import Computation, Record, diagonal_vjp, float_dtype

__all__ = ["EFFECTS", "log_step"]


# --- log_steps(x0, n): every scan step reaches the host once, in order ----------------------


def log_step(x: Any) -> Any:
    """One step of ``log_steps`` and ``progress``: ``x -> 0.5 * x + 1``."""
    return 0.5 * x + 1.0


def _states(x0: Any, n: int) -> list[np.ndarray]:
    dtype = float_dtype(x0)
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


EFFECTS: tuple[Computation, ...] = (
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
        vjp_reference=diagonal_vjp(_loop_jvp),
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
        vjp_reference=diagonal_vjp(_loop_jvp),
        sink="report",
        records=_progress_records,
    ),
)
