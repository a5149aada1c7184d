"""The argument checks of this package's patterns: every check the packages share comes
from `jaxcb_native._checks` (one place for all of them), and this file adds the ones only
this package needs.

Not part of any lesson: each pattern module calls these first, so that every bad argument
is a `TypeError` or `ValueError` naming it, raised before JAX sees it, and the module itself
holds the pattern. Copy this file and `jaxcb_native/_checks.py` with the pattern module
you copy.
"""

from __future__ import annotations

import jax
from jax.typing import ArrayLike

from jaxcb_native._checks import (  # the checks every package shares
    ORDER_LIMIT,
    bessel_jv,
    bessel_jv_for_host,
    count,
    cubic_root,
    cubic_root_for_host,
    expm,
    expm_for_host,
    floating,
    sin_scale,
    sin_scale_for_host,
    sum_mean,
    sum_mean_for_host,
    vmap_method,
)

__all__ = [
    "ORDER_LIMIT",
    "bessel_jv",
    "bessel_jv_for_host",
    "cubic_root",
    "cubic_root_for_host",
    "expm",
    "expm_for_host",
    "log_steps",
    "sin_scale",
    "sin_scale_for_host",
    "sum_mean",
    "sum_mean_for_host",
    "vmap_method",
]


def log_steps(x0: ArrayLike, n: object) -> jax.Array:
    """`x0` floating on one device, `n` a step count."""
    x0 = floating("log_steps", "x0", x0)
    count("log_steps", "n", n, 0)
    if not isinstance(x0, jax.core.Tracer) and len(x0.devices()) > 1:  # before XLA says it worse
        raise ValueError(
            "log_steps: x0 must be on one device (XLA cannot partition a side-effecting FFI "
            f"call), got x0 on {len(x0.devices())} devices"
        )
    return x0
