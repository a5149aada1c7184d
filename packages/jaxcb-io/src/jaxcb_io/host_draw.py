"""Draw values from a host NumPy `Generator` with `jax.experimental.io_callback`.

The result is an *impure input*: it depends on state that lives on the host, and
each call must advance that state. `pure_callback` is wrong for this (JAX may drop
or merge calls it believes pure); `io_callback` is not removed when its result is
unused.

Contract:

- **Each call advances the generator.** One host call per call, even when the
  result is unused under `jax.jit`, so two calls return the next two draws. Not
  in a differentiated loop: there JAX draws once for all the steps.
- **Ordering.** `ordered=True` by default: several draws in one program are
  taken in program order, so results are reproducible from the seed.
- **dtype.** Always float32: the host draws `rng.standard_normal(shape)` (float64)
  and casts, under `jax_enable_x64` too.
- **Compiled once.** `shape`, `rng` and `ordered` are static arguments of one
  module-level `jax.jit`: repeated eager calls with the same three reuse the compiled
  draw instead of compiling a new one each time (a fresh closure per call would
  defeat JAX's cache). With `inline=True`, a call inside another `jax.jit` is traced into it rather than nested,
  as a plain function would be.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

from . import _checks

__all__ = ["host_draw", "on_host"]

_DEFAULT_RNG = np.random.default_rng()


# --8<-- [start:host]
def on_host(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Runs on the host: advances `rng` and returns float32, the dtype JAX was promised."""
    return rng.standard_normal(shape).astype(np.float32)


# --8<-- [end:host]


def _check(shape: object, rng: object, ordered: object) -> tuple[tuple[int, ...], bool]:
    shape = _checks.host_draw(shape, rng)
    return shape, _checks.flag("host_draw", "ordered", ordered)


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
        shape: a tuple of non-negative Python ints.
        rng: the host generator; default a module-level `np.random.default_rng()`.
        ordered: take draws in program order (default).

    Raises:
        ValueError: `shape` is not a tuple of non-negative ints below `2**31`.
        TypeError: `rng` has no `standard_normal` (it is not a `numpy.random.Generator`),
            or `ordered` is not a bool.
    """
    shape, ordered = _check(shape, rng, ordered)
    rng = _DEFAULT_RNG if rng is None else rng
    return _draw(shape=shape, rng=rng, ordered=ordered)


# --8<-- [end:pattern]
