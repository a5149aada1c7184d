"""Draw values from a host NumPy `Generator` with `jax.experimental.io_callback`.

The result is an *impure input*: it depends on state that lives on the host, and
each call must advance that state. `pure_callback` is wrong for this (JAX may drop
or merge calls it believes pure); `io_callback` runs every time.

Contract:

- **Each call advances the generator.** One host call per execution, even when
  the result is unused under `jax.jit`, so two calls return the next two draws.
- **Ordering.** `ordered=True` by default: several draws in one program are
  taken in program order, so results are reproducible from the seed.
- **dtype.** Always float32: the host draws `rng.standard_normal(shape)` (float64)
  and casts, under `jax_enable_x64` too.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

__all__ = ["host_draw", "on_host"]

_DEFAULT_RNG = np.random.default_rng()


# --8<-- [start:host]
def on_host(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Runs on the host: advances `rng` and returns float32, the dtype JAX was promised."""
    return rng.standard_normal(shape).astype(np.float32)


# --8<-- [end:host]


def _check(shape: object) -> tuple[int, ...]:  # checked at run time
    if isinstance(shape, tuple) and all(
        isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape
    ):
        return shape
    raise ValueError(f"host_draw: shape must be a tuple of non-negative ints, got {shape!r}")


# --8<-- [start:pattern]
def host_draw(
    shape: tuple[int, ...], *, rng: np.random.Generator | None = None, ordered: bool = True
) -> jax.Array:
    """Return float32 standard normal values drawn on the host; each call advances `rng`.

    Args:
        shape: a tuple of non-negative Python ints.
        rng: the host generator; default a module-level `np.random.default_rng()`.
        ordered: take draws in program order (default).

    Raises:
        ValueError: `shape` is not a tuple of non-negative ints.
    """
    shape = _check(shape)
    rng = _DEFAULT_RNG if rng is None else rng
    out_type = jax.ShapeDtypeStruct(shape, jnp.float32)
    return io_callback(functools.partial(on_host, rng, shape), out_type, ordered=ordered)


# --8<-- [end:pattern]
