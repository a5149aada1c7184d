"""jaxcb compute_on: every pure computation of the catalog run by XLA on the host's processor.

`jax.experimental.compute_on` with `compute_type="device_host"` marks the operations of a
`jax.numpy` function to run on the host, inside the compiled program, with no Python on
the way. Each module wraps the `jaxcb_native` function of the same name.
"""

from __future__ import annotations

from .bessel_jv import bessel_jv
from .cubic_root import cubic_root
from .expm import expm
from .sin_scale import sin_scale
from .sum_mean import sum_mean

__all__ = ["bessel_jv", "cubic_root", "expm", "sin_scale", "sum_mean"]
