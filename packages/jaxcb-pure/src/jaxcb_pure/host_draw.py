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
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

__all__ = ["VMAP_METHOD", "host_draw", "on_host"]

VMAP_METHOD = "sequential"

_RNG = np.random.default_rng()


# --8<-- [start:host]
def on_host(*, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Reads and advances the host generator: not a function of the arguments."""
    return rng.standard_normal(shape).astype(np.float32)


# --8<-- [end:host]


def _check(shape: object) -> tuple[int, ...]:  # checked at run time
    if not (
        isinstance(shape, tuple)
        and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape)
    ):
        raise ValueError(f"host_draw: shape must be a tuple of non-negative ints, got {shape!r}")
    return shape


# --8<-- [start:pattern]
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
        ValueError: `shape` is not a tuple of non-negative ints.
    """
    shape = _check(shape)
    host = functools.partial(on_host, shape=shape, rng=_RNG if rng is None else rng)
    out_type = jax.ShapeDtypeStruct(shape, jnp.float32)
    return jax.pure_callback(host, out_type, vmap_method=vmap_method)


# --8<-- [end:pattern]
