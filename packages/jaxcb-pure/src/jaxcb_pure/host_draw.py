"""COUNTER-EXAMPLE: drawing from a host NumPy `Generator` with `jax.pure_callback`. Do not copy.

This is the tempting way to get host randomness into JAX, and it is wrong: a pure
callback promises JAX that its result depends on its arguments only, while this one
reads and advances host state (the generator) and takes no arguments at all. What
goes wrong, measured on JAX 0.10.2 and 0.12.0.1 (CPU) by this package's tests:

- **An unused draw never happens.** Under `jax.jit` a draw whose result is unused
  is removed, so the generator is not advanced: "each call advances `rng`" fails.
  <!-- jaxcb:expect pure_callback/default host_draw jit_unused host_calls=0 -->
- **`jax.vmap` gives every batch element the same draw.** The call has no
  operands, so no batched value reaches it and `vmap` never batches it
  (`vmap_method` is never consulted): one host call, one draw, repeated.
  <!-- jaxcb:expect-observation edge pure-host-draw-vmap host_draws=1 same_draw_in_every_member=true jax=0.10.2|0.12.0.1 -->

JAX's contract also allows it to merge two identical pure calls, which would hand
two draws in one `jit` the same values. That was *not* observed here: two draws in
one `jit` ran twice and differ (the tests pin this, so a JAX release that starts
merging them shows up). Use `jax.random` keys, or
`jax.experimental.io_callback(..., ordered=True)` (see the io package).

`vmap_method="sequential"` would mean one draw per batch element, if the call had a
batched operand; it has none, so the value is only there for a uniform signature.

The draw is one module-level `jax.jit` with `shape`, `rng` and `vmap_method` as
static arguments, so repeated eager calls reuse one compiled program.

`shape` is checked against NumPy's limits for the float64 draw before JAX sees it: at
most 64 axes (32 before NumPy 2), and sizes other than 0 that multiply to less than
`2**60`. XLA compiles more axes (4000 were tried), and the host call then fails inside
the compiled program.
"""

from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp
import numpy as np

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "host_draw", "on_host"]

VMAP_METHOD = "sequential"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)

_RNG = np.random.default_rng()
# NumPy's limits for the float64 draw on the host: its axes, and 8 bytes a value counted in
# int64 (zero sizes left out). XLA's (any rank tried, 4 bytes a float32 value) are wider.
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


# --8<-- [start:host]
def on_host(*, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Reads and advances the host generator: not a function of the arguments."""
    return rng.standard_normal(shape).astype(np.float32)


# --8<-- [end:host]


def _check(shape: object, rng: object, vmap_method: object) -> tuple[int, ...]:
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
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"host_draw: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}"
        )
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
        shape: tuple of non-negative Python ints below `2**31`: at most 64 axes (32
            before NumPy 2), and the sizes other than 0 multiplying to less than `2**60`.
        rng: the host generator; `None` uses one module-level `default_rng()`.
        vmap_method: how `jax.vmap` would call the host.

    Raises:
        ValueError: `shape` is not a tuple of non-negative ints below `2**31`, has more
            axes or values than NumPy can draw, or `vmap_method` is not one of
            `VMAP_METHODS`.
        TypeError: `rng` has no `standard_normal` (it is not a `numpy.random.Generator`).
    """
    shape = _check(shape, rng, vmap_method)
    rng = _RNG if rng is None else rng
    return _draw(shape=shape, rng=rng, vmap_method=vmap_method)


# --8<-- [end:pattern]
