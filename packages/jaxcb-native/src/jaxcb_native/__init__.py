"""jaxcb native: every pure computation of the catalog in `jax.numpy` / `jax.scipy` / `lax`.

The baseline the callback packages are measured against: no host round trip, so XLA
optimises the whole computation and every transform of the support matrix works on JAX
0.10.2 and 0.12.0.1; on JAX 0.4.30 one cell fails, `shard_map` of `expm`
(`NotImplementedError`: "No replication rule for cond").
<!-- jaxcb:expect native/jax * * status=ok jax=0.12.0.1|0.10.2 -->
<!-- jaxcb:expect native/jax expm shard_map status=error error_type=NotImplementedError jax=0.4.30 -->
"""

from __future__ import annotations

from .bessel_jv import bessel_jv
from .cubic_root import cubic_root
from .expm import expm
from .sin_scale import sin_scale
from .sum_mean import sum_mean

__all__ = ["bessel_jv", "cubic_root", "expm", "sin_scale", "sum_mean"]
