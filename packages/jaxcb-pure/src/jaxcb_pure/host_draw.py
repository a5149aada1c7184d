"""COUNTER-EXAMPLE: drawing from a host NumPy `Generator` with `jax.pure_callback`. Do not copy.

This is the tempting way to get host randomness into JAX, and it is wrong: a pure
callback promises JAX that its result depends on its arguments only, while this one
reads and advances host state (the generator) and takes no arguments at all. What
goes wrong, measured on JAX 0.10.2 and 0.12.0.1 (CPU) by this package's tests:

- **An unused draw never happens.** Under `jax.jit` a draw whose result is unused
  is removed, so the generator is not advanced: "each call advances `rng`" fails.
- **`jax.vmap` gives every batch element the same draw.** The call has no
  operands, so no batched value reaches it and `vmap` never batches it
  (`vmap_method` is never consulted): one host call, one draw, repeated.

JAX's contract also allows it to merge two identical pure calls, which would hand
two draws in one `jit` the same values. That was *not* observed here: two draws in
one `jit` ran twice and differ (the tests pin this, so a JAX release that starts
merging them shows up). Use `jax.random` keys, or
`jax.experimental.io_callback(..., ordered=True)` (see the io package).

`vmap_method="sequential"` would mean one draw per batch element, if the call had a
batched operand; it has none, so the value is only there for a uniform signature.

The draw is one module-level `jax.jit` with `shape`, `rng` and `vmap_method` as
static arguments, so repeated eager calls reuse one compiled program.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from . import _checks

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "host_draw", "on_host"]

VMAP_METHOD = "sequential"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)

_RNG = np.random.default_rng()


# --8<-- [start:host]
def on_host(*, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Reads and advances the host generator: not a function of the arguments."""
    return rng.standard_normal(shape).astype(np.float32)


# --8<-- [end:host]


def _check(shape: object, rng: object, vmap_method: object) -> tuple[int, ...]:
    shape = _checks.host_draw(shape, rng)
    _checks.vmap_method("host_draw", vmap_method, VMAP_METHODS)
    return shape


# --8<-- [start:pattern]
@functools.partial(jax.jit, inline=True, static_argnames=("shape", "rng", "vmap_method"))
def _draw(
    *, shape: tuple[int, ...], rng: np.random.Generator, vmap_method: str | None
) -> jax.Array:
    host = functools.partial(on_host, shape=shape, rng=rng)
    out_type = jax.ShapeDtypeStruct(shape, jnp.float32)
    return jax.pure_callback(host, out_type, vmap_method=vmap_method)


def host_draw(
    shape: tuple[int, ...],
    *,
    rng: np.random.Generator | None = None,
    vmap_method: str | None = VMAP_METHOD,
) -> jax.Array:
    """Return float32 `rng.standard_normal(shape)`, *meaning* to advance `rng` each call.

    Wrong on purpose: see the module docstring for what actually happens.

    Args:
        shape: tuple of non-negative Python ints.
        rng: the host generator; `None` uses one module-level `default_rng()`.
        vmap_method: how `jax.vmap` would call the host.

    Raises:
        ValueError: `shape` is not a tuple of non-negative ints below `2**31`, or
            `vmap_method` is not one of `VMAP_METHODS`.
        TypeError: `rng` has no `standard_normal` (it is not a `numpy.random.Generator`).
    """
    shape = _check(shape, rng, vmap_method)
    rng = _RNG if rng is None else rng
    return _draw(shape=shape, rng=rng, vmap_method=vmap_method)


# --8<-- [end:pattern]
