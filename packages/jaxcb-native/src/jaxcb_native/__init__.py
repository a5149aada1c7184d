"""jaxcb native: every pure computation of the catalog in `jax.numpy` / `jax.scipy` / `lax`.

The baseline the callback packages are measured against: no host round trip, so
every transform works and XLA optimises the whole computation.
"""

from __future__ import annotations

from .bessel_jv import bessel_jv
from .cubic_root import cubic_root
from .expm import expm
from .sin_scale import sin_scale
from .sum_mean import sum_mean

__all__ = ["bessel_jv", "cubic_root", "expm", "sin_scale", "sum_mean"]
