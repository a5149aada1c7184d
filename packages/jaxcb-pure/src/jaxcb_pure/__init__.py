"""jaxcb pure: every pure computation of the catalog through `jax.pure_callback`.

Each module is one copyable pattern: a host function `on_host`, the bare callback
`<name>_callback`, and the public function with a derivative rule and a justified
`vmap_method`. `log_steps` and `host_draw` are deliberate counter-examples: a pure
callback used for an effect and for impure input, documented with what goes wrong.
"""

from __future__ import annotations

from .bessel_jv import bessel_jv, bessel_jv_callback
from .cubic_root import cubic_root, cubic_root_callback
from .expm import expm, expm_callback
from .host_draw import host_draw
from .log_steps import log_steps
from .sin_scale import sin_scale, sin_scale_callback
from .sum_mean import sum_mean, sum_mean_callback

__all__ = [
    "bessel_jv",
    "bessel_jv_callback",
    "cubic_root",
    "cubic_root_callback",
    "expm",
    "expm_callback",
    "host_draw",
    "log_steps",
    "sin_scale",
    "sin_scale_callback",
    "sum_mean",
    "sum_mean_callback",
]
