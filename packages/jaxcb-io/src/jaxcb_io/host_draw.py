"""Draw values from a host NumPy `Generator` with `jax.experimental.io_callback`.

The result is an *impure input*: it depends on state that lives on the host, and
each call must advance that state. `pure_callback` is wrong for this (JAX may drop
or merge calls it believes pure); `io_callback` is not removed when its result is
unused.
<!-- jaxcb:expect io_callback host_draw jit_unused effects.verdict=exact host_calls=1 -->

Contract:

- **Each call advances the generator.** One host call per call, even when the
  result is unused under `jax.jit`, so two calls return the next two draws. Not
  in a differentiated loop: there JAX draws once for all the steps.
  <!-- jaxcb:expect io_callback host_draw jit_unused effects.verdict=exact host_calls=1 -->
  <!-- jaxcb:expect io_callback host_draw grad_scan_args|grad_fori_args host_calls=1 -->
  <!-- jaxcb:expect io_callback host_draw grad_scan_args|grad_fori_args effects.verdict=missing -->
- **Ordering.** `ordered=True` by default: several draws in one program are
  taken in program order, so results are reproducible from the seed.
  <!-- jaxcb:expect io_callback/ordered host_draw scan effects.verdict=exact -->
- **dtype.** Always float32: the host draws `rng.standard_normal(shape)` (float64)
  and casts, under `jax_enable_x64` too.
- **Shape.** Checked against NumPy's limits for that float64 draw before JAX sees it:
  at most 64 axes (32 before NumPy 2), and sizes other than 0 that multiply to less
  than `2**60`. XLA compiles more axes (4000 were tried), and the host call then fails
  inside the compiled program.
- **Compiled once.** `shape`, `rng` and `ordered` are static arguments of one
  module-level `jax.jit`: repeated eager calls with the same three reuse the compiled
  draw instead of compiling a new one each time (a fresh closure per call would
  defeat JAX's cache). With `inline=True`, a call inside another `jax.jit` is traced into it rather than nested,
  as a plain function would be.
"""

from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

__all__ = ["host_draw", "on_host"]

_DEFAULT_RNG = np.random.default_rng()
# NumPy's limits for the float64 draw on the host: its axes, and 8 bytes a value counted in
# int64 (zero sizes left out). XLA's (any rank tried, 4 bytes a float32 value) are wider.
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


# --8<-- [start:host]
def on_host(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Runs on the host: advances `rng` and returns float32, the dtype JAX was promised."""
    return rng.standard_normal(shape).astype(np.float32)


# --8<-- [end:host]


def _check(shape: object, rng: object, ordered: object) -> tuple[tuple[int, ...], bool]:
    """`shape` a tuple of non-negative ints NumPy can draw; `rng` a NumPy generator or None."""
    if not (
        isinstance(shape, tuple)
        and all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d < 2**31 for d in shape)
    ):
        raise ValueError(
            f"host_draw: shape must be a tuple of non-negative ints below 2**31, got {shape!r}"
        )
    if len(shape) > _MAX_AXES or math.prod(d for d in shape if d) >= 2**60:
        raise ValueError(
            f"host_draw: shape must have at most {_MAX_AXES} axes, and its sizes other than 0 "
            f"must multiply to less than 2**60 (NumPy's limits for a float64 draw), got {shape!r}"
        )
    if rng is not None and not callable(getattr(rng, "standard_normal", None)):
        raise TypeError(  # duck-typed: a wrapper that counts draws is a generator too
            "host_draw: rng must be a numpy.random.Generator (an object with "
            f"standard_normal) or None, got {type(rng).__name__}"
        )
    if not isinstance(ordered, bool | np.bool_):
        raise TypeError(f"host_draw: ordered must be a bool, got {type(ordered).__name__}")
    return shape, bool(ordered)


# --8<-- [start:pattern]
@functools.partial(jax.jit, inline=True, static_argnames=("shape", "rng", "ordered"))
def _draw(*, shape: tuple[int, ...], rng: np.random.Generator, ordered: bool) -> jax.Array:
    out_type = jax.ShapeDtypeStruct(shape, jnp.float32)
    return io_callback(functools.partial(on_host, rng, shape), out_type, ordered=ordered)


def host_draw(
    shape: tuple[int, ...], *, rng: np.random.Generator | None = None, ordered: bool = True
) -> jax.Array:
    """Return float32 standard normal values drawn on the host; each call advances `rng`.

    Args:
        shape: a tuple of non-negative Python ints below `2**31`: at most 64 axes (32
            before NumPy 2), and the sizes other than 0 multiplying to less than `2**60`.
        rng: the host generator; default a module-level `np.random.default_rng()`.
        ordered: take draws in program order (default).

    Raises:
        ValueError: `shape` is not a tuple of non-negative ints below `2**31`, or has
            more axes or values than NumPy can draw.
        TypeError: `rng` has no `standard_normal` (it is not a `numpy.random.Generator`),
            or `ordered` is not a bool.
    """
    shape, ordered = _check(shape, rng, ordered)
    rng = _DEFAULT_RNG if rng is None else rng
    return _draw(shape=shape, rng=rng, ordered=ordered)


# --8<-- [end:pattern]
