"""jaxcb buffer: every pure computation of the catalog through `jax.experimental.buffer_callback`.

Each module is one copyable pattern: a host function `on_host(ctx, out, *args)` that
writes its result into XLA's output buffers in place and returns `None`, the bare
callback `<name>_callback`, and the public function with a derivative rule and a
justified `vmap_method`.

`buffer_callback` was added in JAX 0.6.1. On an older JAX this package still imports
(`HAS_BUFFER_CALLBACK` is then `False` and the patterns are absent), and its registry
reports every computation unsupported, with the reason.
"""

from __future__ import annotations

try:
    from jax.experimental.buffer_callback import buffer_callback as _buffer_callback
except ImportError:  # JAX < 0.6.1
    HAS_BUFFER_CALLBACK = False
else:
    HAS_BUFFER_CALLBACK = True
    del _buffer_callback

if HAS_BUFFER_CALLBACK:
    from .bessel_jv import bessel_jv, bessel_jv_callback
    from .cubic_root import cubic_root, cubic_root_callback
    from .expm import expm, expm_callback
    from .sin_scale import sin_scale, sin_scale_callback
    from .sum_mean import sum_mean, sum_mean_callback

__all__ = [
    "HAS_BUFFER_CALLBACK",
    "bessel_jv",
    "bessel_jv_callback",
    "cubic_root",
    "cubic_root_callback",
    "expm",
    "expm_callback",
    "sin_scale",
    "sin_scale_callback",
    "sum_mean",
    "sum_mean_callback",
]
