"""The argument checks of this package's patterns: every check the packages share comes
from `jaxcb_native._checks` (one place for all of them); `concrete` is this package's own.

Not part of any lesson: each pattern module calls these first, so that every bad argument
is a `TypeError` or `ValueError` naming it, raised before JAX sees it, and the module itself
holds the pattern. Copy this file and `jaxcb_native/_checks.py` with the pattern module
you copy.
"""

from __future__ import annotations

import jax

from jaxcb_native._checks import *  # noqa: F403 (the checks every package shares)


def concrete(fn: str, **arrays: jax.Array) -> None:
    """Raise `TypeError` naming the first traced argument: colocated_python needs values."""
    for name, value in arrays.items():
        if isinstance(value, jax.core.Tracer):
            raise TypeError(
                f"{fn}: {name} must be a concrete array, got a traced array: colocated_python "
                "runs outside jit, grad, vmap and every other transform that traces"
            )
