"""jaxcb compute_on: every pure computation of the catalog run by XLA on the host's processor.

`jax.experimental.compute_on` with `compute_type="device_host"` marks the operations of a
`jax.numpy` function to run on the host, inside the compiled program, with no Python on
the way. `computations.py` wraps the `jax.numpy` code of each `jaxcb_native` function of
the catalog in `on_host`, which knows the form the installed JAX takes.
"""

from __future__ import annotations

from .computations import bessel_jv, cubic_root, expm, sin_scale, sum_mean

__all__ = ["bessel_jv", "cubic_root", "expm", "sin_scale", "sum_mean"]
